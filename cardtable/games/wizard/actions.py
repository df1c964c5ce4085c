"""Wizard actions: ``bid 2``, ``trump yellow``, ``play Y7``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar, Literal, Self

from cardtable.cards import WIZARD_60
from cardtable.core.checks import Within
from cardtable.games.wizard.rules import SUITS

SuitName = Literal["red", "yellow", "green", "blue"]
WizardCard = Annotated[int, Within(0, 60, "a Wizard card id")]
"""A card id field: an int 0–59."""
Tricks = Annotated[int, Within(0, 61, "a number of tricks")]
"""A bid's field: an int 0–60."""


def _words(text: str, keyword: str) -> str | None:
    """The argument after ``keyword`` in ``text`` ("bid 2" → "2"), or None if ``text`` is not that verb."""
    parts = text.strip().split()
    if len(parts) != 2 or parts[0].lower() != keyword:
        return None
    return parts[1]


@dataclass(frozen=True, slots=True)
class Bid:
    """Bid a number of tricks for this round."""

    TYPE: ClassVar[str] = "bid"
    tricks: Tricks

    def text(self) -> str:
        """The short text form: ``bid 2``."""
        return f"bid {self.tricks}"

    @classmethod
    def parse(cls, text: str) -> Self | None:
        """``bid 2`` → Bid(2); None if not a bid."""
        arg = _words(text, "bid")
        if arg is None or not arg.isdigit():
            return None
        return cls(int(arg))

    def words(self) -> str:
        """In words: "Bid 2"."""
        return f"Bid {self.tricks}"


@dataclass(frozen=True, slots=True)
class ChooseTrump:
    """The dealer names the trump suit after a wizard was turned up."""

    TYPE: ClassVar[str] = "choose_trump"
    suit: SuitName

    def text(self) -> str:
        """The short text form: ``trump yellow``."""
        return f"trump {self.suit}"

    @classmethod
    def parse(cls, text: str) -> Self | None:
        """``trump yellow`` (or ``trump Y``) → ChooseTrump("yellow"); None if not a trump choice."""
        arg = _words(text, "trump")
        if arg is None:
            return None
        arg = arg.lower()
        for name in SUITS:
            if arg in (name, name[0]):
                return cls(name)  # type: ignore[arg-type]
        return None

    @property
    def suit_index(self) -> int:
        """The suit as an index 0–3."""
        return SUITS.index(self.suit)

    def words(self) -> str:
        """In words: "Name yellow as trump"."""
        return f"Name {self.suit} as trump"


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card to the trick."""

    TYPE: ClassVar[str] = "play"
    card: WizardCard

    def text(self) -> str:
        """The short text form: ``play Y7``."""
        return f"play {WIZARD_60.text(self.card)}"

    @classmethod
    def parse(cls, text: str) -> Self | None:
        """``play Y7`` → Play(19); None if not a play."""
        arg = _words(text, "play")
        if arg is None:
            return None
        try:
            return cls(WIZARD_60.parse(arg.upper()))
        except ValueError:
            return None

    def words(self) -> str:
        """In words: "Play 7 of yellow"."""
        return f"Play {WIZARD_60.card(self.card).words()}"


WizardAction = Bid | ChooseTrump | Play
