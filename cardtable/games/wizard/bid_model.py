"""Wizard's bid model: each card's category, whose fitted expected tricks ``bid_table.py`` holds.

The ``heuristic`` bot bids by it, the search's playouts and the search hints (``world.py``) count
hands by it; it sits with the rules so that the hints need no player.
"""

from __future__ import annotations

from cardtable.cards import CardId
from cardtable.games.wizard import rules

#: The categories: a wizard, a jester, and each of the 13 ranks as trump, as a side card, in a no-trump round.
CATEGORIES = 2 + 13 * 3
#: Index of the fitted weight of ``bid_pressure`` in a row of the bid table.
PRESSURE = CATEGORIES


def category(card: CardId, trump: int | None) -> int:
    """A card's category: 0 wizard, 1 jester, 2–14 trump, 15–27 side card, 28–40 card in a no-trump round."""
    if rules.is_wizard(card):
        return 0
    if rules.is_jester(card):
        return 1
    rank = rules.RANK_OF[card] - 1
    if trump is None:
        return 28 + rank
    return (2 if rules.SUIT_OF[card] == trump else 15) + rank
