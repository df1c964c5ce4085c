"""The señas (FEM VIII.2–6): off by default, checked against the real cards, private, sometimes intercepted."""

from __future__ import annotations

import pytest

from cardtable.core import IllegalAction, dumps
from cardtable.games.mus import GAME
from cardtable.games.mus.actions import Signal
from tests.mus.helpers import of_type, opts, play, table


def signals_on(p: float = 0.0) -> object:
    return opts(**{"signals.enabled": True, "signals.interception_p": p})


def test_fem_viii_signals_are_disabled_by_default() -> None:
    """With signals.enabled = false no seña is offered and one is refused with the reason."""
    state, _ = play(table(), "cut")
    assert not any(isinstance(a, Signal) for a in GAME.legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="disabled"):
        GAME.apply(state, 0, Signal("dos_reyes"))


def test_fem_viii_4_a_sena_must_be_true_to_the_senders_cards() -> None:
    """Seat 0 holds two reyes and a par: those señas are offered; "dos ases" would be a lie."""
    state, _ = play(table(options=signals_on()), "cut")
    offered = {a.signal for a in GAME.legal_actions(state, 0) if isinstance(a, Signal)}
    assert {"dos_reyes", "pares", "ciego", "envidar_mas"} - offered == {"ciego"}  # it has pares: not ciego
    assert "no lying" in (GAME.validate(state, 0, Signal("dos_ases")) or "")


def test_fem_viii_3_no_senas_of_the_cards_before_the_mus_is_cut() -> None:
    """During the mus only "cortar el mus" may be signalled."""
    state = table(options=signals_on())
    offered = [a.signal for a in GAME.legal_actions(state, 0) if isinstance(a, Signal)]
    assert offered == ["cortar_mus"]
    assert "VIII.3" in (GAME.validate(state, 0, Signal("dos_reyes")) or "")


def test_fem_viii_6_medias_other_than_reyes_only_after_the_grande() -> None:
    """A hand with medias of sietes may signal them in chica, not in grande."""
    hands = ["7o 7c 7e 1o", "Co Cc 6o 5o", "1c 4c 5c 6c", "Se Sb 7b 6e"]
    state, _ = play(table(hands, options=signals_on()), "cut")
    assert Signal("medias") not in GAME.legal_actions(state, 0)
    state, _ = play(state, "pass", "pass", "pass", "pass")
    assert Signal("medias") in GAME.legal_actions(state, 0)


def test_fem_viii_2_a_sena_is_private_to_the_partner_and_once_per_hand() -> None:
    """interception_p = 0: only the partner sees it; the turn does not move; it cannot be repeated."""
    state, _ = play(table(options=signals_on(0.0)), "cut")
    state, events = play(state, "signal dos_reyes")
    assert [(e.seat, e.sender, e.intercepted) for e in events] == [(2, 0, False)]
    assert events[0].audience() == frozenset({2})
    assert GAME.to_act(state) == 0
    assert [(s.sender, s.signal) for s in GAME.observe(state, 2).signals] == [(0, "dos_reyes")]
    assert GAME.observe(state, 1).signals == () and GAME.observe(state, None).signals == ()
    assert Signal("dos_reyes") not in GAME.legal_actions(state, 0)
    assert "once" in (GAME.validate(state, 0, Signal("dos_reyes")) or "")


def test_fem_viii_2_rivals_intercept_with_probability_interception_p() -> None:
    """interception_p = 1: both rivals see it too, marked as intercepted."""
    state, _ = play(table(options=signals_on(1.0)), "cut")
    _, events = play(state, "signal dos_reyes")
    assert sorted((e.seat, e.intercepted) for e in of_type(events, "signal_seen")) == [
        (1, True), (2, False), (3, True)]


def test_fem_viii_2_interception_draws_come_from_the_state_rng_so_replays_match() -> None:
    """Same game and seed: the same señas are intercepted; the draws change the state's RNG."""
    runs = []
    for _ in range(2):
        state, events = GAME.new(opts(**{"signals.enabled": True, "signals.interception_p": 0.5}), 99)
        log = list(events)
        while GAME.to_act(state) is not None and len(log) < 400:
            seat = GAME.to_act(state)
            assert seat is not None
            legal = GAME.legal_actions(state, seat)
            signals = [a for a in legal if isinstance(a, Signal)]
            state, more = GAME.apply(state, seat, signals[0] if signals else legal[-1])
            log.extend(more)
        runs.append([dumps(e) for e in log])
    assert runs[0] == runs[1]
    assert any('"intercepted":true' in e for e in runs[0]) and any('"intercepted":false' in e for e in runs[0])
