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
from cardtable.games.kaiser.actions import KaiserAction, Play
from cardtable.games.kaiser.observation import KaiserObservation, PlayedCard
from cardtable.games.kaiser.options import KaiserOptions
from cardtable.games.kaiser.state import BIDDING, OVER, PHASE_NAMES, PLAY, KaiserState

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
    if obs.seat is None:
        raise ValueError("a world is sampled for a seat, not for a spectator")
    me = obs.seat
    seen = rules.mask_of(obs.hand) | rules.mask_of(p.card for p in (*obs.played, *obs.trick))
    hidden = rules.cards_of(rules.FULL_DECK & ~seen)
    voids = shown_voids(obs)
    others = [s for s in range(4) if s != me]
    deal = deal_hidden(hidden, [(obs.hand_sizes[s], voids[s]) for s in others], rng)
    hands = [0, 0, 0, 0]
    hands[me] = rules.mask_of(obs.hand)
    for other, cards in zip(others, deal):
        hands[other] = rules.mask_of(cards)
    s = KaiserState.__new__(KaiserState)
    s.options = KaiserOptions(floor=obs.floor, no_trump=obs.no_trump_allowed, target=obs.target)  # type: ignore[arg-type]
    s.rng = rng_state(rng.randrange(2**62))
    s.hands = (hands[0], hands[1], hands[2], hands[3])
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
    return s


def _pairs(cards: Sequence[PlayedCard]) -> tuple[tuple[int, int], ...]:
    return tuple((p.seat, p.card) for p in cards)


def _trump(obs: KaiserObservation) -> int:
    """The state's trump index: a suit, ``NO_TRUMP``, or -1 while not named."""
    if obs.contract is None or (obs.contract.trump is None and not obs.contract.no_trump):
        return -1
    return rules.NO_TRUMP if obs.contract.no_trump else rules.SUIT_WORDS.index(obs.contract.trump or "")


# Playout hints: play the hand out, value the change of score.


def hand_over(world: KaiserState, state: KaiserState) -> bool:
    """The playout stops once the hand the search started in is scored."""
    return len(state.sheet) > len(world.sheet) or state.phase == OVER


def hand_value(state: KaiserState, seat: Seat) -> float:
    """The seat's side's change of score in the hand just scored, minus the other side's, scaled."""
    if not state.sheet:
        return 0.0
    change = state.sheet[-1].change
    side = seat & 1
    return (change[side] - change[1 - side]) / 20.0


def playout_policy(state: KaiserState, seat: Seat, legal: Sequence[KaiserAction], rng: random.Random) -> KaiserAction:
    """Cards: win the trick cheaply if the partner is not winning it, else throw the lowest; calls at random."""
    if state.phase != PLAY:
        if state.phase == BIDDING:
            return legal[0] if rng.random() < 0.7 else legal[rng.randrange(len(legal))]
        return legal[rng.randrange(len(legal))]
    cards = [a.card for a in legal if isinstance(a, Play)]
    if not state.trick:
        return Play(max(cards, key=lambda c: (c & 7, rng.random())))
    led = state.trick[0][1] >> 3
    winner = rules.trick_winner(state.trick, state.trump)
    best = max(rules.card_power(c, led, state.trump) for _, c in state.trick)
    if winner & 1 == seat & 1:
        return Play(min(cards, key=lambda c: (rules.card_power(c, led, state.trump), c & 7)))
    beating = [c for c in cards if rules.card_power(c, led, state.trump) > best]
    if beating:
        return Play(min(beating, key=lambda c: rules.card_power(c, led, state.trump)))
    return Play(min(cards, key=lambda c: (c == rules.FIVE_OF_HEARTS, c & 7)))


HINTS = SearchHints(horizon=hand_over, value=hand_value, policy=playout_policy)
