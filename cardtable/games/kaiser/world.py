"""Kaiser worlds for search: the other three hands dealt consistent with one seat's view; playout hints.

A seat knows its hand, every card played this hand and by whom (``played`` and ``trick``), so the
suits each seat has shown it lacks (it did not follow the suit led), the hand sizes, the bidding and
the contract. The unseen cards are dealt among the other three hands, no hand getting a suit it has
shown void in. Bids are not used to shape hands (a bid says little about single cards).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtable.core.rng import rng_state
from cardtable.core.search import SearchHints
from cardtable.core.types import Seat
from cardtable.core.worlds import deal_hidden
from cardtable.games.kaiser import rules
from cardtable.games.kaiser.actions import Bid, KaiserAction
from cardtable.games.kaiser.compiled import FAST
from cardtable.games.kaiser.observation import KaiserObservation, PlayedCard
from cardtable.games.kaiser.options import KaiserOptions
from cardtable.games.kaiser.playout import HandEnd, hand_end_of, play_hand, rate_hand
from cardtable.games.kaiser.rating import PARTNER_SHARE
from cardtable.games.kaiser.state import OVER, PHASE_NAMES, KaiserState

_SUIT = (0xFF, 0xFF << 8, 0xFF << 16, 0xFF << 24)


def shown_voids(obs: KaiserObservation) -> list[int]:
    """Per seat, the mask of cards it cannot hold: the suits it did not follow this hand."""
    voids = [0, 0, 0, 0]
    cards = [*obs.played, *obs.trick]
    for start in range(0, len(cards), 4):
        trick = cards[start:start + 4]
        led = trick[0].card >> 3
        for p in trick[1:]:
            if p.card >> 3 != led:
                voids[p.seat] |= _SUIT[led]
    return voids


def sample_world(obs: KaiserObservation, rng: random.Random) -> KaiserState:
    """A full state consistent with ``obs``: the unseen cards dealt to the other hands."""
    template = _template(obs)
    deal = deal_hidden(template.hidden, template.places, rng)
    hands = list(template.hands)
    for other, cards in zip(template.others, deal):
        mask = 0
        for c in cards:
            mask |= 1 << c
        hands[other] = mask
    s = template.base.copy()
    s.rng = rng_state(rng.randrange(2**62))
    s.hands = (hands[0], hands[1], hands[2], hands[3])
    return s


class _Template:
    """What every world sampled for one observation shares: the public state, the hidden cards, the places."""

    __slots__ = ("obs", "base", "hands", "hidden", "places", "others", "bounds")

    def __init__(self, obs: KaiserObservation) -> None:
        if obs.seat is None:
            raise ValueError("a world is sampled for a seat, not for a spectator")
        me = obs.seat
        seen = rules.mask_of(obs.hand) | rules.mask_of(p.card for p in (*obs.played, *obs.trick))
        self.obs = obs
        self.bounds = bid_bounds(obs)
        self.hidden = rules.cards_of(rules.FULL_DECK & ~seen)
        voids = shown_voids(obs)
        self.others = [s for s in range(4) if s != me]
        self.places = [(obs.hand_sizes[s], voids[s]) for s in self.others]
        hands = [0, 0, 0, 0]
        hands[me] = rules.mask_of(obs.hand)
        self.hands = tuple(hands)
        s = KaiserState.__new__(KaiserState)
        s.options = KaiserOptions(floor=obs.floor, no_trump=obs.no_trump_allowed, target=obs.target)  # type: ignore[arg-type]
        s.dealer, s.hand_no = obs.dealer, obs.hand_number
        s.phase = PHASE_NAMES.index(obs.phase)
        s.turn = obs.to_act if obs.to_act is not None else -1
        s.bids = tuple((b.seat, b.points, b.no_trump) for b in obs.bids)
        high = obs.high_bid
        s.high = -1 if high is None else rules.bid_value(high.points, high.no_trump)
        s.high_bidder = -1 if high is None else high.seat
        s.trump = _trump(obs)
        s.leader = obs.leader if obs.leader is not None else -1
        s.trick = _pairs(obs.trick)
        s.played = _pairs(obs.played)
        s.last_trick = _pairs(obs.last_trick)
        s.last_winner = obs.last_trick_winner if obs.last_trick_winner is not None else -1
        s.tricks, s.points, s.totals, s.sheet = obs.tricks_taken, obs.points_taken, obs.totals, obs.score_sheet
        s.result = None
        s.hands, s.rng = (hands[0], hands[1], hands[2], hands[3]), rng_state(0)  # each world sets its own
        self.base = s


_LAST: list[_Template] = []
"""The template of the observation last sampled from (a search samples hundreds of worlds from one)."""


def _template(obs: KaiserObservation) -> _Template:
    """The (cached) template of ``obs``."""
    last = _LAST[0] if _LAST else None
    if last is not None and last.obs is obs:
        return last
    template = _Template(obs)
    _LAST[:] = [template]
    return template


def _pairs(cards: Sequence[PlayedCard]) -> tuple[tuple[int, int], ...]:
    return tuple((p.seat, p.card) for p in cards)


def _trump(obs: KaiserObservation) -> int:
    """The state's trump index: a suit, ``NO_TRUMP``, or -1 while not named."""
    if obs.contract is None or (obs.contract.trump is None and not obs.contract.no_trump):
        return -1
    return rules.NO_TRUMP if obs.contract.no_trump else rules.SUIT_WORDS.index(obs.contract.trump or "")


# The search's sampler: worlds whose hands fit the bidding.

