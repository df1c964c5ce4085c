"""The observation base: what one seat (or a spectator) may know."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cardtable.core.types import CardId, Seat


@dataclass(frozen=True)
class Observation:
    """Base of every game's observation dataclass.

    ``seat`` is the observer (``None``: a spectator). Subclasses list every card
    they mention in :meth:`cards_shown`; the conformance suite checks that none of
    them is hidden from the observer.
    """

    TYPE: ClassVar[str] = "observation"

    def cards_shown(self) -> frozenset[CardId]:
        """Every card id this observation reveals, in any field."""
        raise NotImplementedError

    @property
    def observer(self) -> Seat | None:
        """The seat this observation was made for (``None``: a spectator)."""
        seat = getattr(self, "seat", None)
        return seat if isinstance(seat, int) else None
