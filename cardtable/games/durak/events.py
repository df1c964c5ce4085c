"""Durak events: everything the 2020 program's log prints, plus the public halves of private draws."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cardtable.core.events import Event, PrivateEvent
from cardtable.core.types import Seat, ShownCard, ShownCards
from cardtable.games.durak.rules import DECK, SUIT, SUIT_WORDS


def _cards(cards: tuple[int, ...]) -> str:
    return DECK.format(cards, ", ")


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """Public: a seat was dealt ``count`` cards."""

    TYPE: ClassVar[str] = "dealt"
    seat: Seat
    count: int

    def text(self) -> str:
        """A line in words."""
        return f"Seat {self.seat} is dealt {self.count} cards"


@dataclass(frozen=True, slots=True)
class DealtHand(PrivateEvent):
    """Private: the hand a seat was dealt, in hand order."""

    TYPE: ClassVar[str] = "dealt_hand"
    cards: ShownCards

    def text(self) -> str:
        """A line in words."""
        return f"Seat {self.seat} holds {_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class TrumpTurned(Event):
    """The card turned up for trump; it goes to the bottom of the deck."""

    TYPE: ClassVar[str] = "trump_turned"
    card: ShownCard

    def text(self) -> str:
        """A line in words."""
        return f"Trump: {DECK.text(self.card)} ({SUIT_WORDS[SUIT[self.card]]})"


@dataclass(frozen=True, slots=True)
class BoutStarted(Event):
    """A new bout (ход): who attacks whom."""

    TYPE: ClassVar[str] = "bout_started"
    number: int
    attacker: Seat
    defender: Seat

    def text(self) -> str:
        """A line in words."""
        return f"Bout {self.number}: seat {self.attacker} attacks seat {self.defender}"


@dataclass(frozen=True, slots=True)
class Attacked(Event):
    """The attacker played a card."""

    TYPE: ClassVar[str] = "attacked"
    seat: Seat
    card: ShownCard

    def text(self) -> str:
        """A line in words."""
        return f"Seat {self.seat} attacks with {DECK.text(self.card)}"


@dataclass(frozen=True, slots=True)
class Covered(Event):
    """The defender beat the last attack card."""

    TYPE: ClassVar[str] = "covered"
    seat: Seat
    card: ShownCard

    def text(self) -> str:
        """A line in words."""
        return f"Seat {self.seat} beats with {DECK.text(self.card)}"


@dataclass(frozen=True, slots=True)
class Stopped(Event):
    """The attacker stopped with every attack beaten; the bout's cards leave the game."""

    TYPE: ClassVar[str] = "stopped"
    seat: Seat
    discarded: ShownCards

    def text(self) -> str:
        """A line in words."""
        return f"Seat {self.seat} stops; {_cards(self.discarded)} leave the game"


@dataclass(frozen=True, slots=True)
class HandedOver(Event):
    """On a take, the attacker hands over his non-trump cards of the bout's ranks."""

    TYPE: ClassVar[str] = "handed_over"
    REVEALS: ClassVar[bool] = True  # the rules show these cards to everyone
    seat: Seat
    cards: ShownCards

    def text(self) -> str:
        """A line in words."""
        return f"Seat {self.seat} hands over {_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class Took(Event):
    """The defender took every card of the bout, in the order played (the handed-over ones first)."""

    TYPE: ClassVar[str] = "took"
    REVEALS: ClassVar[bool] = True  # it lists the handed-over cards again, public by rule 8
    seat: Seat
    cards: ShownCards

    def text(self) -> str:
        """A line in words."""
        return f"Seat {self.seat} takes {_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class Drew(Event):
    """Public: a seat drew ``count`` cards from the deck."""

    TYPE: ClassVar[str] = "drew"
    seat: Seat
    count: int

    def text(self) -> str:
        """A line in words."""
        return f"Seat {self.seat} draws {self.count} card{'s' if self.count != 1 else ''}"


@dataclass(frozen=True, slots=True)
class DrewCards(PrivateEvent):
    """Private: the cards a seat drew, in the order drawn."""

    TYPE: ClassVar[str] = "drew_cards"
    cards: ShownCards

    def text(self) -> str:
        """A line in words."""
        return f"Seat {self.seat} draws {_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class LeftGame(Event):
    """A seat has no cards and the deck is empty: it leaves the game."""

    TYPE: ClassVar[str] = "left_game"
    seat: Seat

    def text(self) -> str:
        """A line in words."""
        return f"Seat {self.seat} is out of cards and leaves the game"


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The end: the fool (``None``: a draw), the winner (the first to leave, if alone) and why."""

    TYPE: ClassVar[str] = "game_over"
    fool: Seat | None
    winner: Seat | None
    reason: str

    def text(self) -> str:
        """A line in words."""
        fool = "a draw" if self.fool is None else f"seat {self.fool} is the fool"
        winner = "" if self.winner is None else f"; seat {self.winner} won"
        return f"Game over: {fool}{winner} ({self.reason})"


EVENT_TYPES: tuple[type[Event], ...] = (
    Dealt, DealtHand, TrumpTurned, BoutStarted, Attacked, Covered, Stopped, HandedOver, Took,
    Drew, DrewCards, LeftGame, GameOver,
)
