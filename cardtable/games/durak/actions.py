"""Durak actions: attack with a card, beat with a card, stop attacking, take the cards."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar, Self

from cardtable.core.actions import WordAction
from cardtable.core.checks import Within
from cardtable.games.durak.rules import DECK, DECK_SIZE, card_words, parse_card

DurakCard = Annotated[int, Within(0, DECK_SIZE, "a Durak card id")]
"""A card id field: an int 0–35 (the RUSSIAN_36 deck)."""


def _card_after(text: str, verb: str) -> int | None:
    """The card in ``"<verb> <card>"``, or ``None`` if ``text`` is not of that form."""
    parts = text.split()
    if len(parts) != 2 or parts[0].lower() != verb:
        return None
    return parse_card(parts[1])


@dataclass(frozen=True, slots=True)
class Attack:
    """The attacker puts a card on the table (a lead, or a card of a rank already in the bout)."""

    TYPE: ClassVar[str] = "attack"
    card: DurakCard

    def text(self) -> str:
        """``attack 6♣``."""
        return f"attack {DECK.text(self.card)}"

    @classmethod
    def parse(cls, text: str) -> Self | None:
        """``attack 6♣`` (also ``attack 6C``, ``attack В♣``)."""
        card = _card_after(text, "attack")
        return None if card is None else cls(card)


@dataclass(frozen=True, slots=True)
class Beat:
    """The defender covers the last attack card."""

    TYPE: ClassVar[str] = "beat"
    card: DurakCard

    def text(self) -> str:
        """``beat 10♣``."""
        return f"beat {DECK.text(self.card)}"

    @classmethod
    def parse(cls, text: str) -> Self | None:
        """``beat 10♣``."""
        card = _card_after(text, "beat")
        return None if card is None else cls(card)


@dataclass(frozen=True, slots=True)
class Stop(WordAction):
    """The attacker ends the bout with every attack beaten: the cards leave the game."""

    TYPE: ClassVar[str] = "stop"
    WORDS: ClassVar[tuple[str, ...]] = ("stop",)


@dataclass(frozen=True, slots=True)
class Take(WordAction):
    """The defender gives up and takes the bout's cards (and the attacker's hand-over)."""

    TYPE: ClassVar[str] = "take"
    WORDS: ClassVar[tuple[str, ...]] = ("take",)


DurakAction = Attack | Beat | Stop | Take
ACTION_TYPES = (Attack, Beat, Stop, Take)

# Shared instances: legal-action lists are built on the hot path.
ATTACKS = tuple(Attack(c) for c in range(DECK_SIZE))
BEATS = tuple(Beat(c) for c in range(DECK_SIZE))
STOP = Stop()
TAKE = Take()


def describe(action: DurakAction) -> str:
    """The action in words for people and screen readers."""
    if isinstance(action, Attack):
        return f"Attack with the {card_words(action.card)}"
    if isinstance(action, Beat):
        return f"Beat with the {card_words(action.card)}"
    if isinstance(action, Stop):
        return "Stop attacking (the beaten cards leave the game)"
    return "Take the cards"
