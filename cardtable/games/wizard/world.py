"""Wizard worlds for search: sampling hidden hands consistent with one seat's view, and playout hints.

What a seat knows: its hand, the turned card, the cards played this round and by whom (the trick
history follows from ``played_cards``: the first leader sits left of the dealer, each trick's winner
leads the next), hence the suits each seat has shown it lacks (it played another plain card on a
suit led), the hand sizes and the bids. The unseen cards are dealt among the other hands and the
undealt stack, no hand getting a suit it has shown void in. Bids still hidden (hidden bidding) are
drawn at random; they do not show in the seat's observation.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtable.cards import CardId
from cardtable.core.rng import rng_state
from cardtable.core.search import SearchHints
from cardtable.core.types import Seat
from cardtable.core.worlds import Place, deal_hidden
from cardtable.games.wizard import bid_table, rules
from cardtable.games.wizard.actions import Bid, Play, WizardAction
from cardtable.games.wizard.bid_model import category
from cardtable.games.wizard.observation import WizardObservation
from cardtable.games.wizard.options import WizardOptions
from cardtable.games.wizard.state import WizardState, pack_row


def shown_voids(obs: WizardObservation) -> list[int]:
    """Per seat, the mask of plain cards it cannot hold: suits it failed to follow this round."""
    p = obs.players
    voids = [0] * p
    trump = obs.trump_suit
    leader = (obs.dealer + 1) % p
    played = obs.played_cards
    for start in range(0, len(played), p):
        trick = played[start:start + p]
        _mark_voids(voids, leader, trick, p)
        leader = (leader + rules.trick_winner(trick, trump)) % p
    if obs.trick:
        _mark_voids(voids, obs.trick[0].seat, [pc.card for pc in obs.trick], p)
    return voids


def _mark_voids(voids: list[int], leader: Seat, trick: Sequence[CardId], p: int) -> None:
    """Mark the suit led as void for every seat that played another plain card on it."""
    lead = rules.NO_LEAD_YET
    for i, card in enumerate(trick):
        if 0 <= lead < 4 and rules.SUIT_OF[card] not in (-1, lead):
            voids[(leader + i) % p] |= rules.SUIT_MASK[lead]
        lead = rules.next_lead(lead, card)


def hidden_places(obs: WizardObservation) -> tuple[list[CardId], list[Seat], list[Place]]:
    """What ``sample_hands`` deals: the unseen cards (ascending), the other seats, and their places (hand size,
    voids) followed by the undealt stack's."""
    me = obs.seat if obs.seat is not None else 0
    seen = rules.mask_of(obs.hand) | rules.mask_of(obs.played_cards) | rules.mask_of(pc.card for pc in obs.trick)
    if obs.trump_card is not None:
        seen |= 1 << obs.trump_card
    hidden = rules.cards_of(rules.ALL_MASK & ~seen)
    voids = shown_voids(obs)
    others = [s for s in range(obs.players) if s != me]
    places = [(obs.hand_sizes[s], voids[s]) for s in others]
    places.append((len(hidden) - sum(size for size, _ in places), 0))
    return hidden, others, places


def sample_hands(obs: WizardObservation, rng: random.Random) -> tuple[list[int], int]:
    """Every seat's hand as a bitmask (the seat's own; the others drawn from the unseen cards, voids respected)
    and the undealt stack's; a spectator's draw is made as seat 0's."""
    me = obs.seat if obs.seat is not None else 0
    hidden, others, places = hidden_places(obs)
    deal = deal_hidden(hidden, places, rng)
    hands = [0] * obs.players
    hands[me] = rules.mask_of(obs.hand)
    for other, cards in zip(others, deal):
        hands[other] = rules.mask_of(cards)
    return hands, rules.mask_of(deal[-1])


