"""The Mus game state: a plain ``__slots__`` object whose fields are all immutable values.

``apply`` copies the state (a shallow copy is enough: every field is a tuple,
an int, a named tuple or an enum) and replaces fields on the copy. The small
records inside it are named tuples, not dataclasses: one is made per decision,
and a tuple is built several times faster than a frozen dataclass.
"""

from __future__ import annotations

from typing import NamedTuple

from cardtable.core.rng import RngState
from cardtable.core.state import SlotState
from cardtable.games.mus.fsm import BetStatus, Phase
from cardtable.games.mus.options import MusGameOptions
from cardtable.games.mus.rules import Lance

Hand = tuple[int, ...]


def pair_of(seat: int) -> int:
    """Pair A (0) holds seats 0 and 2, pair B (1) seats 1 and 3."""
    return seat & 1


class Betting(NamedTuple):
    """The betting sub-machine of the lance in play."""

    lance: Lance
    status: BetStatus
    speakers: tuple[int, ...]
    position: int = 0  # which of the speakers speaks now
    bettor: int | None = None
    responders: tuple[int, ...] = ()
    total: int = 0
    before: int = 0
    ordago: bool = False


class LanceResult(NamedTuple):
    """How a lance's betting ended; ``pair`` is the pair that won a refused envite."""

    lance: Lance
    status: str
    total: int = 0
    pair: int | None = None
    deje: int = 0


class Envite(NamedTuple):
    """One spoken word in a lance: pass, bet, raise, ordago, accept, accept_no_lose, reject."""

    lance: Lance
    seat: int
    kind: str
    amount: int = 0


class SignalNote(NamedTuple):
    """A seña seen by a seat."""

    sender: int
    signal: str
    intercepted: bool


class MusState(SlotState):
    """Everything about a Mus game in progress. Only the engine reads it."""

    __slots__ = (
        "options", "phase", "rng", "dealer", "hand_no", "game_no", "tanteo", "games", "hands", "deck",
        "discards", "mus_rounds", "turn", "mus_count", "pending", "discard_counts", "betting", "results",
        "declared_pares", "declared_juego", "shown", "envites", "signals_used", "signals_seen", "team_in",
        "winner", "game_winner", "game_over_reason",
    )

    def __init__(self, options: MusGameOptions, rng: RngState, dealer: int) -> None:
        self.options = options
        self.phase = Phase.DEALING
        self.rng = rng
        self.dealer = dealer
        self.hand_no = 0
        self.game_no = 1
        self.tanteo: tuple[int, int] = (0, 0)
        self.games: tuple[int, int] = (0, 0)
        self.hands: tuple[Hand, ...] = ((), (), (), ())
        self.deck: tuple[int, ...] = ()
        self.discards: tuple[int, ...] = ()
        self.mus_rounds = 0
        self.turn: int | None = None
        self.mus_count = 0
        self.pending: tuple[Hand | None, ...] = (None, None, None, None)
        self.discard_counts: tuple[int, ...] = (0, 0, 0, 0)
        self.betting: Betting | None = None
        self.results: tuple[LanceResult, ...] = ()
        self.declared_pares: tuple[bool | None, ...] = (None, None, None, None)
        self.declared_juego: tuple[bool | None, ...] = (None, None, None, None)
        self.shown = False
        self.envites: tuple[Envite, ...] = ()
        self.signals_used: frozenset[tuple[int, str]] = frozenset()
        self.signals_seen: tuple[tuple[SignalNote, ...], ...] = ((), (), (), ())
        self.team_in: tuple[bool, bool] = (False, False)
        self.winner: int | None = None
        self.game_winner: int | None = None
        self.game_over_reason = ""

    @property
    def mano(self) -> int:
        """The player to the dealer's right speaks first (FEM VIII.8)."""
        return (self.dealer + 1) % 4

    @property
    def postre(self) -> int:
        """The last to speak: the dealer."""
        return self.dealer

    def order(self) -> tuple[int, ...]:
        """The four seats in speaking order from the mano (counter-clockwise = ascending seats)."""
        m = self.mano
        return (m, (m + 1) % 4, (m + 2) % 4, (m + 3) % 4)