INF = float("inf")
SLACK = 0.75
"""How far (in rating points) a sampled hand may miss what its calls suggest and still be accepted."""
TRIES = 12
"""Deals drawn per world before the one that fits the bidding best is taken."""
Bounds = tuple[int, int, float, float, float, float]
"""``(seat, cards it played this hand, suit max, no-trump max, suit min, no-trump min)``: its rating's range."""


def bid_bounds(obs: KaiserObservation) -> list[Bounds]:
    """What the other seats' calls say about their hands, read as the ``heuristic`` bot's bidding rule.

    A seat that passed (its partner not holding the bid) rates below every bid it could have made; a seat
    that bid rates at least its bid and below the lower bids it skipped. Ratings are those of
    ``rating.trump_rating`` plus the partner's share; the forced dealer's bid says nothing.
    """
    if obs.seat is None:
        return []
    out: list[Bounds] = []
    high, high_bidder = -1, -1
    floor_value = rules.bid_value(obs.floor, False)
    played = [0, 0, 0, 0]
    for p in (*obs.played, *obs.trick):
        played[p.seat] |= 1 << p.card
    for call in obs.bids:
        s = call.seat
        forced = s == obs.dealer and high < 0
        made = rules.bid_value(call.points, call.no_trump) if call.points else INF
        skipped = [v for v in range(max(high + 1, floor_value), 2 * rules.MAX_BID + 2)
                   if v < made and (obs.no_trump_allowed or not v & 1)]
        if call.points:
            high, high_bidder_before = int(made), high_bidder
            high_bidder = s
        else:
            high_bidder_before = high_bidder
        if s == obs.seat or forced or (not call.points and high_bidder_before == (s + 2) % 4):
            continue
        suit_max = min((v >> 1 for v in skipped if not v & 1), default=INF) - PARTNER_SHARE
        nt_max = min((v >> 1 for v in skipped if v & 1), default=INF) - PARTNER_SHARE + 1.0
        suit_min = nt_min = -INF
        if call.points and call.no_trump:
            nt_min = call.points - PARTNER_SHARE + 1.0
        elif call.points:
            suit_min = call.points - PARTNER_SHARE
        out.append((s, played[s], suit_max, nt_max, suit_min, nt_min))
    return out


def _misfit(hands: Sequence[int], bounds: list[Bounds]) -> float:
    """How far the hands (with the cards played this hand) miss the bidding's bounds, beyond the slack."""
    total = 0.0
    for seat, played, suit_max, nt_max, suit_min, nt_min in bounds:
        _, suit, nt = rate_hand(hands[seat] | played)
        miss = max(0.0, suit - suit_max) + max(0.0, nt - nt_max) + max(0.0, suit_min - suit) + max(0.0, nt_min - nt)
        if miss > SLACK:
            total += miss
    return total


def sample_fitting_world(obs: KaiserObservation, rng: random.Random) -> KaiserState:
    """A world consistent with ``obs`` whose hands fit the calls made (the best of ``TRIES`` draws; in C where
    the compiled ``_fast`` is built: the same draws)."""
    template = _template(obs)
    bounds = template.bounds
    fast = FAST.get()
    if fast is not None:
        hands, seed = fast.fitting_deal(rng, template.hidden, template.places, template.others, template.hands,
                                        bounds, TRIES, SLACK)
        s = template.base.copy()
        s.rng = rng_state(seed)
        s.hands = hands
        return s
    best: KaiserState | None = None
    best_misfit = INF
    for _ in range(TRIES if bounds else 1):
        world = sample_world(obs, rng)
        misfit = _misfit(world.hands, bounds) if bounds else 0.0
        if misfit < best_misfit:
            best, best_misfit = world, misfit
            if misfit == 0.0:
                break
    assert best is not None
    return best


# Playout hints: play the hand out on ints (``kaiser.playout``), value the change of score.

WIN_VALUE = 1.5
"""What winning (or, negated, losing) the game with this hand is worth: more than any hand's swing."""


def hand_over(world: KaiserState, state: KaiserState) -> bool:
    """The playout stops once the hand the search started in is scored."""
    return len(state.sheet) > len(world.sheet) or state.phase == OVER


def fast_playout(world: KaiserState, state: KaiserState, rng: random.Random) -> HandEnd:
    """The end of the hand ``world`` is in: read off ``state`` if scored already, else played out."""
    if hand_over(world, state):
        return hand_end_of(world, state)
    return play_hand(state, rng)


def hand_value(end: HandEnd, seat: Seat) -> float:
    """The game won or lost (+-WIN_VALUE); else the seat's side's change of score minus the other's, over 20."""
    side = seat & 1
    if end.winner >= 0:
        return 0.0 if end.winner == 2 else (WIN_VALUE if end.winner == side else -WIN_VALUE)
    return (end.change[side] - end.change[1 - side]) / 20.0


def candidate_calls(obs: KaiserObservation, legal: Sequence[KaiserAction]) -> Sequence[KaiserAction]:
    """In the bidding, a pass and the lowest few bids (a higher bid only costs more); else every action."""
    if not legal or not isinstance(legal[-1], Bid):
        return legal
    calls = [a for a in legal if not isinstance(a, Bid)]
    return calls + [a for a in legal if isinstance(a, Bid)][:CANDIDATE_BIDS]


CANDIDATE_BIDS = 4
"""How many of the lowest legal bids the search weighs against a pass."""

HINTS = SearchHints(horizon=hand_over, value=hand_value, playout=fast_playout, candidates=candidate_calls,
                    sample=sample_fitting_world)
