"""Reading the other players' hands from their draws and plays, assuming they play as the ``heuristic`` bot does.

A seat that drew held nothing playable. The usual opponents follow known rules, and each of their
plays says more:

- a seat that played a plain card X without drawing held no playable plain card costlier than X
  (the heuristic sheds the costliest first), nor one as costly of X's suit with a lower id (its
  tie-break);
- a seat that played a plain card while someone was down to one card held no eight (it would have
  unloaded it);
- a seat that played an eight while nobody was down to one card held no playable plain card.

Each statement holds for the hand of that moment and so for the hand until the seat draws again
(it only loses cards meanwhile). Every order in which the cards new on the pile could have been
played is tried and only what holds in all of them is kept. Against players who do not play by
these rules the statements can be wrong; the sampler then drops a constraint it cannot meet
(``search.deal_table``), so a wrong read costs strength, never a move. The search uses this
reading only when its particle filter (``particles``) has no hypothesis.
"""

from __future__ import annotations

from typing import Final

from cardtable.core.types import Seat
from cardtable.games.crazy_eights.actions import Action, Draw, Pass, Play, PlayEight
from cardtable.games.crazy_eights.game import MATCH
from cardtable.games.crazy_eights.observation import CrazyEightsObservation
from cardtable.games.crazy_eights.players.heuristic import ENDGAME_CARDS
from cardtable.games.crazy_eights.rules import BIT, EIGHTS, PENALTY, RANK_OF, SUIT_INDEX, SUIT_OF


def _preferred(d: int, c: int) -> bool:
    """Whether the heuristic plays plain card d before c whatever else it holds: costlier, or as costly,
    of the same suit (same count held) and a lower id."""
    return RANK_OF[d] != 6 and (PENALTY[d] > PENALTY[c] or (
        PENALTY[d] == PENALTY[c] and SUIT_OF[d] == SUIT_OF[c] and d < c))


#: PREFERRED[c]: the plain cards the heuristic would have played instead of c had it held them.
PREFERRED: Final = tuple(sum(BIT[d] for d in range(52) if _preferred(d, c)) for c in range(52))
_PLAIN_ALL: Final = ((1 << 52) - 1) & ~EIGHTS


def play_reveals(card: int, suit: int, top: int, endgame: bool) -> int:
    """The cards a heuristic player cannot have held when it played ``card`` on ``top`` with ``suit`` in force."""
    match = MATCH[top * 4 + suit]
    if BIT[card] & EIGHTS:
        return 0 if endgame else match & _PLAIN_ALL
    return (match & PREFERRED[card]) | (EIGHTS if endgame else 0)


