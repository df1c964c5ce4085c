"""The phase table and the betting table: every transition outside them raises; the engine uses all of them."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

import pytest

from cardtable.games.mus import GAME
from cardtable.games.mus.fsm import (
    ALLOWED,
    BET_ALLOWED,
    BetStatus,
    IllegalTransition,
    Phase,
    bet_transition,
    transition,
)
from tests.mus.helpers import opts, play, table

ENGINE = importlib.import_module("cardtable.games.mus.game")
H33 = ["Ro Rc Co 1o", "4o 5o 6e 1c", "Sb Cb 1e 2e", "Sc Se 7c 6c"]
PUNTO_HANDS = ["Ro 4o 5o 6o", "Rc 4c 5c 7c", "Re 4e 5e 1e", "Rb 4b 6b 7b"]


@pytest.mark.parametrize("source", list(Phase))
def test_fsm_every_phase_transition_outside_the_table_raises(source: Phase) -> None:
    """For every pair of phases: allowed iff listed in ALLOWED; otherwise IllegalTransition."""
    for target in Phase:
        if target in ALLOWED[source]:
            assert transition(source, target) is target
        else:
            with pytest.raises(IllegalTransition):
                transition(source, target)


def test_fsm_every_betting_transition_outside_the_table_raises() -> None:
    """The betting sub-machine: the same check for every pair of statuses."""
    for source in BetStatus:
        for target in BetStatus:
            if target in BET_ALLOWED[source]:
                assert bet_transition(source, target) is target
            else:
                with pytest.raises(IllegalTransition):
                    bet_transition(source, target)


def test_fsm_table_is_complete_and_connected() -> None:
    """Every phase has a row, is reachable from DEALING, and can reach GAME_OVER."""
    assert set(ALLOWED) == set(Phase)
    reach = {Phase.DEALING}
    frontier = [Phase.DEALING]
    while frontier:
        for nxt in ALLOWED[frontier.pop()] - reach:
            reach.add(nxt)
            frontier.append(nxt)
    assert reach == set(Phase)
    for phase in Phase:
        seen, todo = {phase}, [phase]
        while todo:
            for nxt in ALLOWED[todo.pop()] - seen:
                seen.add(nxt)
                todo.append(nxt)
        assert Phase.GAME_OVER in seen


def _recorder(real: Callable[[Any, Any], Any], log: set[tuple[Any, Any]]) -> Callable[[Any, Any], Any]:
    def record(source: Any, target: Any) -> Any:
        log.add((source, target))
        return real(source, target)
    return record


def test_fsm_engine_walks_every_transition_of_both_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Random games plus scripted hands use every edge of both tables, and no other."""
    phases: set[tuple[Any, Any]] = set()
    bets: set[tuple[Any, Any]] = set()
    monkeypatch.setattr(ENGINE, "transition", _recorder(transition, phases))
    monkeypatch.setattr(ENGINE, "bet_transition", _recorder(bet_transition, bets))
    for seed in range(40):
        rng = random.Random(seed)
        state, _ = GAME.new(opts(**{"scoring.target": 40 if seed % 2 else 10, "mus.max_rounds": 2}), seed)
        while (seat := GAME.to_act(state)) is not None:
            legal = GAME.legal_actions(state, seat)
            state, _ = GAME.apply(state, seat, legal[rng.randrange(len(legal))])
    play(table(tanteo=(39, 0)), "cut", *["pass"] * 4, "bet 2", "reject", "reject")  # negada ends it at chica
    play(table(PUNTO_HANDS, tanteo=(39, 0)), "cut", *["pass"] * 8, "bet 2", "reject", "reject")  # at punto
    play(table(PUNTO_HANDS), "cut", *["pass"] * 12)  # punto passed: on to the showdown
    play(table(tanteo=(36, 0)), "mus", "mus", "mus", "mus", "discard 4o", "cut")  # a falta de tanto
    play(table(), "cut", *["pass"] * 11)  # a whole hand, then the next deal
    to_juego = ("cut", *["pass"] * 11)
    play(table(H33), *to_juego, "ordago", "accept-no-lose")  # órdago a juego
    play(table(H33, tanteo=(39, 0)), *to_juego, "bet 2", "reject")  # negada at juego ends the game
    assert phases == {(s, t) for s, targets in ALLOWED.items() for t in targets}
    assert bets == {(s, t) for s, targets in BET_ALLOWED.items() for t in targets}
