"""The runner: status machine, fallbacks on timeouts, crashes and illegal actions, records that replay."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import pytest

from cardtable.bots import RandomBot
from cardtable.core import dumps, replay
from cardtable.runner import GameRunner, RunnerError, RunnerStatus
from tests.core.toy import Add, ToyGame

GAME = ToyGame()


class Always:
    name = "always"

    def __init__(self, amount: int) -> None:
        self.amount = amount

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        return Add(self.amount)


class Crashing:
    name = "crashing"

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        raise RuntimeError("boom")


class Silent:
    name = "silent"

    def __init__(self) -> None:
        self.release = threading.Event()

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        self.release.wait(5)
        return legal_actions[0]


def test_status_machine_waiting_playing_paused_finished() -> None:
    runner = GameRunner(GAME, GAME.options(), 3, [Always(1), Always(2)])
    assert runner.status is RunnerStatus.WAITING
    runner.start()
    assert runner.status is RunnerStatus.PLAYING
    assert runner.step()
    runner.pause()
    assert runner.status is RunnerStatus.PAUSED
    assert not runner.step(), "a paused runner must not play"
    assert len(runner.record.actions) == 1
    with pytest.raises(RunnerError):
        runner.pause()
    runner.resume()
    outcome = runner.run()
    assert runner.status is RunnerStatus.FINISHED
    # Seat 0 adds 1, seat 1 adds 2: totals 1, 3, 4, 6, 7, 9, then seat 0 reaches 10.
    assert outcome is not None and outcome.winners == (0,)
    assert len(runner.record.actions) == 7
    with pytest.raises(RunnerError):
        runner.resume()


def test_record_replays_to_the_same_events() -> None:
    runner = GameRunner(GAME, GAME.options(players=3), 11, [RandomBot(1), RandomBot(2), RandomBot(3)])
    runner.run()
    _, events = replay(GAME, runner.record)
    assert [dumps(e) for e in events] == [dumps(e) for e in runner.events]


def test_crashing_agent_is_replaced_by_the_fallback_and_recorded() -> None:
    runner = GameRunner(GAME, GAME.options(), 5, [Crashing(), Always(1)])
    runner.run()
    assert runner.status is RunnerStatus.FINISHED
    assert runner.substitutions and all(s.seat == 0 and s.reason == "failed" for s in runner.substitutions)
    assert any("boom" in note for note in runner.record.notes)


def test_illegal_choice_is_replaced_by_the_fallback() -> None:
    runner = GameRunner(GAME, GAME.options(), 5, [Always(3), Always(1)])
    runner.run()
    assert runner.status is RunnerStatus.FINISHED
    assert {s.reason for s in runner.substitutions} == {"chose an illegal action"}
    assert all(action != Add(3) for _, action in runner.record.actions)


def test_silent_agent_times_out_and_the_fallback_moves() -> None:
    silent = Silent()
    runner = GameRunner(GAME, GAME.options(), 5, [silent, Always(2)], timeout=0.05)
    try:
        runner.run()
    finally:
        silent.release.set()
    assert runner.status is RunnerStatus.FINISHED
    assert runner.substitutions and runner.substitutions[0].reason == "timed out"


def test_engine_failure_stops_in_error_with_the_record_kept() -> None:
    class BrokenGame(ToyGame):
        def apply_unchecked(self, state: Any, seat: int, action: Any) -> Any:
            if state.total >= 4:
                raise ZeroDivisionError("engine bug")
            return super().apply_unchecked(state, seat, action)

    runner = GameRunner(BrokenGame(), GAME.options(), 5, [Always(2), Always(2)])
    assert runner.run() is None
    assert runner.status is RunnerStatus.ERROR
    assert runner.error is not None and "engine bug" in runner.error
    assert len(runner.record.actions) == 2


def test_wrong_number_of_agents_is_refused() -> None:
    with pytest.raises(ValueError, match="agents"):
        GameRunner(GAME, GAME.options(players=3), 1, [Always(1)])

