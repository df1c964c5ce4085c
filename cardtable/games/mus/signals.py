"""The official señas (FEM VIII.2) and their restrictions (VIII.3–6).

A seña is checked against the sender's real cards (VIII.4: no lying) and must
name the whole jugada (VIII.5: no partial signs): "pares" means a par exactly,
"juego" a juego other than 31, and so on. Signs about the cards are allowed only
once the mus is cut (VIII.3); "cortar el mus" only while the mus is being
decided; "medias" other than reyes or ases only after the grande (VIII.6).

A seña made is seen by the partner, and by each rival with probability
``signals.interception_p`` (:func:`on_signal`).
"""

from __future__ import annotations

from cardtable.core import Event
from cardtable.core.rng import chance
from cardtable.games.mus import events as E
from cardtable.games.mus.actions import Signal, SignalName
from cardtable.games.mus.fsm import Phase
from cardtable.games.mus.rules import AS, DUPLES, MEDIAS, PAR, REY, HandValue, pares_of
from cardtable.games.mus.state import MusState, SignalNote

LANCE_PHASES = frozenset({Phase.GRANDE, Phase.CHICA, Phase.PARES, Phase.JUEGO, Phase.PUNTO})


def _medias_rank(value: HandValue) -> int | None:
    kind, strength = pares_of(value.values)
    return (strength - MEDIAS * 1000) // 13 if kind == MEDIAS else None


def signal_fits(name: SignalName, value: HandValue) -> bool:
    """Whether the hand ``value`` truly is what the seña ``name`` says (FEM VIII.4–5)."""
    medias = _medias_rank(value)
    checks: dict[str, bool] = {
        "dos_reyes": value.count(REY) == 2,
        "dos_ases": value.count(AS) == 2,
        "pares": value.pares_kind == PAR,
        "medias_de_reyes": medias == REY,
        "medias_de_ases": medias == AS,
        "medias": medias not in (None, REY, AS),
        "duples": value.pares_kind == DUPLES,
        "juego": value.has_juego and value.total != 31,
        "treinta_y_una": value.total == 31,
        "treinta": value.total == 30,
        "veintinueve": value.total == 29,
        "ciego": not value.has_pares and not value.has_juego,
    }
    return checks.get(name, True)  # cortar_mus and envidar_mas state an intention, not cards


def signal_phase_ok(name: SignalName, phase: Phase) -> bool:
    """Whether the seña ``name`` may be made in ``phase`` (FEM VIII.3, VIII.6)."""
    if name == "cortar_mus":
        return phase is Phase.MUS_DECISION
    if phase not in LANCE_PHASES:
        return False
    if name == "medias":
        return phase is not Phase.GRANDE
    return True


def on_signal(s: MusState, seat: int, action: Signal, events: list[Event]) -> None:
    """The partner sees the seña; each rival too with probability ``interception_p`` (same RNG, same replay)."""
    s.signals_used = s.signals_used | {(seat, action.signal)}
    seen = list(s.signals_seen)
    watchers = [((seat + 2) % 4, False)]
    for rival in ((seat + 1) % 4, (seat + 3) % 4):
        intercepted, s.rng = chance(s.rng, s.options.signals.interception_p)
        if intercepted:
            watchers.append((rival, True))
    for watcher, intercepted in watchers:
        seen[watcher] = seen[watcher] + (SignalNote(seat, action.signal, intercepted),)
        events.append(E.SignalSeen(watcher, seat, action.signal, intercepted))
    s.signals_seen = tuple(seen)
