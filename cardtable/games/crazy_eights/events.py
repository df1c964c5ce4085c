"""Crazy Eights events. A drawn card is two events: public "drew a card", private "drew 7♠"."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from cardtable.core.events import Event, PrivateEvent
from cardtable.core.types import CardId, Seat, ShownCard, ShownCards, ShownHands
from cardtable.games.crazy_eights.rules import SuitName, card_text

RoundEnd = Literal["out", "blocked", "limit"]


def seat_name(seat: Seat) -> str:
    """How logs name a seat."""
    return f"Seat {seat}"


def _cards(cards: tuple[CardId, ...]) -> str:
    return " ".join(card_text(c) for c in cards) or "nothing"


@dataclass(frozen=True, slots=True)
class RoundDealt(Event):
    """A round was dealt and the starter turned; public."""

    TYPE: ClassVar[str] = "round_dealt"
    round: int
    dealer: Seat
    hand_size: int
    starter: ShownCard
    suit: SuitName
    leader: Seat

    def text(self) -> str:
        """A line in words."""
        return (f"Round {self.round}: {seat_name(self.dealer)} deals {self.hand_size} cards each; the starter is "
                f"{card_text(self.starter)}, {self.suit} in force; {seat_name(self.leader)} plays first")


@dataclass(frozen=True, slots=True)
class HandDealt(PrivateEvent):
    """The cards dealt to one seat; private to that seat."""

    TYPE: ClassVar[str] = "hand_dealt"
    cards: ShownCards

    def text(self) -> str:
        """A line in words."""
        return f"{seat_name(self.seat)} was dealt {_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """A card other than an eight was played; public."""

    TYPE: ClassVar[str] = "card_played"
    seat: Seat
    card: ShownCard

    def text(self) -> str:
        """A line in words."""
        return f"{seat_name(self.seat)} played {card_text(self.card)}"


@dataclass(frozen=True, slots=True)
class EightPlayed(Event):
    """An eight was played and a suit named; public."""

    TYPE: ClassVar[str] = "eight_played"
    seat: Seat
    card: ShownCard
    suit: SuitName

    def text(self) -> str:
        """A line in words."""
        return f"{seat_name(self.seat)} played {card_text(self.card)} and named {self.suit}"


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    """A seat drew a card (which one is private); public."""

    TYPE: ClassVar[str] = "card_drawn"
    seat: Seat

    def text(self) -> str:
        """A line in words."""
        return f"{seat_name(self.seat)} drew a card"


@dataclass(frozen=True, slots=True)
class DrewCard(PrivateEvent):
    """The card a seat drew; private to that seat."""

    TYPE: ClassVar[str] = "drew_card"
    card: ShownCard

    def text(self) -> str:
        """A line in words."""
        return f"{seat_name(self.seat)} drew {card_text(self.card)}"


@dataclass(frozen=True, slots=True)
class StockRebuilt(Event):
    """The empty stock was rebuilt from the discards under the top card; public."""

    TYPE: ClassVar[str] = "stock_rebuilt"
    cards: int

    def text(self) -> str:
        """A line in words."""
        return f"The stock was rebuilt from {self.cards} discards"


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """A seat passed; public."""

    TYPE: ClassVar[str] = "passed"
    seat: Seat
    passes_in_row: int

    def text(self) -> str:
        """A line in words."""
        return f"{seat_name(self.seat)} passed"


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """A round ended (someone went out, it was blocked, or hit the safety limit); hands are shown."""

    TYPE: ClassVar[str] = "round_ended"
    REVEALS: ClassVar[bool] = True  # the rules show these cards to everyone
    round: int
    end: RoundEnd
    went_out: Seat | None
    hands: ShownHands
    penalties: tuple[int, ...]
    totals: tuple[int, ...]

    def text(self) -> str:
        """A line in words."""
        if self.went_out is not None:
            head = f"Round {self.round}: {seat_name(self.went_out)} went out"
        elif self.end == "blocked":
            head = f"Round {self.round} is blocked: every player passed"
        else:
            head = f"Round {self.round} stopped at the action limit"
        held = "; ".join(f"{seat_name(s)} {_cards(h)} = {p}" for s, (h, p) in
                         enumerate(zip(self.hands, self.penalties)) if h)
        return f"{head}. Penalties: {held or 'none'}. Totals: {', '.join(map(str, self.totals))}"


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """The last round is over; lowest total wins; public."""

    TYPE: ClassVar[str] = "game_ended"
    totals: tuple[int, ...]
    winners: tuple[Seat, ...]

    def text(self) -> str:
        """A line in words."""
        names = " and ".join(seat_name(s) for s in self.winners)
        return f"Game over: {names} {'win' if len(self.winners) > 1 else 'wins'} with {min(self.totals)} points"


EVENT_TYPES = (RoundDealt, HandDealt, CardPlayed, EightPlayed, CardDrawn, DrewCard, StockRebuilt, Passed,
               RoundEnded, GameEnded)
