"""What one seat (or a spectator) may know about a Mus game: enough to draw the table.

The views below, and :func:`observation_of`, which builds them from the state (``MusGame.observe``):
the seat's own hand, the public talk (envites, the sí/no of pares and juego, each lance's
result), the tanteo in amarracos and piedras, the señas the seat saw, the hands once shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cardtable.cards import SPANISH_40
from cardtable.core import Observation
from cardtable.games.mus.fsm import LANCE_PHASES, BetStatus
from cardtable.games.mus.state import MusState


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


def observation_of(state: MusState, seat: int | None, to_act: int | None) -> MusObservation:
    """What ``seat`` (None: a spectator) may know: its hand, the public talk, the tanteo, its señas."""
    s = state
    hand = s.hands[seat] if seat is not None else ()
    b = s.betting
    betting = None if b is None else BettingView(
        b.lance, b.status.value, b.speakers, b.before if b.status is BetStatus.PENDING else b.total,
        b.total, b.ordago, b.bettor, b.responders)
    pending = s.pending[seat] if seat is not None else None
    return MusObservation(
        seat=seat, phase=s.phase.value, hand=hand,
        hand_words=tuple(SPANISH_40.card(c).words() for c in hand),
        dealer=s.dealer, mano=s.mano, postre=s.postre, to_act=to_act,
        lance=b.lance if b is not None and s.phase in LANCE_PHASES.values() else None,
        betting=betting, pares=s.declared_pares, juego=s.declared_juego,
        envites=tuple(EnviteView(e.lance, e.seat, e.kind, e.amount) for e in s.envites),
        results=tuple(LanceResultView(r.lance, r.status, r.total, r.pair) for r in s.results),
        tanteo=s.tanteo, amarracos=(s.tanteo[0] // 5, s.tanteo[1] // 5),
        piedras=(s.tanteo[0] % 5, s.tanteo[1] % 5), games=s.games,
        target=s.options.scoring.target, games_to_win=s.options.match.games_to_win, team_in=s.team_in,
        shown_hands=s.hands if s.shown else (),
        signals=tuple(SignalView(n.sender, n.signal, n.intercepted) for n in s.signals_seen[seat])
        if seat is not None else (),
        discarding=pending or (), discard_counts=s.discard_counts, mus_rounds=s.mus_rounds,
        deck_size=len(s.deck), hand_number=s.hand_no, game_number=s.game_no,
        modalidad=s.options.modalidad, winner=s.winner,
    )
