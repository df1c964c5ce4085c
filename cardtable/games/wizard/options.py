"""Wizard options, their defaults (the published rules) and the two presets."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from cardtable.games.wizard.rules import total_rounds

WizardTrump = Literal["dealer_chooses", "no_trump"]
RoundsChoice = Literal["all", 5, 10]


@dataclass(frozen=True, slots=True)
class WizardOptions:
    """How a Wizard table plays; the defaults are the official rules."""

    players: int = field(default=4, metadata={"help": "Number of players (3–6)"})
    rounds: RoundsChoice = field(
        default="all",
        metadata={"help": "Rounds to play: all (60 // players), or stop after 5 or 10"},
    )
    wizard_trump: WizardTrump = field(
        default="dealer_chooses",
        metadata={"help": "When a wizard is turned for trump: the dealer names a suit, or the round has no trump"},
    )
    bids_may_not_equal_tricks: bool = field(
        default=False,
        metadata={"help": "Screw the dealer: the last bidder may not make the bids add up to the tricks"},
    )
    hidden_bids: bool = field(
        default=False,
        metadata={"help": "Bids stay hidden (only who has bid is shown) until the last bid is placed"},
    )
    first_dealer: int = field(
        default=-1,
        metadata={"help": "Seat of the first dealer; -1 draws it from the seed (for tests)"},
    )

    def game_rounds(self) -> int:
        """How many rounds this game lasts."""
        full = total_rounds(self.players)
        return full if self.rounds == "all" else min(int(self.rounds), full)


PRESETS: dict[str, dict[str, object]] = {
    "official": {"wizard_trump": "dealer_chooses", "bids_may_not_equal_tricks": False},
    "house": {"wizard_trump": "no_trump", "bids_may_not_equal_tricks": True},
}
