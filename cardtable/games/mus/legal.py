"""Which Mus actions are legal now: the action objects handed out, the betting limits, the one-action tests.

``MusGame.legal_actions`` and ``MusGame.why_illegal_now`` are built on these. The action objects
are immutable and built once (module tables below, registered as trusted: ``core.fast``), so a
legal list costs one list and nothing else.

The limits: an envite goes from ``betting.min_bet`` to the tantos that can still matter (capped
by ``betting.max_bet``; the órdago is always offered); a raise under ``betting.raise_rule =
"double"`` doubles the envite; "a falta de tanto" (FEM IV.7) the mus may be cut during the
discards; the postre holding 33 answers an órdago a juego only with "quiero y no pierdo"
(FEM VI.9); a seña must be true of the hand and allowed in the phase (FEM VIII.3–6).

The tantos that can still matter come from the engine's own ``MusGame.tantos_that_matter``
(``matter``, or the ``game`` to ask): a method others call, and the place ``tests/vector``
plants a legality defect.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations, pairwise
from typing import Protocol

from cardtable.core.fast import TrustedActions
from cardtable.games.mus import actions as A
from cardtable.games.mus.fsm import BetStatus, Phase
from cardtable.games.mus.rules import evaluate
from cardtable.games.mus.signals import signal_fits, signal_phase_ok
from cardtable.games.mus.state import MusState

# Action objects are immutable: built once, handed out by every ``legal_actions``.
_MUS, _CUT, _PASS, _ORDAGO = A.Mus(), A.CutMus(), A.Pass(), A.Ordago()
_ACCEPT, _ACCEPT_NO_LOSE, _REJECT = A.Accept(), A.AcceptNoLose(), A.Reject()
MUS_OR_CUT: tuple[A.MusAction, ...] = (_MUS, _CUT)
CUT_ONLY: tuple[A.MusAction, ...] = (_CUT,)
_OPEN: dict[tuple[int, int], tuple[A.MusAction, ...]] = {}
_RAISES: dict[tuple[int, int], tuple[A.MusAction, ...]] = {}
# This engine's own cached actions: checked at the edge once, here, not on every apply.
_TRUSTED = TrustedActions()
TRUSTED_IDS = _TRUSTED.ids
_TRUSTED.add(_MUS, _CUT, _PASS, _ORDAGO, _ACCEPT, _ACCEPT_NO_LOSE, _REJECT)


def open_actions(low: int, cap: int) -> tuple[A.MusAction, ...]:
    """Pass, every bet from ``low`` to ``cap``, órdago: built once per (low, cap)."""
    out = _OPEN.get((low, cap))
    if out is None:
        out = _OPEN[low, cap] = (_PASS, *(A.Bet(n) for n in range(low, cap + 1)), _ORDAGO)
        _TRUSTED.add(*out)  # kept in _OPEN for good
    return out


def raise_actions(low: int, cap: int) -> tuple[A.MusAction, ...]:
    """Every raise from ``low`` to ``cap`` (``low == cap`` for the doubling rule): built once."""
    out = _RAISES.get((low, cap))
    if out is None:
        out = _RAISES[low, cap] = tuple(A.Raise(n) for n in range(low, cap + 1))
        _TRUSTED.add(*out)  # kept in _RAISES for good
    return out


class Engine(Protocol):
    """What :func:`is_legal` asks of the engine (``MusGame``)."""

    def tantos_that_matter(self, state: MusState) -> int:
        """The most tantos either pair still needs: bets beyond that change nothing."""
        ...


# The limits.


def bet_cap(state: MusState, matter: int) -> int:
    """The largest envite or raise offered now, given the tantos that can still matter (``matter``)."""
    bt = state.options.betting
    return max(bt.min_bet, min(bt.max_bet, matter))


def must_accept_no_lose(state: MusState, seat: int) -> bool:
    """FEM VI.9: the postre holding 33 answering an órdago a juego may only say "quiero y no pierdo"."""
    b = state.betting
    return (b is not None and b.ordago and b.lance == "juego" and seat == state.dealer
            and evaluate(state.hands[seat], state.options.modalidad).total == 33)


def is_a_falta(state: MusState) -> bool:
    """"A falta de tanto" (FEM IV.7): some pair is within the margin of the target."""
    return any(state.team_in)


# The legal lists.


def discard_actions(state: MusState, seat: int) -> list[A.MusAction]:
    """Every discard of ``mus.min_discard`` to 4 cards, then the cut a falta de tanto (FEM IV.7)."""
    hand = state.hands[seat]
    out: list[A.MusAction] = [
        A.Discard(cards) for n in range(state.options.mus.min_discard, 5) for cards in combinations(hand, n)
    ]
    if is_a_falta(state) and state.options.mus.cut_anytime_a_falta:
        out.append(_CUT)
    return out


def betting_actions(state: MusState, seat: int, matter: int) -> list[A.MusAction]:
    """Pass, bets and órdago when the envite is open; the answers, raises and órdago when it is pending."""
    b = state.betting
    assert b is not None
    bt = state.options.betting
    low = bt.min_bet
    cap = max(low, min(bt.max_bet, matter))  # bet_cap, inlined: this is the hot path
    if b.status is BetStatus.OPEN:
        return list(open_actions(low, cap))
    out: list[A.MusAction] = [_ACCEPT_NO_LOSE if must_accept_no_lose(state, seat) else _ACCEPT, _REJECT]
    if not b.ordago:
        if b.total < matter:
            if bt.raise_rule == "double":
                out.extend(raise_actions(b.total, b.total))
            else:
                out.extend(raise_actions(low, cap))
        out.append(_ORDAGO)
    return out


def signal_actions(state: MusState, seat: int) -> list[A.MusAction]:
    """The señas not made yet this hand, allowed now and true of the hand (FEM VIII.3–6)."""
    value = evaluate(state.hands[seat], state.options.modalidad)
    return [A.Signal(name) for name in A.SIGNALS
            if (seat, name) not in state.signals_used and signal_phase_ok(name, state.phase)
            and signal_fits(name, value)]


def templates(actions: list[A.MusAction], min_discard: int) -> list[A.ActionTemplate]:
    """Legal actions as parametrised templates: runs of bets or raises, and the discards, become ranges."""
    out: list[A.ActionTemplate] = []
    for action in actions:
        if isinstance(action, (A.Bet, A.Raise)):
            kind = action.TYPE
            if not out or out[-1].kind != kind:
                out.append(A.ActionTemplate(kind, action.amount, action.amount))
            else:
                out[-1] = replace(out[-1], max=action.amount)
        elif isinstance(action, A.Discard):
            if not out or out[-1].kind != "discard":
                out.append(A.ActionTemplate("discard", min_discard, 4))
        elif isinstance(action, A.Signal):
            out.append(A.ActionTemplate(f"signal:{action.signal}"))
        else:
            out.append(A.ActionTemplate(action.TYPE))
    return out


# One action: the test the legal lists make, without building them.


def is_legal(game: Engine, state: MusState, seat: int, action: A.MusAction) -> bool:
    """The test ``legal_actions`` makes, for one action of the seat to act."""
    if isinstance(action, A.Signal):
        return (state.options.signals.enabled and (seat, action.signal) not in state.signals_used
                and signal_phase_ok(action.signal, state.phase)
                and signal_fits(action.signal, evaluate(state.hands[seat], state.options.modalidad)))
    phase = state.phase
    if phase is Phase.MUS_DECISION:
        return isinstance(action, A.CutMus) or (
            isinstance(action, A.Mus) and state.mus_rounds < state.options.mus.max_rounds)
    if phase is Phase.DISCARD:
        if isinstance(action, A.Discard):
            cards, hand = action.cards, state.hands[seat]
            return (state.options.mus.min_discard <= len(cards) <= 4
                    and all(a < b for a, b in pairwise(cards)) and all(c in hand for c in cards))
        return isinstance(action, A.CutMus) and is_a_falta(state) and state.options.mus.cut_anytime_a_falta
    return _is_legal_bet(state, seat, action, game.tantos_that_matter(state))


def _is_legal_bet(state: MusState, seat: int, action: A.MusAction, matter: int) -> bool:
    """The betting part of ``is_legal``: the envite is open, or pending an answer."""
    b = state.betting
    assert b is not None
    low, cap = state.options.betting.min_bet, bet_cap(state, matter)
    if b.status is BetStatus.OPEN:
        return isinstance(action, (A.Pass, A.Ordago)) or (isinstance(action, A.Bet) and low <= action.amount <= cap)
    if isinstance(action, A.Reject):
        return True
    if isinstance(action, (A.Accept, A.AcceptNoLose)):
        return isinstance(action, A.AcceptNoLose) == must_accept_no_lose(state, seat)
    if b.ordago:
        return False
    if isinstance(action, A.Ordago):
        return True
    if isinstance(action, A.Raise) and b.total < matter:
        if state.options.betting.raise_rule == "double":
            return action.amount == b.total
        return low <= action.amount <= cap
    return False
