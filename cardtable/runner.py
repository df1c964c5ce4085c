"""The game runner: drives one game with one agent per seat and keeps its record.

Status machine::

    WAITING ──start──► PLAYING ◄──resume── PAUSED
                          │  └────pause────►  ▲
                          ├──game over──► FINISHED
                          └──failure────► ERROR

Failures. An agent that cannot give a legal action for a decision is replaced
for that one decision by the fallback bot, and the :class:`Substitution` is
recorded under one of :data:`FAILURE_KINDS`:

- ``timeout``: no answer within the decision's time limit, or the seat's game
  time is spent;
- ``exception``: an in-process agent raised;
- ``illegal``: a well-formed action the rules do not allow now (the reason is
  the game's own ``why_illegal``, for Mus its ``validate``);
- ``malformed``: an answer that is not an action of this game at all;
- ``crashed``: the agent's process (worker or external program) died;
- ``protocol``: an external program broke the protocol (wrong version, no
  handshake);
- ``forfeited``: a decision made for a seat that was forfeited earlier.

Forfeit rule. A seat is forfeited for the rest of the game when its failures
(all kinds but ``forfeited``) exceed ``max_failures`` (``None``: never for
that reason), when it crashed or broke the protocol (it cannot answer again),
when its game time is spent, or when an overrunning in-process thread could
not be stopped. The fallback then plays every decision of that seat, the agent
is not asked again, and :attr:`GameRunner.outcome` counts the seat (with its
partners) as a loser: it is removed from the winners.

Time limits. ``timeout`` bounds each decision, ``game_timeout`` the thinking
time of one seat over the whole game. Without either, agents are called
directly (no overhead). With one, an in-process agent answers in a *worker
process* forked from this one at its first decision (``isolation="process"``,
the default on POSIX): on overrun the worker is killed (SIGKILL), so a bot
that spins, sleeps or blocks in C code takes no thread and no core into later
decisions or games; the next decision forks a fresh worker from the agent as
it was when the game started. What that costs per decision is measured by
``benchmarks/external_overhead.py`` (figures in ``docs/bot-protocol.md``).
``isolation="thread"`` (for platforms without ``fork``, or agents that must
keep their memory in this process) runs each decision in a daemon thread and
stops an overrunning one with ``PyThreadState_SetAsyncExc``; a thread blocked
in C code cannot be stopped that way, so its agent is forfeited and never
called again. Agents that enforce limits themselves (external programs,
:class:`TimedAgent`) are called directly with the time left.

If the fallback fails too, or the engine itself fails, the runner stops in
ERROR with its record and reason kept, so a caller running many games can
report it and carry on. :meth:`GameRunner.close` releases workers, threads and
external programs; the runner is a context manager.
"""

from __future__ import annotations

import contextlib
import ctypes
import enum
import multiprocessing
import multiprocessing.connection
import os
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from types import TracebackType
from typing import Any, Literal, Protocol, runtime_checkable

from cardtable.bots.random import RandomBot
from cardtable.core.bot import Bot, BotFactory
from cardtable.core.events import Event
from cardtable.core.game import Game
from cardtable.core.outcome import Outcome
from cardtable.core.record import GameRecord, new_record
from cardtable.core.types import Seat

FAILURE_KINDS: tuple[str, ...] = ("timeout", "exception", "illegal", "malformed", "crashed", "protocol", "forfeited")
"""Every kind of substitution, in the order results list them."""

_FATAL_KINDS = frozenset({"crashed", "protocol"})

Isolation = Literal["process", "thread"]


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


class AgentFailure(Exception):
    """An agent gave no usable answer: ``kind`` is one of :data:`FAILURE_KINDS`, ``detail`` says why.

    ``forfeit`` marks a failure after which the seat cannot go on (its game time is spent, say).
    """

    def __init__(self, kind: str, detail: str, *, forfeit: bool = False) -> None:
        if kind not in FAILURE_KINDS:
            raise ValueError(f"unknown failure kind {kind!r}")
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail
        self.forfeit = forfeit or kind in _FATAL_KINDS


