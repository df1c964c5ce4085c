"""Reading the cards the others played: how well a sampled deal explains them, for Wizard's search.

A sampled deal gives every other seat a hand now; with the cards it played earlier this round that
is the hand it held at each of its plays. Where the playout policy (``playout._choose``), holding
that hand and seeing what that seat saw, would have played another card than the one it did (and
not one that plays alike), the deal explains the play less well. A deal's weight is
``exp(-infer × misses)``: deals that make the others' play look sensible count more (the seat that
ducked with its bid made probably holds no low card of the suit; the one that chased with a high
card probably held nothing cheaper that wins).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from cardtable.games.wizard import rules
from cardtable.games.wizard.observation import WizardObservation
from cardtable.games.wizard.players import playout


@dataclass(frozen=True, slots=True)
class Play:
    """One card another seat played this round, with what that seat knew when it played it."""

    seat: int
    card: int
    trick: tuple[int, ...]
    need: int
    seen: int
    later: int
    last: bool


def play_history(obs: WizardObservation) -> list[Play]:
    """The other seats' plays this round (none while bids are hidden: what they aimed at is unknown)."""
    me = obs.seat if obs.seat is not None else 0
    if obs.bids_hidden or any(b is None for b in obs.bids):
        return []
    p = obs.players
    trump = obs.trump_suit
    seen = 0 if obs.trump_card is None else 1 << obs.trump_card
    tricks = [0] * p
    tricks_played = [obs.played_cards[i:i + p] for i in range(0, len(obs.played_cards), p)]
    leader = (obs.dealer + 1) % p
    out: list[tuple[int, int, tuple[int, ...], int, int]] = []
    leaders: list[int] = []
    for done in tricks_played:
        leaders.append(leader)
        leader = (leader + rules.trick_winner(done, trump)) % p
    sequences = [(lead_seat, list(done)) for lead_seat, done in zip(leaders, tricks_played)]
    if obs.trick:
        sequences.append((obs.trick[0].seat, [pc.card for pc in obs.trick]))
    for lead_seat, cards in sequences:
        for i, card in enumerate(cards):
            seat = (lead_seat + i) % p
            bid = obs.bids[seat]
            assert bid is not None
            out.append((seat, card, tuple(cards[:i]), bid - tricks[seat], seen))
            seen |= 1 << card
        if len(cards) == p:
            tricks[(lead_seat + rules.trick_winner(cards, trump)) % p] += 1
    plays: list[Play] = []
    later = [0] * p
    for seat, card, trick, need, before in reversed(out):
        later[seat] |= 1 << card
        if seat != me:
            plays.append(Play(seat, card, trick, need, before, later[seat], len(trick) == p - 1))
    return plays


def misses(plays: Sequence[Play], hands: Sequence[int], trump: int) -> int:
    """How many of ``plays`` the playout policy would have made differently holding the sampled hands."""
    by_lead = rules.STRENGTH[trump + 1]
    trump_mask = rules.SUIT_MASK[trump] if trump >= 0 else 0
    count = 0
    for play in plays:
        hand = hands[play.seat] | play.later
        unseen = rules.ALL_MASK & ~(hand | play.seen)
        if not hand & (hand - 1):
            continue
        choice = playout._choose(hand, unseen, rules.lead_state(play.trick), list(play.trick), play.need, trump,
                                 trump_mask, by_lead, play.last)
        if choice != play.card and not alike(choice, play.card, unseen):
            count += 1
    return count


def alike(a: int, b: int, unseen: int) -> bool:
    """Whether two cards play alike: both jesters, both wizards, or ranks of a suit with nothing unseen between."""
    if a >= rules.FIRST_JESTER or b >= rules.FIRST_JESTER:
        return a >= rules.FIRST_JESTER and b >= rules.FIRST_JESTER
    if a >= rules.FIRST_WIZARD or b >= rules.FIRST_WIZARD:
        return a >= rules.FIRST_WIZARD and b >= rules.FIRST_WIZARD
    if rules.SUIT_OF[a] != rules.SUIT_OF[b]:
        return False
    low, high = min(a, b), max(a, b)
    between = ((1 << high) - 1) & ~((1 << (low + 1)) - 1)
    return not between & unseen


def play_likelihood(plays: Sequence[Play], hands: Sequence[int], trump: int, infer: float) -> float:
    """``exp(-infer × misses)``: how well a sampled deal explains the others' plays (1 when nothing to read)."""
    if not plays or not infer:
        return 1.0
    return math.exp(-infer * misses(plays, hands, trump))
