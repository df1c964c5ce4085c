"""Playing one tournament game: a picklable task in, a picklable result out (for processes and Ray tasks)."""

from __future__ import annotations

import traceback
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

import cardtable
from cardtable.arena.entries import close_agent, make_agent
from cardtable.arena.schedule import derive_seed
from cardtable.core.bot import Bot
from cardtable.core.record import new_record
from cardtable.runner import GameRunner, RunnerStatus

FINISHED = "finished"
ERROR = "error"


@dataclass(frozen=True)
class GameTask:
    """Everything a worker needs to play one game; plain data, so it pickles for processes and Ray."""

    index: int
    deal: int
    seed: int
    game: str
    options: Mapping[str, Any]
    seating: tuple[str, ...]
    specs: tuple[str, ...]
    timeout: float | None = None
    game_timeout: float | None = None
    max_failures: int | None = None


@dataclass
class GameResult:
    """How one game went: status, outcome, failures per seat, and its record as JSON."""

    index: int
    deal: int
    seed: int
    seating: tuple[str, ...]
    status: str
    record: dict[str, Any]
    scores: list[float] | None = None
    winners: list[int] | None = None
    reason: str | None = None
    error: str | None = None
    failures: dict[int, dict[str, int]] = field(default_factory=dict)
    forfeited: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The result as JSON-ready data (seat keys become strings)."""
        data = asdict(self)
        data["seating"] = list(self.seating)
        data["failures"] = {str(seat): kinds for seat, kinds in self.failures.items()}
        return data

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> GameResult:
        """The result written by :meth:`to_json`."""
        values = dict(data)
        values["seating"] = tuple(values["seating"])
        values.setdefault("record", {})
        values["failures"] = {int(seat): dict(kinds) for seat, kinds in values.get("failures", {}).items()}
        return GameResult(**values)


def play_game(task: GameTask) -> GameResult:
    """Play one game to its end; never raises: a failure is an ERROR result with its record and reason."""
    game = cardtable.load_game(task.game)
    options = game.options(task.options)
    agents: list[Bot] = []
    try:
        for seat, spec in enumerate(task.specs):
            agents.append(make_agent(game, spec, derive_seed(task.seed, "agent", task.index, seat),
                                     timeout=task.timeout, game_timeout=task.game_timeout))
    except Exception as exc:
        for agent in agents:
            close_agent(agent)
        return failed(task, f"seat {len(agents)} ({task.seating[len(agents)]}) could not start: {exc}")
    try:
        return _run(task, game, options, agents)
    finally:
        for agent in agents:
            close_agent(agent)


def failed(task: GameTask, reason: str) -> GameResult:
    """An ERROR result for a game that could not be played at all (its record has no actions)."""
    game = cardtable.load_game(task.game)
    record = new_record(game, game.options(task.options), task.seed).to_json()
    return GameResult(task.index, task.deal, task.seed, task.seating, ERROR, record, error=reason)


def _run(task: GameTask, game: Any, options: Any, agents: list[Bot]) -> GameResult:
    runner = GameRunner(game, options, task.seed, agents, timeout=task.timeout, game_timeout=task.game_timeout,
                        max_failures=task.max_failures)
    try:
        outcome = runner.run()
    except Exception as exc:  # the runner records engine failures itself; this is a last resort
        runner.status = RunnerStatus.ERROR
        runner.error = f"runner failed: {exc!r}\n{traceback.format_exc(limit=3)}"
        outcome = None
    finally:
        runner.close()
    result = GameResult(task.index, task.deal, task.seed, task.seating, FINISHED, runner.record.to_json(),
                        failures=failures_by_seat(runner), forfeited=sorted(runner.forfeited))
    if runner.status is RunnerStatus.FINISHED and outcome is not None:
        result.scores = [float(s) for s in outcome.scores]
        result.winners = list(outcome.winners)
        result.reason = outcome.reason
    else:
        result.status = ERROR
        result.error = (runner.error or f"the game stopped in status {runner.status.value}").strip()
    return result


def failures_by_seat(runner: GameRunner) -> dict[int, dict[str, int]]:
    """Each seat's substitutions counted by kind (only seats that had any)."""
    return {int(seat): dict(kinds) for seat, kinds in runner.failures_by_seat().items() if kinds}
