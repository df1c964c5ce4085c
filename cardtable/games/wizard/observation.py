"""What one Wizard seat (or a spectator) may know: everything a UI needs to draw the table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from cardtable.cards import CardId
from cardtable.core import Observation, Seat

Phase = Literal["choosing_trump", "bidding", "playing", "finished"]


@dataclass(frozen=True, slots=True)
class PlayedCard:
    """A card on the table and the seat that played it."""

    TYPE: ClassVar[str] = "played_card"
    seat: Seat
    card: CardId


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One line of the score sheet."""

    TYPE: ClassVar[str] = "round_result"
    round: int
    dealer: Seat
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class WizardObservation(Observation):
    """One seat's view of the table. ``bids[i]`` is None while seat i has not bid (or the bid is hidden)."""

    TYPE: ClassVar[str] = "wizard_observation"
    seat: Seat | None
    players: int
    round: int
    rounds: int
    dealer: Seat
    phase: Phase
    to_act: Seat | None
    hand: tuple[CardId, ...]
    hand_sizes: tuple[int, ...]
    trump_card: CardId | None
    trump_suit: int | None
    trump_text: str
    bids: tuple[int | None, ...]
    has_bid: tuple[bool, ...]
    bids_hidden: bool
    forbidden_bid: int | None
    tricks: tuple[int, ...]
    leader: Seat | None
    lead_suit: int | None
    trick: tuple[PlayedCard, ...]
    last_trick: tuple[PlayedCard, ...]
    last_trick_winner: Seat | None
    played_cards: tuple[CardId, ...]
    score_sheet: tuple[RoundResult, ...]
    totals: tuple[int, ...]
    # The table's rules, public to every seat (a search bot rebuilds worlds under them).
    wizard_trump: str = "dealer_chooses"
    bids_may_not_equal_tricks: bool = False
    hidden_bids: bool = False

    def cards_shown(self) -> frozenset[CardId]:
        """Every card id in any field: the hand, the trump card, the trick, the last trick, played cards."""
        shown = set(self.hand) | set(self.played_cards)
        shown.update(p.card for p in self.trick)
        shown.update(p.card for p in self.last_trick)
        if self.trump_card is not None:
            shown.add(self.trump_card)
        return frozenset(shown)
