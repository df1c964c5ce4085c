"""The state machines of a Mus hand: the phases of a jugada and the betting of each lance.

Both are explicit tables. Every phase change goes through :func:`transition`,
every betting change through :func:`bet_transition`; anything outside the
tables raises :class:`IllegalTransition` (a bug in the engine, never a player's
mistake: players get :class:`cardtable.core.IllegalAction`).
"""

from __future__ import annotations

import enum


class IllegalTransition(RuntimeError):
    """A phase (or betting) change that the table does not allow."""

    def __init__(self, source: enum.Enum, target: enum.Enum) -> None:
        super().__init__(f"illegal transition {source.name} -> {target.name}")
        self.source = source
        self.target = target


class Phase(enum.Enum):
    """The phases of a jugada (seed §2.2)."""

    # Members are singletons: hash by identity (a C slot) instead of Enum's Python-level
    # hash of the name, which every ``to_act`` and every transition paid for.
    __hash__ = object.__hash__

    DEALING = "dealing"
    MUS_DECISION = "mus_decision"
    DISCARD = "discard"
    GRANDE = "grande"
    CHICA = "chica"
    PARES_DECLARATION = "pares_declaration"
    PARES = "pares"
    JUEGO_DECLARATION = "juego_declaration"
    JUEGO = "juego"
    PUNTO = "punto"
    SHOWDOWN = "showdown"
    ORDAGO_SHOWDOWN = "ordago_showdown"
    SCORING = "scoring"
    CHECK_GAME_END = "check_game_end"
    GAME_OVER = "game_over"


P = Phase
#: Betting lances may end the game at once through a negada (P8), hence ``CHECK_GAME_END``.
ALLOWED: dict[Phase, frozenset[Phase]] = {
    P.DEALING: frozenset({P.MUS_DECISION}),
    P.MUS_DECISION: frozenset({P.DISCARD, P.GRANDE}),
    # DISCARD -> GRANDE: "a falta de tanto" the mus may be cut during the discards (FEM IV.7).
    P.DISCARD: frozenset({P.MUS_DECISION, P.GRANDE}),
    P.GRANDE: frozenset({P.CHICA, P.ORDAGO_SHOWDOWN, P.CHECK_GAME_END}),
    P.CHICA: frozenset({P.PARES_DECLARATION, P.ORDAGO_SHOWDOWN, P.CHECK_GAME_END}),
    P.PARES_DECLARATION: frozenset({P.PARES, P.JUEGO_DECLARATION}),
    P.PARES: frozenset({P.JUEGO_DECLARATION, P.ORDAGO_SHOWDOWN, P.CHECK_GAME_END}),
    P.JUEGO_DECLARATION: frozenset({P.JUEGO, P.PUNTO, P.SHOWDOWN}),
    P.JUEGO: frozenset({P.SHOWDOWN, P.ORDAGO_SHOWDOWN, P.CHECK_GAME_END}),
    P.PUNTO: frozenset({P.SHOWDOWN, P.ORDAGO_SHOWDOWN, P.CHECK_GAME_END}),
    P.SHOWDOWN: frozenset({P.SCORING}),
    P.ORDAGO_SHOWDOWN: frozenset({P.SCORING}),
    P.SCORING: frozenset({P.CHECK_GAME_END}),
    P.CHECK_GAME_END: frozenset({P.DEALING, P.GAME_OVER}),
    P.GAME_OVER: frozenset(),
}

#: The phases in which a player acts; the others are passed through by the engine.
ACTING_PHASES = frozenset({P.MUS_DECISION, P.DISCARD, P.GRANDE, P.CHICA, P.PARES, P.JUEGO, P.PUNTO})
LANCE_PHASES = {"grande": P.GRANDE, "chica": P.CHICA, "pares": P.PARES, "juego": P.JUEGO, "punto": P.PUNTO}


def transition(source: Phase, target: Phase) -> Phase:
    """``target`` if the table allows ``source -> target``; :class:`IllegalTransition` otherwise."""
    if target not in ALLOWED[source]:
        raise IllegalTransition(source, target)
    return target


class BetStatus(enum.Enum):
    """The betting sub-machine of one lance (seed §2.2)."""

    __hash__ = object.__hash__  # identity, as for Phase

    OPEN = "open"
    PENDING = "pending"
    CLOSED_PASSED = "closed_passed"
    CLOSED_ACCEPTED = "closed_accepted"
    CLOSED_REJECTED = "closed_rejected"
    ORDAGO_SHOWDOWN = "ordago_showdown"


B = BetStatus
#: OPEN -> OPEN is a pass with speakers left; PENDING -> PENDING a first "no quiero" or a raise.
BET_ALLOWED: dict[BetStatus, frozenset[BetStatus]] = {
    B.OPEN: frozenset({B.OPEN, B.PENDING, B.CLOSED_PASSED}),
    B.PENDING: frozenset({B.PENDING, B.CLOSED_ACCEPTED, B.CLOSED_REJECTED, B.ORDAGO_SHOWDOWN}),
    B.CLOSED_PASSED: frozenset(),
    B.CLOSED_ACCEPTED: frozenset(),
    B.CLOSED_REJECTED: frozenset(),
    B.ORDAGO_SHOWDOWN: frozenset(),
}


def bet_transition(source: BetStatus, target: BetStatus) -> BetStatus:
    """``target`` if the betting table allows it; :class:`IllegalTransition` otherwise."""
    if target not in BET_ALLOWED[source]:
        raise IllegalTransition(source, target)
    return target
