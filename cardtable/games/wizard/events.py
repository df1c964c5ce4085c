"""Wizard events: what happened, each a line in words; a dealt hand and a hidden bid go to their owner only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cardtable.cards import WIZARD_60, CardId
from cardtable.core import Event, PrivateEvent, Seat
from cardtable.core.types import ShownCard, ShownCardOrNone, ShownCards


def _cards(cards: tuple[CardId, ...]) -> str:
    return WIZARD_60.format(cards, " ") or "nothing"


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """A round begins: its number, the dealer and how many cards each player gets."""

    TYPE: ClassVar[str] = "round_started"
    round: int
    dealer: Seat
    cards_each: int

    def text(self) -> str:
        """A line in words."""
        return f"Round {self.round}: seat {self.dealer} deals {self.cards_each} card(s) each"


@dataclass(frozen=True, slots=True)
class HandDealt(PrivateEvent):
    """A player's new hand; only that player sees it."""

    TYPE: ClassVar[str] = "hand_dealt"
    cards: ShownCards

    def text(self) -> str:
        """A line in words."""
        return f"Seat {self.seat} is dealt {_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class TrumpTurned(Event):
    """The card turned for trump (None in the last round) and what it makes trump."""

    TYPE: ClassVar[str] = "trump_turned"
    card: ShownCardOrNone
    trump: str
    dealer_chooses: bool = False

    def text(self) -> str:
        """A line in words."""
        if self.card is None:
            return "Every card is dealt: no trump this round"
        turned = WIZARD_60.card(self.card).words()
        if self.dealer_chooses:
            return f"{turned} is turned up: the dealer names trump"
        return f"{turned} is turned up: {self.trump}" + ("" if self.trump == "no trump" else " is trump")


@dataclass(frozen=True, slots=True)
class TrumpChosen(Event):
    """The dealer named the trump suit."""

    TYPE: ClassVar[str] = "trump_chosen"
    seat: Seat
    suit: str

    def text(self) -> str:
        """A line in words."""
        return f"Seat {self.seat} names {self.suit} as trump"


@dataclass(frozen=True, slots=True)
class BidPlaced(Event):
    """A bid everyone hears."""

    TYPE: ClassVar[str] = "bid_placed"
    seat: Seat
    tricks: int

    def text(self) -> str:
        """A line in words."""
        return f"Seat {self.seat} bids {self.tricks}"


@dataclass(frozen=True, slots=True)
class HiddenBidPlaced(Event):
    """With hidden bids: everyone learns that a seat has bid, not what."""

    TYPE: ClassVar[str] = "hidden_bid_placed"
    seat: Seat

    def text(self) -> str:
        """A line in words."""
        return f"Seat {self.seat} has bid"


@dataclass(frozen=True, slots=True)
class OwnBid(PrivateEvent):
    """With hidden bids: the bidder's own record of the bid."""

    TYPE: ClassVar[str] = "own_bid"
    tricks: int

    def text(self) -> str:
        """A line in words."""
        return f"Seat {self.seat} secretly bids {self.tricks}"


@dataclass(frozen=True, slots=True)
class BidsRevealed(Event):
    """With hidden bids: every bid, revealed when the last one is placed."""

    TYPE: ClassVar[str] = "bids_revealed"
    bids: tuple[int, ...]

    def text(self) -> str:
        """A line in words."""
        return "Bids revealed: " + ", ".join(f"seat {s} {b}" for s, b in enumerate(self.bids))


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """A card played to the trick."""

    TYPE: ClassVar[str] = "card_played"
    seat: Seat
    card: ShownCard

    def text(self) -> str:
        """A line in words."""
        return f"Seat {self.seat} plays {WIZARD_60.card(self.card).words()}"


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    """A completed trick (cards in playing order, led by ``leader``) and who took it."""

    TYPE: ClassVar[str] = "trick_won"
    winner: Seat
    leader: Seat
    cards: ShownCards

    def text(self) -> str:
        """A line in words."""
        return f"Seat {self.winner} takes the trick ({_cards(self.cards)})"


@dataclass(frozen=True, slots=True)
class RoundScored(Event):
    """The end of a round: bids, tricks, points this round and running totals, per seat."""

    TYPE: ClassVar[str] = "round_scored"
    round: int
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]

    def text(self) -> str:
        """A line in words."""
        parts = (f"seat {s} bid {b} took {t}: {p:+d} ({tot})"
                 for s, (b, t, p, tot) in enumerate(zip(self.bids, self.tricks, self.points, self.totals)))
        return f"Round {self.round} scored: " + "; ".join(parts)


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """The game is over: final totals and the winners (ties possible)."""

    TYPE: ClassVar[str] = "game_ended"
    totals: tuple[int, ...]
    winners: tuple[Seat, ...]

    def text(self) -> str:
        """A line in words."""
        who = " and ".join(f"seat {s}" for s in self.winners)
        return f"Game over: {who} win{'s' if len(self.winners) == 1 else ''} with {max(self.totals)}"


EVENT_TYPES: tuple[type[Event], ...] = (
    RoundStarted, HandDealt, TrumpTurned, TrumpChosen, BidPlaced, HiddenBidPlaced, OwnBid,
    BidsRevealed, CardPlayed, TrickWon, RoundScored, GameEnded,
)
