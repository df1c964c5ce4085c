"""Domain type aliases shared by every layer."""

from __future__ import annotations

from typing import Annotated, Final

from cardtable.cards import CardId

Seat = int
"""A seat at the table, 0 … players - 1, in playing order."""

CARDS: Final = "cards"
"""The marker on event fields that hold card ids (see :meth:`cardtable.core.Event.cards_shown`)."""

ShownCard = Annotated[CardId, CARDS]
"""An event field holding one card id."""
ShownCardOrNone = Annotated[CardId | None, CARDS]
"""An event field holding one card id or nothing."""
ShownCards = Annotated[tuple[CardId, ...], CARDS]
"""An event field holding card ids."""
ShownHands = Annotated[tuple[tuple[CardId, ...], ...], CARDS]
"""An event field holding several seats' card ids (a showdown)."""

__all__ = ["CARDS", "CardId", "Seat", "ShownCard", "ShownCardOrNone", "ShownCards", "ShownHands"]
