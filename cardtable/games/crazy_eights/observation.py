"""What one seat (or a spectator) may know at a Crazy Eights table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cardtable.core.observation import Observation
from cardtable.core.types import CardId, Seat
from cardtable.games.crazy_eights.events import RoundEnd
from cardtable.games.crazy_eights.rules import SuitName


@dataclass(frozen=True, slots=True)
class RoundScore:
    """One line of the score sheet: how the round ended and each seat's penalty points."""

    TYPE: ClassVar[str] = "round_score"
    round: int
    dealer: Seat
    end: RoundEnd
    went_out: Seat | None
    penalties: tuple[int, ...]


@dataclass(frozen=True)
class CrazyEightsObservation(Observation):
    """The table as one seat sees it: its own hand, the pile, the suit in force in words, counts and scores."""

    TYPE: ClassVar[str] = "crazy_eights_observation"
    seat: Seat | None
    players: int
    round: int
    rounds: int
    dealer: Seat
    to_act: Seat | None
    hand: tuple[CardId, ...]
    top: CardId
    suit: SuitName
    suit_text: str
    stock_count: int
    discard_count: int
    hand_counts: tuple[int, ...]
    drawn_this_turn: int
    last_drawn: CardId | None
    passes_in_row: int
    draw_until_playable: bool
    sheet: tuple[RoundScore, ...]
    totals: tuple[int, ...]
    over: bool
    winners: tuple[Seat, ...]
    discard_pile: tuple[CardId, ...] = ()  # the cards under the top one, in id order (all were seen played)

    def cards_shown(self) -> frozenset[CardId]:
        """Own hand, the top card, the pile under it and the card just drawn (which is also in the hand)."""
        shown = set(self.hand) | set(self.discard_pile)
        shown.add(self.top)
        if self.last_drawn is not None:
            shown.add(self.last_drawn)
        return frozenset(shown)
