"""The game runner: drives one game with one agent per seat and keeps its record.

Status machine::

    WAITING ──start──► PLAYING ◄──resume── PAUSED
                          │  └────pause────►  ▲
                          ├──game over──► FINISHED
                          └──failure────► ERROR

An agent that times out, raises, or returns an illegal action is replaced for
that one decision by a fallback bot; the substitution is recorded. If the
fallback fails too, or the engine itself fails, the runner stops in ERROR with
its record intact, so a caller running many games can report it and carry on.
"""

from __future__ import annotations

import concurrent.futures
import enum
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.bots.random import RandomBot
from cardtable.core.bot import Bot, BotFactory
from cardtable.core.events import Event
from cardtable.core.game import Game
from cardtable.core.outcome import Outcome
from cardtable.core.record import GameRecord, new_record
from cardtable.core.types import Seat


class RunnerStatus(enum.Enum):
    """Where a runner is in its life."""

    WAITING = "waiting"
    PLAYING = "playing"
    PAUSED = "paused"
    FINISHED = "finished"
    ERROR = "error"


_TRANSITIONS: dict[RunnerStatus, set[RunnerStatus]] = {
    RunnerStatus.WAITING: {RunnerStatus.PLAYING, RunnerStatus.ERROR},
    RunnerStatus.PLAYING: {RunnerStatus.PAUSED, RunnerStatus.FINISHED, RunnerStatus.ERROR},
    RunnerStatus.PAUSED: {RunnerStatus.PLAYING, RunnerStatus.ERROR},
    RunnerStatus.FINISHED: set(),
    RunnerStatus.ERROR: set(),
}


class RunnerError(RuntimeError):
    """A runner was asked for something its status does not allow."""


@dataclass(frozen=True, slots=True)
class Substitution:
    """A decision the fallback bot made for a seat whose agent failed."""

    index: int
    seat: Seat
    reason: str
    detail: str

    def text(self) -> str:
        """One line for logs and record notes."""
        return f"action {self.index}: seat {self.seat} {self.reason} ({self.detail}); fallback played"


class GameRunner:
    """Drives one game: asks the agent to act for the seat to act, applies, records."""

    def __init__(
        self,
        game: Game[Any, Any, Any, Any],
        options: Any,
        seed: int,
        agents: Sequence[Bot],
        *,
        timeout: float | None = None,
        fallback: BotFactory = RandomBot,
        on_events: Callable[[list[Event]], None] | None = None,
    ) -> None:
        if len(agents) != options.players:
            raise ValueError(f"{len(agents)} agents for {options.players} seats")
        self.game = game
        self.options = options
        self.seed = seed
        self.agents = list(agents)
        self.timeout = timeout
        self.fallback = fallback(seed)
        self.on_events = on_events
        self.status = RunnerStatus.WAITING
        self.state: Any = None
        self.events: list[Event] = []
        self.record: GameRecord = new_record(game, options, seed)
        self.substitutions: list[Substitution] = []
        self.error: str | None = None
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None

    # Status.

    def _move(self, status: RunnerStatus) -> None:
        if status not in _TRANSITIONS[self.status]:
            raise RunnerError(f"cannot go from {self.status.value} to {status.value}")
        self.status = status

    def start(self) -> None:
        """Deal the game and start playing."""
        self._move(RunnerStatus.PLAYING)
        try:
            self.state, events = self.game.new(self.options, self.seed)
        except Exception as exc:
            self._fail(f"engine failed to deal: {exc!r}")
            return
        self._emit(events)
        self._finish_if_over()

    def pause(self) -> None:
        """Stop asking agents until :meth:`resume`."""
        self._move(RunnerStatus.PAUSED)

    def resume(self) -> None:
        """Go on after :meth:`pause`."""
        self._move(RunnerStatus.PLAYING)

    @property
    def outcome(self) -> Outcome | None:
        """The outcome once finished."""
        return None if self.state is None else self.game.outcome(self.state)

    # Playing.

    def step(self) -> bool:
        """Let the seat to act make one decision; ``False`` if the runner is not playing."""
        if self.status is not RunnerStatus.PLAYING:
            return False
        seat = self.game.to_act(self.state)
        assert seat is not None  # a finished game has moved to FINISHED
        legal = self.game.legal_actions(self.state, seat)
        action = self._decide(seat, legal)
        if action is None:
            return False
        try:
            self.state, events = self.game.apply(self.state, seat, action)
        except Exception as exc:
            self._fail(f"engine failed on {action!r} by seat {seat}: {exc!r}")
            return False
        self.record = self.record.with_action(seat, action)
        self._emit(events)
        self._finish_if_over()
        return True

    def run(self) -> Outcome | None:
        """Start if needed and play until finished, paused or failed; the outcome if finished."""
        if self.status is RunnerStatus.WAITING:
            self.start()
        while self.step():
            pass
        self.close()
        return self.outcome if self.status is RunnerStatus.FINISHED else None

    def close(self) -> None:
        """Release the worker thread used for timeouts (abandoning a silent agent)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    # Decisions and failures.

    def _decide(self, seat: Seat, legal: list[Any]) -> Any:
        observation = self.game.observe(self.state, seat)
        problem = self._ask(self.agents[seat], seat, observation, legal, self.timeout)
        if isinstance(problem, Substitution):
            self.substitutions.append(problem)
            self.record = GameRecord(self.record.game, self.record.options, self.record.seed,
                                     self.record.actions, (*self.record.notes, problem.text()))
            answer = self._ask(self.fallback, seat, observation, legal, None)
            if isinstance(answer, Substitution):
                self._fail(f"fallback bot failed too for seat {seat}: {answer.detail}")
                return None
            return answer
        return problem

    def _ask(self, agent: Bot, seat: Seat, observation: Any, legal: list[Any], limit: float | None) -> Any:
        """The agent's legal action, or the :class:`Substitution` saying why there is none."""
        index = len(self.record.actions)
        try:
            if limit is None:
                action = agent.act(observation, list(legal))
            else:
                action = self._call_with_timeout(agent, observation, legal, limit)
        except concurrent.futures.TimeoutError:
            return Substitution(index, seat, "timed out", f"no answer within {limit}s")
        except Exception as exc:
            return Substitution(index, seat, "failed", f"{type(exc).__name__}: {exc}")
        if action not in legal:
            return Substitution(index, seat, "chose an illegal action", repr(action))
        return action

    def _call_with_timeout(self, agent: Bot, observation: Any, legal: list[Any], limit: float) -> Any:
        if self._pool is None:
            self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="agent")
        future = self._pool.submit(agent.act, observation, list(legal))
        try:
            return future.result(timeout=limit)
        except concurrent.futures.TimeoutError:
            # The silent agent keeps its thread; later agents get a fresh one.
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            raise

    def _emit(self, events: list[Event]) -> None:
        self.events.extend(events)
        if self.on_events is not None and events:
            self.on_events(events)

    def _finish_if_over(self) -> None:
        if self.status is RunnerStatus.PLAYING and self.game.outcome(self.state) is not None:
            self._move(RunnerStatus.FINISHED)

    def _fail(self, message: str) -> None:
        self.error = message + "\n" + traceback.format_exc(limit=3)
        self.status = RunnerStatus.ERROR
        self.close()
