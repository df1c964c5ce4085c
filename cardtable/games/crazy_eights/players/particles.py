"""Reading the other hands exactly: a particle filter over hypotheses of the round's hidden cards.

The usual opponents are deterministic ``heuristic`` players, so a hypothesis of the hidden cards
(each other seat's hand as dealt, and the cards each drew) fixes every move they made. A
hypothesis is kept only if replaying the round with the heuristic's exact rule (``replay``)
reproduces everything this seat saw: the cards put on the pile between two of its turns, the hand
sizes, the top card and the suit in force. That rules out far more than ``reading.ModelTracker``'s
per-seat statements, which hold only until the seat draws again and ignore the heuristic's
tie-breaks and the suits it names.

The filter (``ParticleFilter``) records what the seat sees as ``Segment``s (the other seats' turns
between two of ours) and keeps up to N particles, each the current hands of the other seats:

- **Advance.** At a new segment every particle plays the other seats' turns with the heuristic;
  a seat with nothing playable draws cards at random from that particle's stock (the ones before
  the last not playable, the last one of the cards that appeared on the pile). A particle whose
  heuristic plays something the table did not show is dropped (likelihood 0 or 1).
- **Rejuvenate.** The survivors are topped up to N with fresh hypotheses built from the whole
  history (``construct``): every card an opponent played is placed lazily in one of its hand's
  slots (dealt or drawn), each slot collecting the cards the heuristic's choices say it cannot
  be; the slots still empty are filled at random at the end, and the result must pass ``replay``.
  At most ``tries`` attempts per particle wanted, never a hang.
- **A rebuilt stock** starts the hypotheses afresh (``Root``): the new stock holds only cards that
  were on the pile, so the cards never seen are all in the other hands.
- **Fallback.** With no particle at all (the opponents do not play as the heuristic does, a round
  joined midway), the caller falls back to ``ModelTracker``'s sampler; ``fallbacks`` counts the
  decisions that did.

Fresh hypotheses are drawn from the consistent ones roughly, not exactly, in proportion to their
probability (a card is placed in a random eligible slot; the empty slots are filled most
constrained first); consistency itself is exact.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from cardtable.core.types import CardId, Seat
from cardtable.games.crazy_eights.actions import Action, Draw, Play, PlayEight
from cardtable.games.crazy_eights.game import MATCH
from cardtable.games.crazy_eights.observation import CrazyEightsObservation
from cardtable.games.crazy_eights.players.compiled import FAST
from cardtable.games.crazy_eights.players.heuristic import ENDGAME_CARDS
from cardtable.games.crazy_eights.players.playout import heuristic_choice, heuristic_suit
from cardtable.games.crazy_eights.players.reading import left_by, play_reveals
from cardtable.games.crazy_eights.rules import BIT, EIGHTS, FULL_MASK, SUIT_INDEX, SUIT_OF, cards_of


@dataclass(frozen=True, slots=True)
class Segment:
    """The other seats' turns between two of ours, as the observations show them.

    ``top`` is -1 for the round's opening, when the starter is one of the ``new`` cards (which one
    is not shown). ``counts`` are every seat's hand sizes when the first of ``seats`` began. The
    piles are masks with the top card; a stock rebuilt meanwhile shows as cards gone from the pile.
    """

    seats: tuple[Seat, ...]
    changes: tuple[int, ...]  # hand size change of each seat over its turn
    counts: tuple[int, ...]
    top: int
    suit: int
    before: int  # the pile when the first of them began (0 for the opening)
    after: int  # the pile when the last of them was done
    end_top: int
    end_suit: int

    @property
    def new(self) -> int:
        """The cards put on the pile meanwhile (all of them when no stock was rebuilt)."""
        return self.after & ~self.before

    @property
    def rebuilt(self) -> bool:
        """Whether the stock was rebuilt from the discards meanwhile (a card left the pile)."""
        return bool(self.before & ~self.after)


@dataclass(slots=True)
class History:
    """One hypothesis of a round's hidden cards: the starter, the hands as dealt, each turn's draws."""

    starter: int  # -1 when the round has no opening segment (the starter is known)
    dealt: list[int]  # per seat, the hand as dealt (0 for our own seat)
    draws: list[tuple[CardId, ...]] = field(default_factory=list)  # per other seat's turn, in order


def is_endgame(counts: list[int], seat: Seat) -> bool:
    """Whether another seat holds ``ENDGAME_CARDS`` cards or fewer (the heuristic then unloads eights)."""
    return any(c <= ENDGAME_CARDS for s, c in enumerate(counts) if s != seat)


def ruled_out(card: CardId, top: int, suit: int, endgame: bool) -> int:
    """The cards a heuristic player cannot have held beside ``card`` when it played it (lower eights too)."""
    lower_eights = EIGHTS & (BIT[card] - 1) if BIT[card] & EIGHTS else 0
    return play_reveals(card, suit, top, endgame) | lower_eights


# Checking a complete hypothesis.


def _turn(hand: int, top: int, suit: int, counts: list[int], seat: Seat, change: int, new: int,
          drawn: tuple[CardId, ...], draw_until: bool) -> tuple[int, int, int, int] | None:
    """One seat's turn by the heuristic's rule, given the cards it drew: (hand, top, suit, cards still
    to explain) after it, or None if the turn does not give what the table showed."""
    match = MATCH[top * 4 + suit]
    playable = hand & match
    if playable:
        if change != -1:
            return None
        card, named = heuristic_choice(hand, playable, is_endgame(counts, seat))
        if not new & BIT[card]:
            return None
        return hand ^ BIT[card], card, named, new ^ BIT[card]
    if change < 0:
        return None
    plays = draw_until or change == 0
    if len(drawn) != (change + 1 if plays else change) or (not plays and not drawn):
        return None
    if not draw_until and len(drawn) != 1:
        return None
    kept = drawn[:-1] if plays else drawn
    for c in kept:
        if match & BIT[c] or new & BIT[c]:
            return None
        hand |= BIT[c]
    if not plays:
        return hand, top, suit, new
    last = drawn[-1]
    if not (match & BIT[last] and new & BIT[last]):
        return None
    named = heuristic_suit(hand | BIT[last]) if BIT[last] & EIGHTS else SUIT_OF[last]
    return hand, last, named, new ^ BIT[last]


def replay(segments: list[Segment], history: History, draw_until: bool) -> list[int] | None:
    """The other seats' hands now if the hypothesis explains every segment by the heuristic's rule, else None."""
    hands = list(history.dealt)
    used = 0
    k = 0
    for seg in segments:
        if seg.top < 0:
            if history.starter < 0 or not seg.new & BIT[history.starter]:
                return None
            top, suit, new = history.starter, SUIT_OF[history.starter], seg.new ^ BIT[history.starter]
        else:
            top, suit, new = seg.top, seg.suit, seg.new
        counts = list(seg.counts)
        for seat, change in zip(seg.seats, seg.changes):
            if k >= len(history.draws):
                return None
            drawn = history.draws[k]
            k += 1
            for c in drawn:
                if used & BIT[c] or any(h & BIT[c] for h in hands):
                    return None  # a card drawn twice, or drawn while someone held it
                used |= BIT[c]
            out = _turn(hands[seat], top, suit, counts, seat, change, new, drawn, draw_until)
            if out is None:
                return None
            hands[seat], top, suit, new = out
            counts[seat] += change
        if new or (top, suit) != (seg.end_top, seg.end_suit):
            return None
    return hands if k == len(history.draws) else None


# Building a hypothesis from the whole history.


@dataclass(slots=True)
class _Slots:
    """The cards of the other hands as slots: the cards each cannot be, and the card once known."""

    forbid: list[int] = field(default_factory=list)
    card: list[int] = field(default_factory=list)
    owner: list[Seat] = field(default_factory=list)
    dealt: list[bool] = field(default_factory=list)

    def add(self, seat: Seat, forbid: int, dealt: bool) -> int:
        """A new empty slot of ``seat``'s hand; its index."""
        self.forbid.append(forbid)
        self.card.append(-1)
        self.owner.append(seat)
        self.dealt.append(dealt)
        return len(self.card) - 1


