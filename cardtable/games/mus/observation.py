"""What one seat (or a spectator) may know about a Mus game: enough to draw the table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cardtable.core import Observation


@dataclass(frozen=True)
class BettingView:
    """The betting of the lance in play."""

    TYPE: ClassVar[str] = "betting"
    lance: str
    status: str
    speakers: tuple[int, ...]
    bet_in_force: int
    proposed: int
    ordago: bool
    bettor: int | None
    to_answer: tuple[int, ...]


@dataclass(frozen=True)
class EnviteView:
    """One envite of this hand: a pass, bet, raise, órdago or answer."""

    TYPE: ClassVar[str] = "envite"
    lance: str
    seat: int
    kind: str
    amount: int


@dataclass(frozen=True)
class LanceResultView:
    """How a lance of this hand closed: status, accepted total, the pair that won a refusal."""

    TYPE: ClassVar[str] = "lance_result"
    lance: str
    status: str
    total: int
    pair: int | None


@dataclass(frozen=True)
class SignalView:
    """A seña this seat saw."""

    TYPE: ClassVar[str] = "signal_view"
    sender: int
    signal: str
    intercepted: bool


@dataclass(frozen=True)
class MusObservation(Observation):
    """A seat's view of the table; ``hand`` is empty for a spectator."""

    TYPE: ClassVar[str] = "mus"
    seat: int | None
    phase: str
    hand: tuple[int, ...]
    hand_words: tuple[str, ...]
    dealer: int
    mano: int
    postre: int
    to_act: int | None
    lance: str | None
    betting: BettingView | None
    pares: tuple[bool | None, ...]
    juego: tuple[bool | None, ...]
    envites: tuple[EnviteView, ...]
    results: tuple[LanceResultView, ...]
    tanteo: tuple[int, int]
    amarracos: tuple[int, int]
    piedras: tuple[int, int]
    games: tuple[int, int]
    target: int
    games_to_win: int
    team_in: tuple[bool, bool]
    shown_hands: tuple[tuple[int, ...], ...]
    signals: tuple[SignalView, ...]
    discarding: tuple[int, ...]
    discard_counts: tuple[int, ...]
    mus_rounds: int
    deck_size: int
    hand_number: int
    game_number: int
    modalidad: str
    winner: int | None

    def cards_shown(self) -> frozenset[int]:
        """Own hand, own pending discard and the shown hands."""
        out = set(self.hand) | set(self.discarding)
        for hand in self.shown_hands:
            out.update(hand)
        return frozenset(out)
