"""GameRunner: one game's life under the status machine (deal, decide, apply, record, finish or fail, close)."""

from __future__ import annotations

import traceback
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any

from cardtable.bots.random import RandomBot
from cardtable.core.bot import Bot, BotFactory
from cardtable.core.events import Event
from cardtable.core.game import Game
from cardtable.core.outcome import Outcome
from cardtable.core.record import GameRecord, new_record
from cardtable.core.types import Seat
from cardtable.runner.clock import Clock
from cardtable.runner.decisions import Deciders
from cardtable.runner.failures import AgentFailure, Failures, Substitution
from cardtable.runner.isolation import Isolation, can_fork
from cardtable.runner.status import RunnerStatus, checked_move


class GameRunner:
    """Drives one game: asks the agent to act for the seat to act, applies, records (see ``cardtable.runner``).

    The record and events are its own; the seats' clocks (:class:`~cardtable.runner.clock.Clock`), who decides
    for each seat (:class:`~cardtable.runner.decisions.Deciders`) and the substitutions and forfeits
    (:class:`~cardtable.runner.failures.Failures`) are collaborators it wires.
    """

    def __init__(
        self,
        game: Game[Any, Any, Any, Any],
        options: Any,
        seed: int,
        agents: Sequence[Bot],
        *,
        timeout: float | None = None,
        game_timeout: float | None = None,
        max_failures: int | None = None,
        fallback: BotFactory = RandomBot,
        on_events: Callable[[list[Event]], None] | None = None,
        isolation: Isolation = "process",
    ) -> None:
        if len(agents) != options.players:
            raise ValueError(f"{len(agents)} agents for {options.players} seats")
        for name, value in (("timeout", timeout), ("game_timeout", game_timeout)):
            if value is not None and value <= 0:
                raise ValueError(f"{name} must be positive, not {value}")
        if max_failures is not None and max_failures < 0:
            raise ValueError(f"max_failures must be at least 0, not {max_failures}")
        self.game = game
        self.options = options
        self.seed = seed
        self.clock = Clock(len(agents), timeout, game_timeout)
        self.deciders = Deciders(game, agents, self.clock, isolation if can_fork() else "thread")
        self.failures = Failures(max_failures)
        self.fallback = fallback(seed)
        self.on_events = on_events
        self.status = RunnerStatus.WAITING
        self.state: Any = None
        self.events: list[Event] = []
        self.record: GameRecord = new_record(game, options, seed)
        self.error: str | None = None
        self._closed = False

    @property
    def agents(self) -> list[Bot]:
        """The agent of each seat."""
        return self.deciders.agents

    @property
    def substitutions(self) -> list[Substitution]:
        """Every decision the fallback made, in order."""
        return self.failures.substitutions

    @property
    def forfeited(self) -> set[Seat]:
        """The seats forfeited so far."""
        return self.failures.forfeited

    # Status.

    def _move(self, status: RunnerStatus) -> None:
        self.status = checked_move(self.status, status)

    def start(self) -> None:
        """Deal the game, greet the agents that want it (``start(game, options, seat)``), start playing."""
        self._move(RunnerStatus.PLAYING)
        try:
            self.state, events = self.game.new(self.options, self.seed)
        except Exception as exc:
            self._fail(f"engine failed to deal: {exc!r}")
            return
        for seat, agent in enumerate(self.agents):
            self._greet(seat, agent)
        self._emit(events)
        self._finish_if_over()

    def pause(self) -> None:
        """Stop asking agents until :meth:`resume`."""
        self._move(RunnerStatus.PAUSED)

    def resume(self) -> None:
        """Go on after :meth:`pause`."""
        self._move(RunnerStatus.PLAYING)

    @property
    def game_outcome(self) -> Outcome | None:
        """The game's own outcome (what replaying the record gives), ignoring forfeits."""
        return None if self.state is None else self.game.outcome(self.state)

    @property
    def outcome(self) -> Outcome | None:
        """The outcome once finished; forfeited seats and their partners are not among the winners."""
        outcome = self.game_outcome
        if outcome is None or not self.forfeited:
            return outcome
        return self.failures.outcome(outcome, self.game.teams(self.options))

    def failures_by_seat(self) -> dict[Seat, dict[str, int]]:
        """Per seat, the number of substitutions of each kind (kinds with none are left out)."""
        return self.failures.by_seat(len(self.agents))

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
        """Start if needed and play until finished, paused or failed; the outcome if finished.

        When the game ends (finished or failed) everything is released, as by :meth:`close`.
        """
        try:
            if self.status is RunnerStatus.WAITING:
                self.start()
            while self.step():
                pass
        finally:
            if self.status is not RunnerStatus.PAUSED:
                self.close()
        return self.outcome if self.status is RunnerStatus.FINISHED else None

    def close(self) -> None:
        """Release worker processes and external programs (agents with ``close()``); idempotent."""
        self.deciders.close()
        if self._closed:
            return
        self._closed = True
        for agent in self.agents:
            closer = getattr(agent, "close", None)
            if callable(closer):
                try:
                    closer()
                except Exception as exc:  # a failing close must not hide the game's result
                    self.record = self._with_note(f"closing {agent.name!r} failed: {exc!r}")

    def __enter__(self) -> GameRunner:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    # Decisions and failures.

    def _decide(self, seat: Seat, legal: list[Any]) -> Any:
        """Decision number ``len(record.actions)`` for ``seat``: its agent's, else the fallback's (recorded)."""
        observation = self.game.observe(self.state, seat)
        index = len(self.record.actions)
        if seat in self.forfeited:
            failure = AgentFailure("forfeited", "seat forfeited earlier in this game")
        else:
            try:
                return self.deciders.ask(seat, self.state, observation, legal)
            except AgentFailure as exc:
                failure = exc
        sub = self.failures.substitute(index, seat, failure)
        self.record = self._with_note(sub.text())
        self._maybe_forfeit(seat, failure)
        try:
            action = self.fallback.act(observation, list(legal))
        except Exception as exc:
            self._fail(f"fallback bot failed too for seat {seat}: {exc!r}")
            return None
        if action not in legal:
            self._fail(f"fallback bot chose an illegal action for seat {seat}: {action!r}")
            return None
        return action

    def _maybe_forfeit(self, seat: Seat, failure: AgentFailure) -> None:
        why = self.failures.forfeit_reason(seat, failure)
        if why is not None:
            self._forfeit(seat, why)

    def _forfeit(self, seat: Seat, why: str) -> None:
        self.forfeited.add(seat)
        self.record = self._with_note(f"seat {seat} forfeited: {why}")
        self.deciders.release(seat)

    def _greet(self, seat: Seat, agent: Bot) -> None:
        greeter = getattr(agent, "start", None)
        if not callable(greeter):
            return
        try:
            greeter(self.game, self.options, seat)
        except AgentFailure as exc:
            self._start_failed(seat, exc)
        except Exception as exc:
            self._start_failed(seat, AgentFailure("exception", f"start: {type(exc).__name__}: {exc}"))

    def _start_failed(self, seat: Seat, failure: AgentFailure) -> None:
        sub = self.failures.substitute(0, seat, failure)
        self.record = self._with_note(sub.text().replace("fallback played", "before the first action"))
        self._forfeit(seat, f"could not start: {failure.detail}")

    # Record and events.

    def _with_note(self, note: str) -> GameRecord:
        r = self.record
        return GameRecord(r.game, r.options, r.seed, r.actions, (*r.notes, note))

    def _emit(self, events: list[Event]) -> None:
        self.events.extend(events)
        if self.on_events is not None and events:
            self.on_events(events)

    def _finish_if_over(self) -> None:
        if self.status is RunnerStatus.PLAYING and self.game.outcome(self.state) is not None:
            self._move(RunnerStatus.FINISHED)
            self._farewell()

    def _farewell(self) -> None:
        outcome = self.outcome
        for seat, agent in enumerate(self.agents):
            ender = getattr(agent, "end", None)
            if callable(ender) and seat not in self.forfeited:
                try:
                    ender(outcome)
                except Exception as exc:
                    self.record = self._with_note(f"seat {seat} end: {type(exc).__name__}: {exc}")

    def _fail(self, message: str) -> None:
        self.error = message + "\n" + traceback.format_exc(limit=3)
        self.status = RunnerStatus.ERROR
        self.close()
