"""What one Durak seat (or a spectator) may know: its hand, the trump, the table, counts of everything else."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cardtable.core.observation import Observation
from cardtable.core.types import CardId, Seat
from cardtable.games.durak.rules import SUIT_WORDS


@dataclass(frozen=True)
class DurakObservation(Observation):
    """What a seat may know: its hand, the trump, the table, counts of everything else."""

    TYPE: ClassVar[str] = "durak"
    seat: Seat | None
    players: int
    hand: tuple[int, ...]
    trump_card: int
    trump_suit: str
    deck_count: int
    hand_counts: tuple[int, ...]
    in_game: tuple[bool, ...]
    attacker: Seat | None
    defender: Seat | None
    to_act: Seat | None
    bout: tuple[int, ...]
    bout_number: int
    discards: int
    attack_cap: str
    fool: Seat | None
    winner: Seat | None
    finished: bool
    known_cards: tuple[tuple[int, ...], ...] = ()
    discarded: tuple[int, ...] = ()

    def cards_shown(self) -> frozenset[CardId]:
        """Own hand, the bout on the table, the trump card, the cards known in hands and the discards."""
        shown = frozenset(self.hand) | frozenset(self.bout) | {self.trump_card} | frozenset(self.discarded)
        return shown.union(*map(frozenset, self.known_cards))


def trump_of(observation: DurakObservation) -> int:
    """The trump suit index (0 ♠, 1 ♥, 2 ♣, 3 ♦) of an observation."""
    return SUIT_WORDS.index(observation.trump_suit)
