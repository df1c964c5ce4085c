"""The runner: status machine, fallbacks on timeouts, crashes and illegal actions, forfeits, records that replay."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Sequence
from typing import Any

import pytest

from cardtable.bots import RandomBot
from cardtable.core import dumps, replay
from cardtable.runner import FAILURE_KINDS, AgentFailure, GameRunner, RunnerError, RunnerStatus
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


class Spinning:
    name = "spinning"

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        while True:
            pass


class Sleeping:
    """Blocked in C code (a lock wait), out of reach of an asynchronous exception, until ``release``."""

    name = "sleeping"

    def __init__(self) -> None:
        self.release = threading.Event()

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        self.release.wait(60)
        return legal_actions[0]


class Dying:
    name = "dying"

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        os._exit(3)


class Wrong:
    name = "wrong"

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        return "add 1"


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
    assert runner.substitutions and all(s.seat == 0 and s.kind == "exception" for s in runner.substitutions)
    assert any("boom" in note for note in runner.record.notes)
    assert runner.failures_by_seat() == {0: {"exception": len(runner.substitutions)}, 1: {}}


def test_illegal_choice_is_replaced_by_the_fallback() -> None:
    runner = GameRunner(GAME, GAME.options(), 5, [Always(3), Always(1)])
    runner.run()
    assert runner.status is RunnerStatus.FINISHED
    assert {s.kind for s in runner.substitutions} == {"illegal"}
    assert all("add 3" in s.detail for s in runner.substitutions)
    assert all(action != Add(3) for _, action in runner.record.actions)


def test_an_answer_that_is_no_action_of_the_game_is_malformed() -> None:
    runner = GameRunner(GAME, GAME.options(), 5, [Wrong(), Always(1)])
    runner.run()
    assert runner.status is RunnerStatus.FINISHED
    assert set(runner.failures_by_seat()[0]) == {"malformed"}


def test_silent_agent_times_out_and_the_fallback_moves() -> None:
    silent = Silent()
    runner = GameRunner(GAME, GAME.options(), 5, [silent, Always(2)], timeout=0.05)
    try:
        runner.run()
    finally:
        silent.release.set()
    assert runner.status is RunnerStatus.FINISHED
    assert runner.substitutions and runner.substitutions[0].kind == "timeout"


@pytest.mark.parametrize("isolation", ["process", "thread"])
def test_a_spinning_agent_is_stopped_and_leaves_no_thread(isolation: str) -> None:
    before = threading.active_count()
    began = time.perf_counter()
    with GameRunner(GAME, GAME.options(), 5, [Spinning(), Always(2)], timeout=0.05,
                    isolation=isolation) as runner:  # type: ignore[arg-type]
        runner.run()
    assert runner.status is RunnerStatus.FINISHED
    kinds = runner.failures_by_seat()[0]
    assert kinds == {"timeout": sum(1 for seat, _ in runner.record.actions if seat == 0)}, kinds
    assert time.perf_counter() - began < 20  # not waiting on the spinner: its decisions end at their limit
    assert threading.active_count() == before


def test_an_unstoppable_thread_forfeits_its_agent_and_it_is_not_asked_again() -> None:
    sleeping = Sleeping()
    with GameRunner(GAME, GAME.options(), 5, [sleeping, Always(2)], timeout=0.05, isolation="thread") as runner:
        runner.run()
    sleeping.release.set()  # let the abandoned daemon thread end before other tests count threads
    assert runner.forfeited == {0}
    assert runner.failures_by_seat()[0]["timeout"] == 1
    assert runner.failures_by_seat()[0]["forfeited"] >= 1
    deadline = time.monotonic() + 60
    while any(t.name == "agent" for t in threading.enumerate()) and time.monotonic() < deadline:
        time.sleep(0.01)


def test_a_worker_that_dies_is_a_crash_and_forfeits_the_seat() -> None:
    with GameRunner(GAME, GAME.options(), 5, [Dying(), Always(2)], timeout=1.0) as runner:
        outcome = runner.run()
    assert runner.forfeited == {0}
    assert runner.failures_by_seat()[0]["crashed"] == 1
    assert outcome is not None and 0 not in outcome.winners
    assert "forfeited" in outcome.reason


def test_more_failures_than_allowed_forfeit_the_seat_and_count_as_a_loss() -> None:
    runner = GameRunner(GAME, GAME.options(), 5, [Crashing(), Always(1)], max_failures=1)
    outcome = runner.run()
    assert runner.forfeited == {0}
    kinds = runner.failures_by_seat()[0]
    assert kinds["exception"] == 2 and kinds["forfeited"] >= 1
    assert outcome is not None and 0 not in outcome.winners
    assert any("seat 0 forfeited" in note for note in runner.record.notes)
    assert set(kinds) <= set(FAILURE_KINDS)


def test_a_seat_whose_game_time_is_spent_is_forfeited() -> None:
    class Slow:
        name = "slow"

        def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
            time.sleep(0.03)
            return legal_actions[0]

    with GameRunner(GAME, GAME.options(), 5, [Slow(), Always(1)], timeout=1.0, game_timeout=0.05) as runner:
        runner.run()
    assert runner.status is RunnerStatus.FINISHED
    assert 0 in runner.forfeited
    assert runner.failures_by_seat()[0]["timeout"] == 1


def test_agents_are_greeted_told_the_end_and_closed_once() -> None:
    class Polite(Always):
        def __init__(self) -> None:
            super().__init__(1)
            self.calls: list[str] = []

        def start(self, game: Any, options: Any, seat: int) -> None:
            self.calls.append(f"start {game.info.name} {seat}")

        def end(self, outcome: Any) -> None:
            self.calls.append(f"end {outcome.winners}")

        def close(self) -> None:
            self.calls.append("close")

    polite = Polite()
    runner = GameRunner(GAME, GAME.options(), 5, [polite, Always(2)])
    runner.run()
    runner.close()
    with runner:
        pass
    assert polite.calls[0] == "start toy 0" and polite.calls[1].startswith("end ") and polite.calls[2:] == ["close"]


def test_an_agent_that_cannot_start_is_forfeited_before_the_first_action() -> None:
    class Broken(Always):
        def start(self, game: Any, options: Any, seat: int) -> None:
            raise AgentFailure("protocol", "speaks protocol 2")

    runner = GameRunner(GAME, GAME.options(), 5, [Broken(1), Always(2)])
    runner.run()
    assert runner.forfeited == {0}
    assert runner.failures_by_seat()[0]["protocol"] == 1
    assert runner.failures_by_seat()[0]["forfeited"] == sum(1 for seat, _ in runner.record.actions if seat == 0)


def test_selfplay_counts_each_bots_failures_by_kind() -> None:
    from cardtable.selfplay import selfplay

    factories = {"crashing": lambda seed: Crashing(), "illegal": lambda seed: Always(3),
                 "spinning": lambda seed: Spinning()}
    # 5 s a decision: time enough to fork a worker on a machine as busy as it gets, so only the spinner
    # times out; each seat is forfeited at its first failure, so the spinner costs one limit per game.
    result = selfplay(GAME, ["crashing", "illegal", "spinning"], games=3, seed=2, timeout=5.0, max_failures=0,
                      factories=factories)
    bots = result["bots"]
    assert set(bots["crashing"]["failures"]) == {"exception", "forfeited"}
    assert set(bots["illegal"]["failures"]) == {"illegal", "forfeited"}
    assert set(bots["spinning"]["failures"]) == {"timeout", "forfeited"}
    assert bots["spinning"]["failures"]["timeout"] == 3  # once a game, then never asked again
    assert all(row["failures"][kind] > 0 for row in bots.values() for kind in row["failures"])
    assert result["errors"] == []
    clean = selfplay(GAME, ["random", "random"], games=2, seed=2)
    assert clean["bots"]["random"]["failures"] == {} and clean["bots"]["random"]["forfeits"] == 0


def test_a_spinning_bot_does_not_keep_the_process_alive(tmp_path: Any) -> None:
    script = tmp_path / "spin.py"
    script.write_text(textwrap.dedent("""
        import threading
        from cardtable.selfplay import selfplay
        from tests.core.toy import ToyGame

        class Spinning:
            name = "spinning"
            def __init__(self, seed):
                pass
            def act(self, observation, legal_actions):
                while True:
                    pass

        result = selfplay(ToyGame(), ["spin", "random"], games=4, seed=1, timeout=0.05,
                          factories={"spin": Spinning})
        print(result["bots"]["spin"]["failures"], threading.active_count())
    """))
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": root}, cwd=root)
    assert done.returncode == 0, done.stderr
    failures, threads = done.stdout.rsplit(" ", 1)
    assert "'timeout'" in failures and int(threads) == 1


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



def test_a_forfeit_in_a_partnership_game_costs_the_whole_pair() -> None:
    import cardtable

    mus = cardtable.load_game("mus")
    pair_would_have_won = 0
    for seed in range(4, 12):
        runner = GameRunner(mus, mus.options(), seed, [Crashing(), RandomBot(1), RandomBot(2), RandomBot(3)],
                            max_failures=0)
        outcome = runner.run()
        assert runner.forfeited == {0}
        assert outcome is not None and runner.game_outcome is not None
        assert set(outcome.winners) == set(runner.game_outcome.winners) - {0, 2}
        assert outcome.scores == runner.game_outcome.scores
        pair_would_have_won += 0 in runner.game_outcome.winners
    assert pair_would_have_won, "some game the forfeited pair won on the table"
