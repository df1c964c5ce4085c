"""How a Kaiser hand rates: the points it should take with each trump, what an unseen partner adds.

The model the ``heuristic`` bot bids by, which the search's playout (``playout.py``) and its
sampler's reading of the bidding (``world.py``) share. Card ids follow KAISER_32: ``id >> 3`` is
the suit (♠ ♥ ♦ ♣), ``id & 7`` the rank (7 = ace).
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.games.kaiser import rules

ACE, KING, QUEEN = 7, 6, 5
PARTNER_SHARE = 2.5
"""What an unseen partner adds on average: a quarter of the tricks and of the 5♥/3♠ swing."""
FIVE, THREE = rules.FIVE_OF_HEARTS, rules.THREE_OF_SPADES


def _suit_ranks(hand: Sequence[int], suit: int) -> list[int]:
    return [c & 7 for c in hand if c >> 3 == suit]


def trump_rating(hand: Sequence[int], trump: int) -> float:
    """Points this hand should take with ``trump`` (0–3, or 4 for no trump): length, top cards, 5♥ and 3♠."""
    points = 0.0
    for suit in range(4):
        ranks = _suit_ranks(hand, suit)
        points += trump_suit_value(ranks) if suit == trump else side_suit_value(ranks, trump)
    if FIVE in hand:
        points += 3.0 if trump == 1 or len(_suit_ranks(hand, 1)) >= 3 else 2.0
    if THREE in hand:
        points -= 1.0 if trump == 0 and len(_suit_ranks(hand, 0)) >= 3 else 2.0
    return points


def trump_suit_value(ranks: list[int]) -> float:
    """Tricks from the trump suit: top cards, then length beyond three."""
    value = sum({ACE: 1.0, KING: 0.8, QUEEN: 0.5}.get(r, 0.25) for r in ranks)
    return value + 0.6 * max(0, len(ranks) - 3)


def side_suit_value(ranks: list[int], trump: int) -> float:
    """Tricks from a side suit: aces and guarded kings; a void helps if there are trumps to ruff with."""
    value = 0.0
    if ACE in ranks:
        value += 0.9
    if KING in ranks and len(ranks) >= 2:
        value += 0.5 if trump < 4 else 0.6
    if trump == 4 and len(ranks) >= 5 and ACE in ranks:
        value += 0.5 * (len(ranks) - 4)  # a long suit runs in no trump
    return value


def best_trump(hand: Sequence[int]) -> tuple[int, float]:
    """The best trump suit for this hand and its rating."""
    return max(((s, trump_rating(hand, s)) for s in range(4)), key=lambda sr: sr[1])