class ModelTracker:
    """Per other seat, the cards it cannot hold, from its draws and from its plays read by the heuristic's rules."""

    def __init__(self) -> None:
        self.round = -1
        self.left: tuple[int, int] | None = None  # (suit, top) we left the next seat
        self.counts: tuple[int, ...] = ()  # hand sizes just after our action
        self.pile: frozenset[int] = frozenset()  # the pile, top included, just after our action
        self.lacks: dict[Seat, int] = {}

    def before_turn(self, obs: CrazyEightsObservation) -> None:
        """Update from the observation at the start of (or during) our turn."""
        seat = obs.seat if obs.seat is not None else 0
        if obs.round != self.round or (self.counts and len(self.counts) != obs.players):
            self.round, self.left, self.lacks, self.counts = obs.round, None, {}, ()
            self._read_opening(obs, seat)
            return
        if self.left is None:
            return
        order = [(seat + k) % obs.players for k in range(1, obs.players)]
        changes = [obs.hand_counts[s] - self.counts[s] for s in order]
        pile = frozenset(obs.discard_pile) | {obs.top}
        found = None
        if self.pile <= pile:
            found = _explain(self.left, list(self.counts), order, changes, pile - self.pile,
                             (SUIT_INDEX[obs.suit], obs.top))
        for i, other in enumerate(order):
            drew = changes[i] >= 0
            if found is None:
                if drew:  # what it faced is unknown unless it is the next seat; an eight it lacks anyway
                    self.lacks[other] = EIGHTS if i else MATCH[self.left[1] * 4 + self.left[0]]
                continue
            if drew:
                self.lacks[other] = found[i]
            else:
                self.lacks[other] = self.lacks.get(other, 0) | found[i]
        self.left = None

    def _read_opening(self, obs: CrazyEightsObservation, seat: Seat) -> None:
        """Our first turn of a round: read the seats that played before us from the starter on.

        The starter is one of the cards on the pile (which one is not shown), so every choice is
        tried and only what holds for all of them is kept.
        """
        n = obs.players
        leader = (obs.dealer + 1) % n
        order = [(leader + k) % n for k in range((seat - leader) % n)]
        if not order or obs.drawn_this_turn:
            return
        size = len(obs.hand)
        changes = [obs.hand_counts[s] - size for s in order]
        pile = frozenset(obs.discard_pile) | {obs.top}
        found: list[int] | None = None
        for starter in pile:
            new = pile - {starter}
            explained = _explain((SUIT_OF[starter], starter), [size] * n, order, changes, new,
                                 (SUIT_INDEX[obs.suit], obs.top))
            if explained is not None:
                found = explained if found is None else [a & b for a, b in zip(found, explained)]
        if found is not None:
            self.lacks = {other: mask for other, mask in zip(order, found) if mask}

    def after_action(self, obs: CrazyEightsObservation, action: Action) -> None:
        """Remember what our action leaves the others (a draw keeps our turn going)."""
        if isinstance(action, Draw):
            return
        seat = obs.seat if obs.seat is not None else 0
        counts = list(obs.hand_counts)
        pile = set(obs.discard_pile) | {obs.top}
        self.left = left_by(obs, action) or self.left
        if isinstance(action, (Play, PlayEight)):
            pile.add(action.card)
            counts[seat] -= 1
        self.counts = tuple(counts)
        self.pile = frozenset(pile)

    def forbidden(self, obs: CrazyEightsObservation) -> dict[Seat, int]:
        """Per other seat, the cards it cannot hold."""
        return {s: m for s, m in self.lacks.items() if m}


def _explain(start: tuple[int, int], counts: list[int], order: list[Seat], changes: list[int],
             new: frozenset[int], end: tuple[int, int]) -> list[int] | None:
    """Per seat in turn order, what it cannot hold in every order of play that explains ``new`` (None: none does).

    For a seat that drew: the cards of what it faced (all its hand lacks). For a seat that played
    without drawing: what that play reveals (``play_reveals``).
    """
    out: list[int] | None = None
    n = len(counts)

    def walk(i: int, suit: int, top: int, left: frozenset[int], sizes: list[int], facing: list[int]) -> None:
        nonlocal out
        if i == len(changes):
            if not left and (suit, top) == end:
                out = facing if out is None else [a & b for a, b in zip(out, facing)]
            return
        seat = order[i]
        drew = changes[i] >= 0
        after = sizes.copy()
        after[seat] += changes[i]
        if drew:
            here = facing + [MATCH[top * 4 + suit]]
            walk(i + 1, suit, top, left, after, here)  # it drew and passed (or passed with nothing to draw)
        if changes[i] >= -1:
            endgame = any(sizes[s] <= ENDGAME_CARDS for s in range(n) if s != seat)
            for card in left:
                if BIT[card] & MATCH[top * 4 + suit]:
                    reveals = MATCH[top * 4 + suit] if drew else play_reveals(card, suit, top, endgame)
                    suits = range(4) if EIGHTS & BIT[card] else (SUIT_OF[card],)
                    for named in suits:
                        walk(i + 1, named, card, left - {card}, after, facing + [reveals])

    walk(0, *start, new, counts, [])
    return out


def left_by(obs: CrazyEightsObservation, action: Action) -> tuple[int, int] | None:
    """The (suit in force, top card) our ``action`` leaves the next player; None for a draw."""
    if isinstance(action, PlayEight):
        return (SUIT_INDEX[action.suit], action.card)
    if isinstance(action, Play):
        return (SUIT_OF[action.card], action.card)
    if isinstance(action, Pass):
        return (SUIT_INDEX[obs.suit], obs.top)
    return None
