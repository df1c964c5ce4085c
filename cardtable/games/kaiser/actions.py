"""Kaiser's actions: bid or pass, name trump, play a card. Each has a short text form and a parser."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, ClassVar, Literal, Self

from cardtable.cards import KAISER_32
from cardtable.core.actions import WordAction
from cardtable.core.checks import Within
from cardtable.games.kaiser.rules import CARD_TEXT, CARD_WORDS, SUIT_SYMBOLS, SUIT_WORDS, parse_suit

SuitName = Literal["spades", "hearts", "diamonds", "clubs"]

KaiserCard = Annotated[int, Within(0, 32, "a Kaiser card id")]
"""A card id field: an int 0–31 (the KAISER_32 deck)."""
Points = Annotated[int, Within(0, 100, "a number of points")]
"""A bid's points: an int 0–99 (the rules then allow the floor to 12)."""

_BID = re.compile(r"^\s*bid\s+(\d+)\s*(nt|no\s*trumps?)?\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Bid:
    """Undertake to take ``points`` for the side, in a suit named later or in no trump."""

    TYPE: ClassVar[str] = "bid"
    points: Points
    no_trump: bool = False

    def text(self) -> str:
        """``bid 7`` or ``bid 7nt``."""
        return f"bid {self.points}{'nt' if self.no_trump else ''}"

    @classmethod
    def parse(cls, text: str) -> Self | None:
        """Read ``bid 7``, ``bid 7nt`` or ``bid 7 no trump``."""
        match = _BID.match(text)
        if match is None:
            return None
        return cls(int(match.group(1)), match.group(2) is not None)


@dataclass(frozen=True, slots=True)
class Pass(WordAction):
    """Decline to bid this hand."""

    TYPE: ClassVar[str] = "pass"
    WORDS: ClassVar[tuple[str, ...]] = ("pass",)


@dataclass(frozen=True, slots=True)
class NameTrump:
    """The winner of a suit bid names the trump suit."""

    TYPE: ClassVar[str] = "name_trump"
    suit: SuitName

    @property
    def index(self) -> int:
        """The suit index 0–3 (spades, hearts, diamonds, clubs)."""
        return SUIT_WORDS.index(self.suit)

    def text(self) -> str:
        """``trump ♥``."""
        return f"trump {SUIT_SYMBOLS[self.index]}"

    @classmethod
    def parse(cls, text: str) -> Self | None:
        """Read ``trump ♥``, ``trump H`` or ``trump hearts``."""
        parts = text.split()
        if len(parts) != 2 or parts[0].lower() != "trump":
            return None
        suit = parse_suit(parts[1])
        return None if suit is None else cls(SUIT_WORDS[suit])  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card (a KAISER_32 id) to the trick."""

    TYPE: ClassVar[str] = "play"
    card: KaiserCard

    def text(self) -> str:
        """``play 5♥``."""
        return f"play {CARD_TEXT[self.card]}" if 0 <= self.card < 32 else f"play #{self.card}"

    def words(self) -> str:
        """``Play five of hearts``."""
        return f"Play {CARD_WORDS[self.card]}" if 0 <= self.card < 32 else f"Play card #{self.card}"

    @classmethod
    def parse(cls, text: str) -> Self | None:
        """Read ``play 5♥`` (or ``play 5H``)."""
        parts = text.split()
        if len(parts) != 2 or parts[0].lower() != "play":
            return None
        try:
            return cls(KAISER_32.parse(parts[1]))
        except ValueError:
            return None


KaiserAction = Bid | Pass | NameTrump | Play
ACTION_TYPES = (Bid, Pass, NameTrump, Play)
PASS = Pass()
PLAYS: tuple[Play, ...] = tuple(Play(c) for c in range(32))
NAME_TRUMPS: tuple[NameTrump, ...] = tuple(NameTrump(w) for w in SUIT_WORDS)  # type: ignore[arg-type]


def describe(action: KaiserAction) -> str:
    """The action in words: "Bid 7", "Bid 7 no trump", "Pass", "Name hearts as trump", "Play five of hearts"."""
    if isinstance(action, Bid):
        return f"Bid {action.points}{' no trump' if action.no_trump else ''}"
    if isinstance(action, Pass):
        return "Pass"
    if isinstance(action, NameTrump):
        return f"Name {action.suit} as trump"
    return action.words()
