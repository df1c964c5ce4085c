"""What one Kaiser seat (or a spectator) may know: enough to draw the table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cardtable.core.observation import Observation
from cardtable.core.types import CardId


@dataclass(frozen=True, slots=True)
class BidView:
    """One call in this hand's bidding (``points`` 0: a pass)."""

    TYPE: ClassVar[str] = "bid_view"
    seat: int
    points: int
    no_trump: bool
    words: str


@dataclass(frozen=True, slots=True)
class ContractView:
    """The contract: who bid what, and the trump suit (``None`` until named) or no trump."""

    TYPE: ClassVar[str] = "contract_view"
    bidder: int
    points: int
    no_trump: bool
    trump: str | None
    words: str


@dataclass(frozen=True, slots=True)
class PlayedCard:
    """A card on the table and who played it."""

    TYPE: ClassVar[str] = "played_card"
    seat: int
    card: int
    text: str
    words: str


@dataclass(frozen=True, slots=True)
class HandResult:
    """One line of the score sheet (sides: 0 = seats 0 and 2, 1 = seats 1 and 3)."""

    TYPE: ClassVar[str] = "hand_result"
    hand: int
    dealer: int
    bidder: int
    bid: int
    no_trump: bool
    trump: str
    made: bool
    taken: tuple[int, int]
    change: tuple[int, int]
    totals: tuple[int, int]


@dataclass(frozen=True)
class KaiserObservation(Observation):
    """A seat's view of the table (``seat`` None: a spectator, who sees no hand)."""

    TYPE: ClassVar[str] = "kaiser_observation"
    seat: int | None
    phase: str
    to_act: int | None
    dealer: int
    hand_number: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    bids: tuple[BidView, ...]
    high_bid: BidView | None
    contract: ContractView | None
    trump: str
    leader: int | None
    trick: tuple[PlayedCard, ...]
    played: tuple[PlayedCard, ...]
    last_trick: tuple[PlayedCard, ...]
    last_trick_winner: int | None
    tricks_taken: tuple[int, int]
    points_taken: tuple[int, int]
    score_sheet: tuple[HandResult, ...]
    totals: tuple[int, int]
    teams: tuple[tuple[int, int], tuple[int, int]]
    floor: int
    no_trump_allowed: bool
    target: int
    status: str

    def cards_shown(self) -> frozenset[CardId]:
        """Own hand, the trick in progress, the tricks played this hand and the last trick."""
        return (frozenset(self.hand) | {p.card for p in self.trick} | {p.card for p in self.played}
                | {p.card for p in self.last_trick})
