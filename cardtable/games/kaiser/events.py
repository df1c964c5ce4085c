"""Kaiser's events: what happened, in words. Only a dealt hand is private."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cardtable.core.events import Event, PrivateEvent
from cardtable.core.types import Seat, ShownCard, ShownCards
from cardtable.games.kaiser.rules import CARD_TEXT, CARD_WORDS


def _side_words(side: int) -> str:
    return "seats 0 and 2" if side == 0 else "seats 1 and 3"


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """A new hand is dealt: its number and the dealer."""

    TYPE: ClassVar[str] = "hand_started"
    hand: int
    dealer: Seat

    def text(self) -> str:
        """A line in words."""
        return f"Hand {self.hand}: seat {self.dealer} deals 8 cards to each player"


@dataclass(frozen=True, slots=True)
class CardsDealt(PrivateEvent):
    """The cards one seat was dealt; only that seat sees them."""

    TYPE: ClassVar[str] = "cards_dealt"
    cards: ShownCards

    def text(self) -> str:
        """A line in words."""
        return f"Seat {self.seat} is dealt {', '.join(CARD_TEXT[c] for c in self.cards)}"


@dataclass(frozen=True, slots=True)
class BidMade(Event):
    """A seat bid (``points`` 0 means it passed)."""

    TYPE: ClassVar[str] = "bid_made"
    seat: Seat
    points: int
    no_trump: bool

    def text(self) -> str:
        """A line in words."""
        if self.points == 0:
            return f"Seat {self.seat} passes"
        return f"Seat {self.seat} bids {self.points}{' no trump' if self.no_trump else ''}"


@dataclass(frozen=True, slots=True)
class ContractWon(Event):
    """The bidding is over: the highest bidder and the contract."""

    TYPE: ClassVar[str] = "contract_won"
    seat: Seat
    points: int
    no_trump: bool

    def text(self) -> str:
        """A line in words."""
        how = "in no trump" if self.no_trump else "and will name trump"
        return f"Seat {self.seat} wins the bidding at {self.points} {how}"


@dataclass(frozen=True, slots=True)
class TrumpNamed(Event):
    """The bidder named the trump suit."""

    TYPE: ClassVar[str] = "trump_named"
    seat: Seat
    suit: str

    def text(self) -> str:
        """A line in words."""
        return f"Seat {self.seat} names {self.suit} as trump"


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """A seat played a card to the trick."""

    TYPE: ClassVar[str] = "card_played"
    seat: Seat
    card: ShownCard

    def text(self) -> str:
        """A line in words."""
        return f"Seat {self.seat} plays the {CARD_WORDS[self.card]}"


@dataclass(frozen=True, slots=True)
class TrickTaken(Event):
    """A complete trick, who took it and what it was worth."""

    TYPE: ClassVar[str] = "trick_taken"
    seat: Seat
    cards: ShownCards
    points: int

    def text(self) -> str:
        """A line in words."""
        cards = ", ".join(CARD_TEXT[c] for c in self.cards)
        return f"Seat {self.seat} takes the trick ({cards}) worth {self.points}"


@dataclass(frozen=True, slots=True)
class HandScored(Event):
    """The hand's result: the contract, points taken per side, the change and the totals."""

    TYPE: ClassVar[str] = "hand_scored"
    hand: int
    bidder: Seat
    bid: int
    no_trump: bool
    made: bool
    taken: tuple[int, int]
    change: tuple[int, int]
    totals: tuple[int, int]

    def text(self) -> str:
        """A line in words."""
        side = self.bidder & 1
        verdict = "make" if self.made else "go down on"
        return (f"Hand {self.hand}: {_side_words(side)} {verdict} {self.bid}{' no trump' if self.no_trump else ''}"
                f" taking {self.taken[side]}; seats 0 and 2 {self.change[0]:+d}, seats 1 and 3 {self.change[1]:+d};"
                f" totals {self.totals[0]} to {self.totals[1]}")


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """The game is over: the winning seats (all four on a tie) and why."""

    TYPE: ClassVar[str] = "game_ended"
    winners: tuple[int, ...]
    reason: str

    def text(self) -> str:
        """A line in words."""
        return f"Game over: {self.reason}"


EVENT_TYPES: tuple[type[Event], ...] = (
    HandStarted, CardsDealt, BidMade, ContractWon, TrumpNamed, CardPlayed, TrickTaken, HandScored, GameEnded,
)
