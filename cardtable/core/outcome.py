"""The end of a game: scores, winners and the reason."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cardtable.core.types import Seat


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended. ``scores[i]`` is seat i's score; several winners mean a tie."""

    TYPE: ClassVar[str] = "outcome"

    scores: tuple[float, ...]
    winners: tuple[Seat, ...]
    reason: str

    def is_winner(self, seat: Seat) -> bool:
        """Whether ``seat`` is among the winners."""
        return seat in self.winners

    def win_share(self, seat: Seat) -> float:
        """Seat's share of the win: 1 / len(winners) for a winner, 0 otherwise."""
        return 1.0 / len(self.winners) if seat in self.winners else 0.0