def _pick_bit(mask: int, rnd: random.Random) -> CardId:
    """A card of ``mask`` (not 0) at random."""
    cards = cards_of(mask)
    return cards[int(rnd.random() * len(cards))]


#: One way the cards new on the pile were played: the starter (-1: known), then per seat (card or -1, suit after).
Plan = tuple[int, tuple[tuple[int, int], ...]]


def plans_of(seg: Segment, draw_until: bool) -> list[Plan]:
    """Every order of play that explains the segment from the public cards alone (who played which card,
    the suits the eights named), whatever the hands."""
    out: list[Plan] = []

    def walk(i: int, top: int, suit: int, new: int, moves: tuple[tuple[int, int], ...], starter: int) -> None:
        if new.bit_count() > len(seg.seats) - i:
            return  # more cards than turns left: no order explains them
        if i == len(seg.seats):
            if not new and (top, suit) == (seg.end_top, seg.end_suit):
                out.append((starter, moves))
            return
        change = seg.changes[i]
        plays = change == -1 or (change >= 0 and (draw_until or change == 0))
        if not plays:
            walk(i + 1, top, suit, new, moves + ((-1, suit),), starter)
            return
        for card in cards_of(new & MATCH[top * 4 + suit]):
            for named in (range(4) if BIT[card] & EIGHTS else (SUIT_OF[card],)):
                walk(i + 1, card, named, new ^ BIT[card], moves + ((card, named),), starter)

    if seg.top < 0:
        for starter in cards_of(seg.new):
            walk(0, starter, SUIT_OF[starter], seg.new ^ BIT[starter], (), starter)
    else:
        walk(0, seg.top, seg.suit, seg.new, (), -1)
    return out


