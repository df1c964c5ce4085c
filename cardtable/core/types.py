"""Domain type aliases shared by every layer."""

from __future__ import annotations

from cardtable.cards import CardId

Seat = int
"""A seat at the table, 0 … players - 1, in playing order."""

__all__ = ["CardId", "Seat"]
