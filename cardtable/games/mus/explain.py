"""Why a Mus action is illegal now, in words that cite the rule (the FEM article, or the option that forbids it).

``MusGame.why_illegal_now`` asks :func:`explain` only once its legality test has failed for the
seat to act (the turn and the end of the game are answered there). The reasons name the phase:
the mus (give mus or cut it, FEM IV.4), the discards (FEM III.11, the cut a falta de tanto of
FEM IV.7), the lances and their envites (FEM VI: pass, bet, raise, órdago, "quiero y no pierdo"),
and the señas (FEM VIII.3–5: allowed phases, no lying).
"""

from __future__ import annotations

from cardtable.cards import SPANISH_40
from cardtable.games.mus import actions as A
from cardtable.games.mus.fsm import BetStatus, Phase
from cardtable.games.mus.legal import bet_cap, must_accept_no_lose
from cardtable.games.mus.signals import signal_phase_ok
from cardtable.games.mus.state import MusState


def explain(state: MusState, seat: int, action: A.MusAction, matter: int) -> str:
    """Why ``action`` by ``seat``, the seat to act, is illegal (it is known to be).

    ``matter`` is the tantos that can still matter (``MusGame.tantos_that_matter``): the envites
    named are the ones the legality test offered.
    """
    if isinstance(action, A.Signal):
        return _explain_signal(state, seat, action)
    if state.phase is Phase.MUS_DECISION:
        if isinstance(action, A.Mus):
            return f"the mus must be cut after {state.options.mus.max_rounds} rounds"
        return "first give mus or cut it (FEM IV.4)"
    if state.phase is Phase.DISCARD:
        return _explain_discard(state, seat, action)
    return _explain_betting(state, seat, action, matter)


def _explain_signal(state: MusState, seat: int, action: A.Signal) -> str:
    if not state.options.signals.enabled:
        return "señas are disabled (signals.enabled = false)"
    if (seat, action.signal) in state.signals_used:
        return "each seña once per hand"
    if not signal_phase_ok(action.signal, state.phase):
        return f"the seña {action.signal} is not allowed in {state.phase.value} (FEM VIII.3, VIII.6)"
    return f"your cards are not {action.signal.replace('_', ' ')}: no lying with señas (FEM VIII.4-5)"


def _explain_discard(state: MusState, seat: int, action: A.MusAction) -> str:
    if isinstance(action, A.CutMus):
        return "the mus may be cut during the discards only 'a falta de tanto' (FEM IV.7)"
    if not isinstance(action, A.Discard):
        return "everybody gave mus: discard 1 to 4 cards (FEM III.11)"
    missing = [c for c in action.cards if c not in state.hands[seat]]
    if missing:
        return f"you do not hold {SPANISH_40.format(missing)}"
    return f"discard {state.options.mus.min_discard} to 4 distinct cards, in ascending id order"


def _explain_betting(state: MusState, seat: int, action: A.MusAction, matter: int) -> str:
    b = state.betting
    assert b is not None
    low = state.options.betting.min_bet
    cap = bet_cap(state, matter)
    if isinstance(action, (A.Mus, A.CutMus, A.Discard)):
        return "the mus is over: the lances are being played"
    if b.status is BetStatus.OPEN:
        if isinstance(action, (A.Accept, A.AcceptNoLose, A.Reject, A.Raise)):
            return "there is no envite to answer or raise: pass, bet or órdago"
        return f"envites go from {low} to {cap} now (or órdago)"
    if isinstance(action, A.Accept) and must_accept_no_lose(state, seat):
        return "the postre holding 33 may only accept an órdago a juego with 'quiero y no pierdo' (FEM VI.9)"
    if isinstance(action, A.AcceptNoLose):
        return "'quiero y no pierdo' is only for the postre holding 33 against an órdago a juego (FEM VI.10)"
    if isinstance(action, (A.Pass, A.Bet)):
        return "an envite is pending: accept, reject, raise or órdago (FEM VI.2)"
    if b.ordago:
        return "an órdago is pending: accept or reject it (FEM IV.6)"
    return f"raises go from {low} to {cap} now ({b.total} in play)"
