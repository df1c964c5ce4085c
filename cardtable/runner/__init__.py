"""The game runner: drives one game with one agent per seat and keeps its record.

Status machine (``runner/status.py``)::

    WAITING ──start──► PLAYING ◄──resume── PAUSED
                          │  └────pause────►  ▲
                          ├──game over──► FINISHED
                          └──failure────► ERROR

Failures (``runner/failures.py``). An agent that cannot give a legal action for a decision is replaced
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

Time limits (``runner/clock.py``, ``runner/decisions.py``, ``runner/isolation.py``). ``timeout`` bounds
each decision, ``game_timeout`` the thinking
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
external programs; the runner is a context manager (``runner/game_runner.py``).
"""

from __future__ import annotations

from cardtable.runner.clock import Clock, TimeLeft
from cardtable.runner.decisions import Deciders, TimedAgent
from cardtable.runner.failures import FAILURE_KINDS, AgentFailure, Failures, Substitution
from cardtable.runner.game_runner import GameRunner
from cardtable.runner.isolation import AgentWorker, Isolation
from cardtable.runner.status import RunnerError, RunnerStatus

__all__ = [
    "FAILURE_KINDS",
    "AgentFailure",
    "AgentWorker",
    "Clock",
    "Deciders",
    "Failures",
    "GameRunner",
    "Isolation",
    "RunnerError",
    "RunnerStatus",
    "Substitution",
    "TimeLeft",
    "TimedAgent",
]