@dataclass(frozen=True, slots=True)
class TimeLeft:
    """The time an agent has: for this decision and for the rest of its game (``None``: no limit)."""

    decision: float | None
    game: float | None

    @property
    def limit(self) -> float | None:
        """The tighter of the two limits."""
        limits = [t for t in (self.decision, self.game) if t is not None]
        return min(limits) if limits else None


@runtime_checkable
class TimedAgent(Protocol):
    """An agent that enforces its own time limit (an external program): it raises :class:`AgentFailure`."""

    name: str

    def act_within(self, observation: Any, legal_actions: Sequence[Any], time_left: TimeLeft,
                   templates: Sequence[Any] | None = None) -> Any:
        """An action within ``time_left``, or :class:`AgentFailure`; ``templates``: the game's action templates."""
        ...


@dataclass(frozen=True, slots=True)
class Substitution:
    """A decision the fallback bot made for a seat whose agent failed."""

    index: int
    seat: Seat
    kind: str
    detail: str

    def text(self) -> str:
        """One line for logs and record notes."""
        return f"action {self.index}: seat {self.seat} {self.kind} ({self.detail}); fallback played"


class GameRunner:
    """Drives one game: asks the agent to act for the seat to act, applies, records (see the module doc)."""

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
        self.agents = list(agents)
        self.timeout = timeout
        self.game_timeout = game_timeout
        self.max_failures = max_failures
        self.isolation: Isolation = isolation if _can_fork() else "thread"
        self.fallback = fallback(seed)
        self.on_events = on_events
        self.status = RunnerStatus.WAITING
        self.state: Any = None
        self.events: list[Event] = []
        self.record: GameRecord = new_record(game, options, seed)
        self.substitutions: list[Substitution] = []
        self.forfeited: set[Seat] = set()
        self.error: str | None = None
        self.thinking: list[float] = [0.0] * len(self.agents)
        self._workers: dict[Seat, AgentWorker] = {}
        self._timed = [isinstance(agent, TimedAgent) for agent in self.agents]  # a Protocol check is slow: once
        self._closed = False

    # Status.

    def _move(self, status: RunnerStatus) -> None:
        if status not in _TRANSITIONS[self.status]:
            raise RunnerError(f"cannot go from {self.status.value} to {status.value}")
        self.status = status

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
        losers = {s for team in self.game.teams(self.options) if self.forfeited & set(team) for s in team}
        seats = ", ".join(str(s) for s in sorted(self.forfeited))
        return replace(outcome, winners=tuple(w for w in outcome.winners if w not in losers),
                       reason=f"{outcome.reason}; forfeited: seat {seats}")

    def failures_by_seat(self) -> dict[Seat, dict[str, int]]:
        """Per seat, the number of substitutions of each kind (kinds with none are left out)."""
        out: dict[Seat, dict[str, int]] = {seat: {} for seat in range(len(self.agents))}
        for sub in self.substitutions:
            out[sub.seat][sub.kind] = out[sub.seat].get(sub.kind, 0) + 1
        return out

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
        for worker in self._workers.values():
            worker.kill()
        self._workers.clear()
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
        observation = self.game.observe(self.state, seat)
        index = len(self.record.actions)
        if seat in self.forfeited:
            failure = AgentFailure("forfeited", "seat forfeited earlier in this game")
        else:
            try:
                return self._ask_agent(seat, observation, legal)
            except AgentFailure as exc:
                failure = exc
        sub = Substitution(index, seat, failure.kind, failure.detail)
        self.substitutions.append(sub)
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

    def _ask_agent(self, seat: Seat, observation: Any, legal: list[Any]) -> Any:
        """The agent's legal action, or :class:`AgentFailure` saying why there is none."""
        agent = self.agents[seat]
        time_left = self._time_left(seat)
        if time_left.game is not None and time_left.game <= 0:
            raise AgentFailure("timeout", f"game time of {self.game_timeout}s spent", forfeit=True)
        began = time.perf_counter()
        try:
            action = self._call(seat, agent, observation, legal, time_left)
        except AgentFailure as exc:
            if exc.kind == "timeout" and time_left.game is not None and time_left.limit == time_left.game:
                raise AgentFailure("timeout", f"game time of {self.game_timeout}s spent: {exc.detail}",
                                   forfeit=True) from None
            raise
        finally:
            self.thinking[seat] += time.perf_counter() - began
        if action not in legal:
            self._refuse(seat, agent, action)
        return action

    def _call(self, seat: Seat, agent: Bot, observation: Any, legal: list[Any], time_left: TimeLeft) -> Any:
        if self._timed[seat]:
            timed: TimedAgent = agent  # type: ignore[assignment]
            return timed.act_within(observation, list(legal), time_left, self._templates(seat))
        limit = time_left.limit
        if limit is None:
            try:
                return agent.act(observation, list(legal))
            except Exception as exc:
                raise AgentFailure("exception", f"{type(exc).__name__}: {exc}") from None
        if self.isolation == "thread":
            return _call_in_thread(agent, observation, legal, limit)
        worker = self._workers.get(seat)
        if worker is None or not worker.is_alive():
            worker = self._workers[seat] = AgentWorker(agent, f"agent-{seat}")
        try:
            return worker.ask(observation, legal, limit)
        except AgentFailure:
            if not worker.is_alive():
                del self._workers[seat]
            raise

    def _templates(self, seat: Seat) -> Sequence[Any] | None:
        """The game's action templates for ``seat`` now (seed 001: ``Bet(min=2, max=None)``), if it has them."""
        maker = getattr(self.game, "action_templates", None)
        return maker(self.state, seat) if callable(maker) else None

    def _refuse(self, seat: Seat, agent: Bot, action: Any) -> None:
        """Raise the failure for an answer outside the legal list, telling the agent why if it listens."""
        if not isinstance(action, self.game.info.action_types):
            raise AgentFailure("malformed", f"{action!r} is not a {self.game.info.title} action")
        try:
            reason = self.game.why_illegal(self.state, seat, action) or "not among the legal actions"
        except Exception as exc:
            reason = f"not among the legal actions ({type(exc).__name__})"
        listener = getattr(agent, "refused", None)
        if callable(listener):
            with contextlib.suppress(Exception):  # the agent is failing already; its failure is recorded next
                listener(action, reason)
        raise AgentFailure("illegal", f"{_action_text(action)}: {reason}")

    def _time_left(self, seat: Seat) -> TimeLeft:
        game_left = None if self.game_timeout is None else self.game_timeout - self.thinking[seat]
        return TimeLeft(self.timeout, game_left)

    def _maybe_forfeit(self, seat: Seat, failure: AgentFailure) -> None:
        if seat in self.forfeited:
            return
        why = None
        if failure.forfeit:
            why = failure.detail if failure.kind == "timeout" else f"{failure.kind}: {failure.detail}"
        elif self.max_failures is not None:
            count = sum(1 for s in self.substitutions if s.seat == seat and s.kind != "forfeited")
            if count > self.max_failures:
                why = f"{count} failures, more than the {self.max_failures} allowed"
        if why is not None:
            self._forfeit(seat, why)

    def _forfeit(self, seat: Seat, why: str) -> None:
        self.forfeited.add(seat)
        self.record = self._with_note(f"seat {seat} forfeited: {why}")
        worker = self._workers.pop(seat, None)
        if worker is not None:
            worker.kill()

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
        sub = Substitution(0, seat, failure.kind, failure.detail)
        self.substitutions.append(sub)
        self.record = self._with_note(sub.text().replace("fallback played", "before the first action"))
        self._forfeit(seat, f"could not start: {failure.detail}")

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