@dataclass(frozen=True, slots=True)
class Root:
    """Where a hypothesis starts: the deal (``counts`` None), or just after the stock was last rebuilt.

    After a rebuild the stock holds only cards that were on the pile, so the cards never seen then
    (``never``) are all in the other hands (those played unseen and swept into the new stock aside:
    this reading ignores them) and nothing drawn later is one of them. The turns before the root
    are not replayed.
    """

    index: int = 0  # the first segment after the root
    counts: tuple[int, ...] | None = None  # the hand sizes at the root
    never: int = 0


def construct(segments: list[Segment], plans: list[list[Plan]], me: Seat, players: int, deal_size: int,
              unseen: int, rnd: random.Random, draw_until: bool,
              root: Root = Root()) -> tuple[History, list[int]] | None:
    """One hypothesis consistent with ``segments`` (and its hands now), or None if this attempt failed.

    ``plans[k]``: the orders of play that explain segment k (``plans_of``), none empty from ``root``
    on; ``unseen``: the cards this seat has not seen now (not in its hand, not on the pile).
    """
    slots = _Slots()
    live: list[list[int]] = [[] for _ in range(players)]
    for s in range(players):
        if s != me:
            size = deal_size if root.counts is None else root.counts[s]
            live[s] = [slots.add(s, 0, True) for _ in range(size)]
    turns: list[list[int]] = []  # per turn, the slots of its drawn cards (the played one last)
    starter = -1
    for seg, seg_plans in zip(segments[root.index:], plans[root.index:]):
        plan_starter, moves = seg_plans[int(rnd.random() * len(seg_plans))]
        if seg.top < 0:
            starter = plan_starter
            top, suit = starter, SUIT_OF[starter]
        else:
            top, suit = seg.top, seg.suit
        counts = list(seg.counts)
        for seat, change, (card, named) in zip(seg.seats, seg.changes, moves):
            match = MATCH[top * 4 + suit]
            endgame = is_endgame(counts, seat)
            counts[seat] += change
            hand = live[seat]
            if change == -1:
                eligible = [i for i in hand if not slots.forbid[i] & BIT[card]]
                if not eligible:
                    return None
                slot = eligible[int(rnd.random() * len(eligible))]
                slots.card[slot] = card
                hand.remove(slot)
                lacks = ruled_out(card, top, suit, endgame)
                for i in hand:
                    slots.forbid[i] |= lacks
                turns.append([])
            else:
                for i in hand:
                    slots.forbid[i] |= match
                kept = [slots.add(seat, match | root.never, False) for _ in range(change)]
                hand.extend(kept)
                if card >= 0 and BIT[card] & root.never:
                    return None
                if card >= 0:
                    kept.append(slots.add(seat, 0, False))
                    slots.card[kept[-1]] = card
                turns.append(kept)
            if card >= 0:
                top, suit = card, named
    if not _fill(slots, unseen, root.never, rnd):
        return None
    dealt = [0] * players
    for i, card in enumerate(slots.card):
        if slots.dealt[i]:
            dealt[slots.owner[i]] |= BIT[card]
    history = History(starter, dealt, [tuple(slots.card[i] for i in t) for t in turns])
    hands = replay(segments[root.index:], history, draw_until)
    return None if hands is None else (history, hands)


