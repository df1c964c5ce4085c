"""Crazy Eights actions: play a card, play an eight naming a suit, draw, pass.

An eight and the suit it names are ONE action (:class:`PlayEight`), so the
choice is atomic: there is never a state where an eight lies on the pile with
no suit named yet.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar, Final, Self

from cardtable.core.actions import WordAction
from cardtable.core.checks import Within
from cardtable.core.types import CardId
from cardtable.games.crazy_eights.rules import (
    DECK,
    DECK_SIZE,
    SUIT_INDEX,
    SUIT_NAMES,
    SuitName,
    card_text,
    card_words,
    is_eight,
    parse_suit,
)

Card = Annotated[int, Within(0, DECK_SIZE, "a Crazy Eights card id")]
"""A card id field: an int 0–51 (the STANDARD_52 deck)."""


def _parse_card(text: str) -> CardId | None:
    try:
        return DECK.parse(text)
    except ValueError:
        return None


def _words(text: str, verb: str) -> list[str] | None:
    """The words after ``verb`` if ``text`` starts with it, else ``None``."""
    parts = text.strip().split()
    if not parts or parts[0].lower() != verb:
        return None
    return parts[1:]


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card that is not an eight; it must match the suit in force or the top card's rank."""

    TYPE: ClassVar[str] = "play"
    card: Card

    def text(self) -> str:
        """``play 7♠``."""
        return f"play {card_text(self.card)}" if 0 <= self.card < DECK_SIZE else f"play #{self.card}"

    @classmethod
    def parse(cls, text: str) -> Self | None:
        """``play 7♠`` (or ``play 7s``); ``None`` for anything else, eights included."""
        words = _words(text, "play")
        if words is None or len(words) != 1:
            return None
        card = _parse_card(words[0])
        if card is None or is_eight(card):
            return None
        return cls(card)


@dataclass(frozen=True, slots=True)
class PlayEight:
    """Play an eight (wild, on anything) and name the suit in force from now on."""

    TYPE: ClassVar[str] = "play_eight"
    card: Card
    suit: SuitName

    def text(self) -> str:
        """``play 8♠ name hearts``."""
        shown = card_text(self.card) if 0 <= self.card < DECK_SIZE else f"#{self.card}"
        return f"play {shown} name {self.suit}"

    @classmethod
    def parse(cls, text: str) -> Self | None:
        """``play 8♠ name hearts``, ``play 8♠ ♥`` or ``play 8s h``; ``None`` for anything else."""
        words = _words(text, "play")
        if words is None or len(words) not in (2, 3):
            return None
        if len(words) == 3:
            if words[1].lower() != "name":
                return None
            del words[1]
        card = _parse_card(words[0])
        suit = parse_suit(words[1])
        if card is None or suit is None or not is_eight(card):
            return None
        return cls(card, SUIT_NAMES[suit])

    @property
    def suit_index(self) -> int:
        """The named suit as an index (0 ♠, 1 ♥, 2 ♦, 3 ♣)."""
        return SUIT_INDEX[self.suit]


@dataclass(frozen=True, slots=True)
class Draw(WordAction):
    """Draw the top card of the stock (rebuilt from the discards if it is empty)."""

    TYPE: ClassVar[str] = "draw"
    WORDS: ClassVar[tuple[str, ...]] = ("draw",)


@dataclass(frozen=True, slots=True)
class Pass(WordAction):
    """Pass the turn: allowed only with nothing to play and nothing (more) to draw."""

    TYPE: ClassVar[str] = "pass"
    WORDS: ClassVar[tuple[str, ...]] = ("pass",)


Action = Play | PlayEight | Draw | Pass
ACTION_TYPES = (Play, PlayEight, Draw, Pass)

DRAW: Final = Draw()
PASS: Final = Pass()
#: Every playing action per card, built once: legal-action lists reuse these objects.
PLAYS_OF_CARD: Final[tuple[tuple[Play | PlayEight, ...], ...]] = tuple(
    tuple(PlayEight(c, name) for name in SUIT_NAMES) if is_eight(c) else (Play(c),)
    for c in range(DECK_SIZE)
)


def describe(action: Action) -> str:
    """The action in words: "Play seven of spades", "Play eight of spades, name hearts"."""
    if isinstance(action, PlayEight):
        return f"Play {card_words(action.card)}, name {action.suit}"
    if isinstance(action, Play):
        return f"Play {card_words(action.card)}" if 0 <= action.card < DECK_SIZE else action.text()
    if isinstance(action, Draw):
        return "Draw a card"
    return "Pass"


__all__ = ["ACTION_TYPES", "DRAW", "PASS", "PLAYS_OF_CARD", "Action", "Draw", "Pass",
           "Play", "PlayEight", "describe"]