def _action_text(action: Any) -> str:
    text = getattr(action, "text", None)
    return str(text()) if callable(text) else repr(action)


def _can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


# Process isolation: one forked worker per timed in-process agent.


class AgentWorker:
    """A forked child process holding a copy of one agent; answers (observation, legal) within a limit.

    Forking copies only the calling thread: a process that runs other threads (a web
    server, Ray) should give its agents no time limit or use ``isolation="thread"``.
    """

    def __init__(self, agent: Bot, name: str) -> None:
        context = multiprocessing.get_context("fork")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(agent, child), name=name, daemon=True)
        self.process.start()
        child.close()

    def is_alive(self) -> bool:
        """Whether the worker can still answer."""
        return self.process.is_alive()

    def ask(self, observation: Any, legal: list[Any], limit: float) -> Any:
        """The agent's action within ``limit`` seconds, or :class:`AgentFailure`."""
        try:
            self.conn.send((observation, legal))
            ready = self.conn.poll(limit)
        except (OSError, EOFError):
            raise self._crashed() from None
        except Exception as exc:  # an observation that cannot be pickled: no worker can answer it
            raise AgentFailure("exception", f"cannot hand the decision to its worker: {exc!r}") from None
        if not ready:
            self.kill()
            raise AgentFailure("timeout", f"no answer within {limit:.3g}s; its worker process was killed")
        try:
            kind, value = self.conn.recv()
        except (OSError, EOFError):
            raise self._crashed() from None
        if kind == "index":
            return legal[value]
        if kind == "action":
            return value
        raise AgentFailure(kind, value)

    def _crashed(self) -> AgentFailure:
        self.process.join(0.5)
        code = self.process.exitcode
        self.kill()
        return AgentFailure("crashed", f"its worker process died (exit code {code})")

    def kill(self) -> None:
        """Kill the worker (SIGKILL) and reap it; idempotent."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join(1.0)
        self.conn.close()


def _serve(agent: Bot, conn: multiprocessing.connection.Connection) -> None:
    """The worker's loop: one answer per request until the pipe closes.

    It leaves by ``os._exit``: a normal exit would flush stdio buffers copied from the parent at fork
    time and print the parent's pending output a second time.
    """
    try:
        while True:
            try:
                observation, legal = conn.recv()
            except (EOFError, OSError, KeyboardInterrupt):
                return
            try:
                action = agent.act(observation, list(legal))
            except Exception as exc:
                conn.send(("exception", f"{type(exc).__name__}: {exc}"))
                continue
            if action in legal:
                conn.send(("index", legal.index(action)))
                continue
            try:
                conn.send(("action", action))
            except Exception:
                conn.send(("malformed", f"unpicklable answer {action!r}"[:200]))
    finally:
        os._exit(0)


# Thread isolation: a daemon thread per decision, stopped by an asynchronous exception.


class _Interrupted(BaseException):
    """Raised inside an overrunning agent thread to stop it."""


def _call_in_thread(agent: Bot, observation: Any, legal: list[Any], limit: float) -> Any:
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["action"] = agent.act(observation, list(legal))
        except _Interrupted:
            pass
        except Exception as exc:
            box["error"] = exc

    thread = threading.Thread(target=target, name="agent", daemon=True)
    thread.start()
    thread.join(limit)
    if thread.is_alive() and thread.ident is not None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident), ctypes.py_object(_Interrupted))
        thread.join(max(0.05, min(limit, 0.5)))
        if thread.is_alive():
            raise AgentFailure("timeout", f"no answer within {limit:.3g}s and its thread could not be stopped",
                               forfeit=True)
        raise AgentFailure("timeout", f"no answer within {limit:.3g}s; its thread was stopped")
    if "error" in box:
        exc = box["error"]
        raise AgentFailure("exception", f"{type(exc).__name__}: {exc}")
    return box.get("action")