def _fill(slots: _Slots, unseen: int, never: int, rnd: random.Random) -> bool:
    """Give every empty slot an unseen card it may be, the most constrained first; False if one cannot.

    After a rebuilt stock the cards never seen (``never``) go first, each to an empty slot held at
    the root chosen at random among those that may hold it (none: it stays in the stock).
    """
    pool = unseen
    if never:
        for card in _shuffled(cards_of(never & unseen), rnd):
            free = [i for i, c in enumerate(slots.card) if c < 0 and slots.dealt[i] and not slots.forbid[i] & BIT[card]]
            if free:
                slots.card[free[int(rnd.random() * len(free))]] = card
                pool ^= BIT[card]
    empty = [i for i, c in enumerate(slots.card) if c < 0]
    empty.sort(key=lambda i: (pool & ~slots.forbid[i]).bit_count())
    for i in empty:
        allowed = pool & ~slots.forbid[i]
        if not allowed:
            return False
        card = _pick_bit(allowed, rnd)
        slots.card[i] = card
        pool ^= BIT[card]
    return True


def _shuffled(cards: list[CardId], rnd: random.Random) -> list[CardId]:
    """The cards in a random order (Fisher–Yates on ``rnd.random``)."""
    for i in range(len(cards) - 1, 0, -1):
        j = int(rnd.random() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]
    return cards


# Advancing a particle (the other hands and the stock) through a new segment.


def advance(hands: list[int], stock: int, seg: Segment, rnd: random.Random,
            draw_until: bool) -> tuple[list[int], int] | None:
    """The hands and stock after ``seg``, played by the heuristic with random draws from the particle's stock.

    A seat with nothing playable draws ``change`` cards that do not play, then (unless nothing is left
    to draw) one that does and is on the pile afterwards; an empty stock is rebuilt from the
    discards as the engine does. None: this particle does not explain the segment.
    """
    hands = list(hands)
    discards = seg.before & ~BIT[seg.top]
    top, suit = seg.top, seg.suit
    counts = list(seg.counts)
    for seat, change in zip(seg.seats, seg.changes):
        hand = hands[seat]
        match = MATCH[top * 4 + suit]
        playable = hand & match
        if playable:
            if change != -1:
                return None
            card, named = heuristic_choice(hand, playable, is_endgame(counts, seat))
        else:
            if change < 0 or (not draw_until and change > 1):
                return None
            for _ in range(change):
                if not stock:
                    stock, discards = discards, 0
                quiet = stock & ~match & ~seg.after
                if not quiet:
                    return None
                c = _pick_bit(quiet, rnd)
                stock ^= BIT[c]
                hand |= BIT[c]
            if (not stock and not discards) or (not draw_until and change == 1):
                hands[seat] = hand  # it passed
                counts[seat] += change
                continue
            if not stock:
                stock, discards = discards, 0
            ready = stock & match & seg.after
            if not ready:
                return None
            card = _pick_bit(ready, rnd)
            stock ^= BIT[card]
            hand |= BIT[card]
            named = heuristic_suit(hand) if BIT[card] & EIGHTS else SUIT_OF[card]
        hands[seat] = hand ^ BIT[card]
        discards |= BIT[top]
        top, suit = card, named
        counts[seat] += change
    if (discards | BIT[top]) != seg.after or (top, suit) != (seg.end_top, seg.end_suit):
        return None
    return hands, stock