def sample_world(options: WizardOptions, obs: WizardObservation, rng: random.Random) -> WizardState:
    """A full state consistent with ``obs``: unseen cards dealt to the other hands and the stack."""
    if obs.seat is None:
        raise ValueError("a world is sampled for a seat, not for a spectator")
    p = obs.players
    hands, stack = sample_hands(obs, rng)
    s = WizardState.__new__(WizardState)
    s.options, s.rng, s.decks = options, rng_state(rng.randrange(2**62)), ()
    s.round, s.rounds, s.dealer, s.phase, s.to_act = obs.round, obs.rounds, obs.dealer, obs.phase, obs.to_act
    s.hands, s.stack_mask, s.trump_card = tuple(hands), stack, obs.trump_card
    s.trump = -1 if obs.trump_suit is None else obs.trump_suit
    s.bids = _bids(obs, rng)
    s.tricks = obs.tricks
    s.leader = obs.leader if obs.leader is not None else (obs.dealer + 1) % p
    s.lead = rules.lead_state(pc.card for pc in obs.trick)
    s.trick = tuple(pc.card for pc in obs.trick)
    s.last_trick = tuple(pc.card for pc in obs.last_trick)
    s.last_leader = obs.last_trick[0].seat if obs.last_trick else 0
    s.last_winner = obs.last_trick_winner
    s.played, s.totals = obs.played_cards, obs.totals
    s.rows = tuple(pack_row(r.bids, r.tricks) for r in obs.score_sheet)
    s.exact = tuple(sum(r.bids[i] == r.tricks[i] for r in obs.score_sheet) for i in range(p))
    return s


def _bids(obs: WizardObservation, rng: random.Random) -> tuple[int, ...]:
    """The bids: known ones as seen, hidden ones drawn at random, -1 where no bid was made."""
    return tuple(b if b is not None else (rng.randint(0, obs.round) if made else -1)
                 for b, made in zip(obs.bids, obs.has_bid))


# Playout hints: play the current round out, value its points.


def round_over(world: WizardState, state: WizardState) -> bool:
    """The playout stops when the round the search started in has been scored."""
    return len(state.rows) > len(world.rows)


def round_value(state: WizardState, seat: Seat) -> float:
    """The seat's points in the round just scored, above the others' mean, scaled to about -1 … 1."""
    points = state.sheet[-1].points
    others = (sum(points) - points[seat]) / (len(points) - 1)
    return (points[seat] - others) / (10.0 * (state.sheet[-1].round + 3))


def playout_policy(state: WizardState, seat: Seat, legal: Sequence[WizardAction], rng: random.Random) -> WizardAction:
    """Bid the fitted expected tricks; while short of the bid win as cheaply as possible, once made duck."""
    first = legal[0]
    if isinstance(first, Bid):
        return _playout_bid(state, seat, legal)
    if not isinstance(first, Play):
        return legal[rng.randrange(len(legal))]
    trump = None if state.trump < 0 else state.trump
    cards = [a.card for a in legal if isinstance(a, Play)]
    chasing = state.bids[seat] > state.tricks[seat]
    if not state.trick:
        # Lead: the strongest card while chasing, the weakest once the bid is made.
        table = rules.strengths(trump, rules.NO_LEAD_YET)
        key = [table[c] + (rules.RANK_OF[c] if table[c] == 0 and not rules.is_jester(c) else 0) for c in range(60)]
        return Play(max(cards, key=key.__getitem__) if chasing else min(cards, key=key.__getitem__))
    table = rules.strengths(trump, state.lead)
    best = max(table[c] for c in state.trick)
    winners = [c for c in cards if table[c] > best]
    losers = [c for c in cards if c not in winners]
    if chasing and winners:
        return Play(min(winners, key=table.__getitem__))
    if not chasing and losers:
        return Play(max(losers, key=lambda c: (table[c], rules.RANK_OF[c])))
    pool = losers or winners
    return Play(min(pool, key=lambda c: (table[c], rules.RANK_OF[c])))


def bid_candidates(obs: WizardObservation, legal: Sequence[WizardAction]) -> Sequence[WizardAction]:
    """Bids within two of the fitted estimate (the search scores each on sampled deals); other decisions: all."""
    if not legal or not isinstance(legal[0], Bid):
        return legal
    hand, trump = obs.hand, obs.trump_suit
    estimate = sum(bid_table.value(obs.players, len(hand), category(c, trump)) for c in hand)
    return [b for b in legal if isinstance(b, Bid) and abs(b.tricks - estimate) <= 1.6]


def _playout_bid(state: WizardState, seat: Seat, legal: Sequence[WizardAction]) -> WizardAction:
    """The allowed bid nearest the fitted expected tricks of the hand."""
    trump = None if state.trump < 0 else state.trump
    hand = rules.cards_of(state.hands[seat])
    estimate = sum(bid_table.value(state.options.players, len(hand), category(c, trump)) for c in hand)
    return min(legal, key=lambda b: (abs(b.tricks - estimate), b.tricks) if isinstance(b, Bid) else (99, 0))


HINTS = SearchHints(horizon=round_over, value=round_value, policy=playout_policy, candidates=bid_candidates)
