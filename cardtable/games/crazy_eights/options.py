"""Crazy Eights options: seats, hand size, the drawing rule and the number of rounds."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from cardtable.games.crazy_eights.rules import default_hand_size

HandSize = Literal["auto", 5, 7, 9]


@dataclass(frozen=True)
class CrazyEightsOptions:
    """The table setup; every field is a toggle on the setup screen."""

    players: int = field(default=4, metadata={"help": "Players, 2–6; everyone plays for himself"})
    hand_size: HandSize = field(
        default="auto", metadata={"help": "Cards dealt to each player: auto = 7 heads-up, 5 otherwise"})
    draw_until_playable: bool = field(
        default=True,
        metadata={"help": "If you cannot play, keep drawing until you can (off: draw one card, then play it or pass)"})
    rounds: Literal[1, 3, 5] = field(default=3, metadata={"help": "Rounds to play; lowest total wins"})

    @property
    def cards_each(self) -> int:
        """The number of cards each player is dealt."""
        return default_hand_size(self.players) if self.hand_size == "auto" else self.hand_size