# The filter.


def _mask(cards: tuple[CardId, ...] | list[CardId]) -> int:
    out = 0
    for c in cards:
        out |= BIT[c]
    return out


class ParticleFilter:
    """Hypotheses of the other hands kept consistent with a heuristic replay of the round (see the module).

    A particle is the other seats' hands (0 for ours) and the stock, as bitmasks.
    """

    def __init__(self, particles: int = 200, tries: int = 20, seed: int = 0) -> None:
        self.size = particles
        self.tries = tries
        self.rnd = random.Random(seed)
        self.round = -1
        self.deal_size = 0
        self.segments: list[Segment] = []
        self.plans: list[list[Plan]] = []
        self.particles: list[tuple[list[int], int]] = []
        self.broken = False  # the round left what the bookkeeping follows: fall back until the stock is rebuilt
        self.failed = False  # the last build found nothing: the next ones try less hard
        self.rebuilt = False  # the stock was rebuilt: particles can still be advanced, no longer built afresh
        self.left: tuple[int, int] | None = None  # (suit, top) our last action left
        self.counts: tuple[int, ...] = ()  # hand sizes just after our last action
        self.pile = 0  # the pile (top included) when we last looked
        self.hand = 0  # our hand when we last looked
        self.seen = 0  # every card we have seen this round (on the pile or in our hand)
        self.root = Root()
        # Counters the tests and benchmarks read.
        self.decisions = 0
        self.fallbacks = 0
        self.built = 0
        self.attempts = 0
        self.advanced = 0

    # Recording what we see.

    def before_turn(self, obs: CrazyEightsObservation) -> None:
        """Update from the observation at the start of (or during) our turn."""
        seat = obs.seat if obs.seat is not None else 0
        pile = _mask(obs.discard_pile) | BIT[obs.top]
        hand = _mask(obs.hand)
        if obs.round != self.round or (self.counts and len(self.counts) != obs.players):
            self.counts = ()
            self._new_round(obs, seat, pile)
            self.seen = 0
        elif self.left is not None:
            order = tuple((seat + k) % obs.players for k in range(1, obs.players))
            changes = tuple(obs.hand_counts[s] - self.counts[s] for s in order)
            seg = Segment(order, changes, self.counts, self.left[1], self.left[0], self.pile, pile, obs.top,
                          SUIT_INDEX[obs.suit])
            self._add(seg, obs.draw_until_playable)
            fast = FAST.get()
            if fast is not None:  # the same in C
                self.particles = fast.advance_all(self.particles, seg, self.rnd, obs.draw_until_playable)
            else:
                moved = [advance(h, st, seg, self.rnd, obs.draw_until_playable) for h, st in self.particles]
                self.particles = [m for m in moved if m is not None]
            self.advanced += len(self.particles)
            self.left = None
            if seg.rebuilt:
                self._rebuilt(obs)
        else:
            gone = self.pile & ~pile
            self._own_draws(hand & ~self.hand, gone)
            if gone:
                self._rebuilt(obs)
        self.pile, self.hand = pile, hand
        self.seen |= pile | hand

    def _rebuilt(self, obs: CrazyEightsObservation) -> None:
        """The stock was rebuilt: hypotheses start afresh from here (``Root``)."""
        self.rebuilt = True
        self.broken = self.failed = False  # a fresh start: the turns before are not replayed
        seen = self.seen | self.pile | _mask(obs.discard_pile) | BIT[obs.top] | _mask(obs.hand)
        self.root = Root(len(self.segments), tuple(obs.hand_counts), FULL_MASK & ~seen)

    def _new_round(self, obs: CrazyEightsObservation, seat: Seat, pile: int) -> None:
        """Our first turn of a round: the seats from the leader to us played on the unknown starter."""
        n = obs.players
        self.round, self.segments, self.plans, self.particles = obs.round, [], [], []
        self.root = Root()
        self.left, self.broken, self.rebuilt, self.failed = None, obs.drawn_this_turn > 0, False, False
        self.deal_size = len(obs.hand) - obs.drawn_this_turn
        leader = (obs.dealer + 1) % n
        order = tuple((leader + k) % n for k in range((seat - leader) % n))
        if order and not self.broken:
            changes = tuple(obs.hand_counts[s] - self.deal_size for s in order)
            self._add(Segment(order, changes, (self.deal_size,) * n, -1, -1, 0, pile, obs.top, SUIT_INDEX[obs.suit]),
                      obs.draw_until_playable)

    def _add(self, seg: Segment, draw_until: bool) -> None:
        """Record a segment and the orders of play that explain it; none: the round left our bookkeeping."""
        self.segments.append(seg)
        if seg.rebuilt:
            self.plans.append([])  # never built from: hypotheses start after it
            return
        self.plans.append(plans_of(seg, draw_until))
        if not self.plans[-1]:
            self.broken = True

    def _own_draws(self, drawn: int, gone: int) -> None:
        """Our draws this turn leave the particles' stocks (rebuilt from the discards ``gone`` if empty)."""
        if not drawn:
            return
        kept = []
        for hands, stock in self.particles:
            if gone and not stock:
                stock = gone
            if drawn & ~stock:
                continue
            kept.append((hands, stock & ~drawn))
        self.particles = kept

    def after_action(self, obs: CrazyEightsObservation, action: Action) -> None:
        """Remember what our action leaves the others (a draw keeps our turn going)."""
        if isinstance(action, Draw):
            return
        seat = obs.seat if obs.seat is not None else 0
        counts = list(obs.hand_counts)
        self.left = left_by(obs, action) or self.left
        if isinstance(action, (Play, PlayEight)):
            self.pile |= BIT[action.card]
            self.hand &= ~BIT[action.card]
            counts[seat] -= 1
        self.counts = tuple(counts)

    # Sampling.

    def update(self, obs: CrazyEightsObservation, deadline: float = math.inf) -> bool:
        """Bring the particles up to N for a decision; False if there are none (use the fallback then).

        Building stops at ``deadline`` (``time.perf_counter``) with the particles it has.
        """
        self.decisions += 1
        if self.broken:
            self.fallbacks += 1
            return False
        seen = _mask(obs.hand) | _mask(obs.discard_pile) | BIT[obs.top]
        self.particles = [(h, st) for h, st in self.particles
                          if not st & seen and st.bit_count() == obs.stock_count and not any(x & seen for x in h)]
        self._build(obs, FULL_MASK & ~seen, deadline)
        self.failed = not self.particles
        if self.failed:
            self.fallbacks += 1  # the others may not play as the heuristic does: try less hard next time
            return False
        return True

    def _build(self, obs: CrazyEightsObservation, unseen: int, deadline: float) -> None:
        """Top the particles up to N with hypotheses built from the whole history (at most ``tries`` each)."""
        me = obs.seat if obs.seat is not None else 0
        tries = max(1, self.tries // 4) if self.failed else self.tries
        fast = FAST.get()
        if fast is not None:  # the same loop in C
            start = self.root.index
            tried, made = fast.build_particles(self.rnd, self.segments[start:], self.plans[start:], me, obs.players,
                                               self.deal_size, unseen, obs.draw_until_playable, self.root.counts,
                                               self.root.never, self.particles, self.size,
                                               (self.size - len(self.particles)) * tries, deadline)
            self.attempts += tried
            self.built += made
            return
        for k in range((self.size - len(self.particles)) * tries):
            if len(self.particles) >= self.size or (k & 15 == 15 and time.perf_counter() >= deadline):
                break
            self.attempts += 1
            built = construct(self.segments, self.plans, me, obs.players, self.deal_size, unseen, self.rnd,
                              obs.draw_until_playable, self.root)
            if built is not None:
                self.built += 1
                hands = built[1]
                held = 0
                for h in hands:
                    held |= h
                self.particles.append((hands, unseen & ~held))


__all__ = ["History", "ParticleFilter", "Root", "Segment", "advance", "construct", "plans_of", "replay", "ruled_out"]
