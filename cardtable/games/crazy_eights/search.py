"""The Crazy Eights search bot: flat Monte Carlo over sampled deals that respect what the others lack.

Most Crazy Eights turns are forced (one card plays, or a draw), so the bot spends nothing there.
When there is a choice it scores every candidate move (each plain card; an eight once per suit it
may name) on the same sampled deals, each played out with the same random numbers (common random
numbers), and plays the best mean; ties go to the ``heuristic`` bot's move. The playouts play
every seat by the ``heuristic`` bot's rules (the costliest card first, eights kept for the end),
which is also how the usual opponents play.

What the draws reveal: a player whose hand did not shrink over his turn had nothing to play and
drew (or passed); what he drew and kept did not play either, so from then until he draws again he
holds no eight and no card of the suit and rank he faced. We know what we left the next player;
for the others, every order in which the cards new on the pile could have been played is tried
(``OpponentTracker``). Sampled deals respect all this, so a move that leaves the next player a
suit he lacks is scored on deals where he must draw, and the eights still out are placed with the
players who can hold them.

The value of a playout is the chance of winning the game: in the last round, the win share
(ties split); before it, a smooth function of our total against the best other total.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.core.bot import parse_bot_options
from cardtable.core.types import Seat
from cardtable.games.crazy_eights.actions import Action, Draw, Pass, Play, PlayEight
from cardtable.games.crazy_eights.bots import HeuristicBot
from cardtable.games.crazy_eights.observation import CrazyEightsObservation
from cardtable.games.crazy_eights.rules import (
    BIT,
    EIGHTS,
    RANK_MASK,
    RANK_OF,
    SUIT_INDEX,
    SUIT_MASK,
    SUIT_OF,
)
from cardtable.games.crazy_eights.state import CrazyEightsState
from cardtable.games.crazy_eights.world import heuristic_policy, round_over, sample_world, win_value

#: Weight of the round's penalty margin in a playout's value: it only separates moves whose chances tie.
TIE_BREAK = 0.001


@dataclass(frozen=True)
class RaceSearchOptions:
    """The budget: playouts per decision (shared by the candidate moves) and an optional time cap."""

    sims: int = 160
    ms: float = 0.0
    flat: int = 1

    def __post_init__(self) -> None:
        if self.sims < 1:
            raise ValueError(f"search option sims must be at least 1, not {self.sims}")
        if self.ms < 0:
            raise ValueError(f"search option ms must be 0 (no cap) or positive, not {self.ms}")
        if self.flat != 1:
            raise ValueError(f"search option flat must be 1: the Crazy Eights search is always flat, not {self.flat}")


def parse_race_options(values: Mapping[str, Any]) -> RaceSearchOptions:
    """Options from ``key=value`` data (strings are converted); ``ValueError`` in one line if wrong."""
    return parse_bot_options(RaceSearchOptions, values)


def lacks_mask(suit: int, top: int) -> int:
    """The cards a player cannot hold after drawing on ``suit`` in force with ``top`` on the pile."""
    return SUIT_MASK[suit] | RANK_MASK[RANK_OF[top]] | EIGHTS


class OpponentTracker:
    """What each other player cannot hold, read from hand sizes and the cards played between our turns.

    Between two of our turns each other seat plays once, in order. A seat whose hand did not shrink
    had nothing to play and drew (or passed): until it draws again it holds no eight and nothing of
    the suit and rank it faced. What it faced is found by trying every order in which the cards new
    on the pile could have been played (each playable on the one before, an eight naming any suit);
    only what is ruled out in every such order counts (an eight always is).
    """

    def __init__(self) -> None:
        self.round = -1
        self.left: tuple[int, int] | None = None  # (suit, top) we left the next seat
        self.counts: tuple[int, ...] = ()  # hand sizes when we left
        self.pile: frozenset[int] = frozenset()  # the pile, top included, when we left
        self.lacks: dict[Seat, int] = {}

    def before_turn(self, obs: CrazyEightsObservation) -> None:
        """Update from the observation at the start of (or during) our turn."""
        if obs.round != self.round:
            self.round, self.left, self.lacks = obs.round, None, {}
            return
        if self.left is None:
            return
        seat = obs.seat if obs.seat is not None else 0
        order = [(seat + k) % obs.players for k in range(1, obs.players)]
        changes = [obs.hand_counts[s] - self.counts[s] for s in order]
        pile = frozenset(obs.discard_pile) | {obs.top}
        faced = None
        if self.pile <= pile:
            faced = _faced(self.left, changes, pile - self.pile, (SUIT_INDEX[obs.suit], obs.top))
        for i, other in enumerate(order):
            if changes[i] >= 0:  # it drew or passed
                self.lacks[other] = faced[i] if faced is not None else (EIGHTS if i else lacks_mask(*self.left))
        self.left = None

    def after_action(self, obs: CrazyEightsObservation, action: Action) -> None:
        """Remember what our action leaves the others (a draw keeps our turn going)."""
        if isinstance(action, Draw):
            return
        self.counts = obs.hand_counts
        pile = set(obs.discard_pile) | {obs.top}
        if isinstance(action, PlayEight):
            self.left = (SUIT_INDEX[action.suit], action.card)
            pile.add(action.card)
        elif isinstance(action, Play):
            self.left = (SUIT_OF[action.card], action.card)
            pile.add(action.card)
        elif isinstance(action, Pass):
            self.left = (SUIT_INDEX[obs.suit], obs.top)
        self.pile = frozenset(pile)

    def forbidden(self, obs: CrazyEightsObservation) -> dict[Seat, int]:
        """Per other seat, the cards it cannot hold."""
        return {s: m for s, m in self.lacks.items() if m}


def _faced(start: tuple[int, int], changes: list[int], new: frozenset[int],
           end: tuple[int, int]) -> list[int] | None:
    """Per seat in turn order, the cards it lacks in every order of play that explains ``new`` (None: none does)."""
    out: list[int] | None = None

    def walk(i: int, suit: int, top: int, left: frozenset[int], facing: list[int]) -> None:
        nonlocal out
        if i == len(changes):
            if not left and (suit, top) == end:
                out = facing if out is None else [a & b for a, b in zip(out, facing)]
            return
        drew = changes[i] >= 0
        here = facing + [lacks_mask(suit, top) if drew else 0]
        if drew:
            walk(i + 1, suit, top, left, here)  # it drew and passed (or passed with nothing to draw)
        if changes[i] >= -1:
            for card in left:
                if SUIT_OF[card] == suit or RANK_OF[card] == RANK_OF[top] or EIGHTS & BIT[card]:
                    suits = range(4) if EIGHTS & BIT[card] else (SUIT_OF[card],)
                    for named in suits:
                        walk(i + 1, named, card, left - {card}, here)

    walk(0, *start, new, [])
    return out


def round_margin(state: CrazyEightsState, seat: Seat) -> float:
    """The others' mean penalty in the round just scored minus the seat's, in hundreds of points."""
    pens = state.sheet[-1].penalties if state.sheet else (0,) * state.players
    return ((sum(pens) - pens[seat]) / (len(pens) - 1) - pens[seat]) / 100.0


def candidates(obs: CrazyEightsObservation, legal: Sequence[Action]) -> list[Action]:
    """The distinct moves: each plain card, and one eight (all eights are alike) per suit it may name."""
    out: list[Action] = [a for a in legal if type(a) is Play]
    eights = [a for a in legal if type(a) is PlayEight]
    if eights:
        card = eights[0].card
        out.extend(a for a in eights if a.card == card)
    return out or list(legal)


def candidates_usual_first(obs: CrazyEightsObservation, legal: Sequence[Action], heuristic: Any) -> list[Action]:
    """``candidates``, with ``heuristic``'s move first when there is a choice: it wins ties (common in a
    decided last round), not the lowest card."""
    moves = candidates(obs, legal)
    if len(moves) > 1:
        usual = heuristic.act(obs, legal)
        moves.sort(key=lambda m: m != usual)
    return moves


class RaceSearchBot:
    """Flat Monte Carlo with common random numbers, heuristic playouts and what the others lack."""

    name = "search"
    accepts_options = True

    def __init__(self, seed: int = 0, **options: Any) -> None:
        self.options = parse_race_options(options)
        self.rng = random.Random(seed)
        self.tracker = OpponentTracker()
        self.heuristic = HeuristicBot()
        self.worlds_done = 0

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """The candidate with the best mean value over the sampled deals (the only legal action at once)."""
        obs: CrazyEightsObservation = observation
        if obs.seat is None:
            raise ValueError("the search bot plays a seat; a spectator's observation has none")
        self.tracker.before_turn(obs)
        moves = candidates_usual_first(obs, legal_actions, self.heuristic)
        action = moves[0] if len(moves) == 1 else self._search(obs, moves)
        self.tracker.after_action(obs, action)
        return action

    def _search(self, obs: CrazyEightsObservation, moves: list[Action]) -> Action:
        """Score every move on the same deals and playout seeds; stop at the time cap with the best so far."""
        from cardtable.games.crazy_eights import GAME

        seat: Seat = obs.seat  # type: ignore[assignment]  # checked by act
        forbidden = self.tracker.forbidden(obs)
        deadline = time.perf_counter() + self.options.ms / 1000 if self.options.ms else math.inf
        totals = [0.0] * len(moves)
        done = 0
        worlds = max(1, self.options.sims // len(moves))
        while done < worlds:
            world = sample_world(obs, self.rng, forbidden)
            seed = self.rng.randrange(2**62)
            for i, move in enumerate(moves):
                state, _ = GAME.apply_unchecked(world, seat, move)
                totals[i] += self._playout(world, state, seat, random.Random(seed))
            done += 1
            if time.perf_counter() >= deadline:
                break
        self.worlds_done = done
        return moves[max(range(len(moves)), key=lambda i: (totals[i], -i))]

    @staticmethod
    def _playout(world: CrazyEightsState, state: CrazyEightsState, seat: Seat, rng: random.Random) -> float:
        """Every seat plays the heuristic to the end of the round; the value for ``seat``."""
        from cardtable.games.crazy_eights import GAME

        while not state.over and not round_over(world, state):
            actor = state.turn
            action = heuristic_policy(state, actor, GAME.legal_actions(state, actor), rng)
            state, _ = GAME.apply_unchecked(state, actor, action)
        return win_value(state, seat) + TIE_BREAK * round_margin(state, seat)


