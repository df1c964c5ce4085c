"""Who decides for each seat and how one decision is asked: the agent's legal action, or the failure saying why not."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from cardtable.core.bot import Bot
from cardtable.core.game import Game
from cardtable.core.types import Seat
from cardtable.runner.clock import Clock, TimeLeft
from cardtable.runner.failures import AgentFailure
from cardtable.runner.isolation import AgentWorker, Isolation, call_in_thread


@runtime_checkable
class TimedAgent(Protocol):
    """An agent that enforces its own time limit (an external program): it raises :class:`AgentFailure`."""

    name: str

    def act_within(self, observation: Any, legal_actions: Sequence[Any], time_left: TimeLeft,
                   templates: Sequence[Any] | None = None) -> Any:
        """An action within ``time_left``, or :class:`AgentFailure`; ``templates``: the game's action templates."""
        ...


class Deciders:
    """The agent of each seat and how it is asked, each decision timed by the seat's clock.

    Without a limit an agent is called directly; with one, in its worker process (``isolation="process"``)
    or a stoppable thread; a :class:`TimedAgent` is handed the time it has left and keeps it itself.
    """

    def __init__(self, game: Game[Any, Any, Any, Any], agents: Sequence[Bot], clock: Clock,
                 isolation: Isolation) -> None:
        self.game = game
        self.agents = list(agents)
        self.clock = clock
        self.isolation: Isolation = isolation
        self._workers: dict[Seat, AgentWorker] = {}
        self._timed = [isinstance(agent, TimedAgent) for agent in self.agents]  # a Protocol check is slow: once

    def ask(self, seat: Seat, state: Any, observation: Any, legal: list[Any]) -> Any:
        """The legal action of ``seat``'s agent in ``state``, or :class:`AgentFailure` saying why there is none."""
        agent = self.agents[seat]
        action = self.clock.timed(seat, lambda time_left: self._call(seat, agent, state, observation, legal,
                                                                      time_left))
        if action not in legal:
            self._refuse(seat, agent, state, action)
        return action

    def release(self, seat: Seat) -> None:
        """Kill ``seat``'s worker process, if it has one (the seat is not asked again)."""
        worker = self._workers.pop(seat, None)
        if worker is not None:
            worker.kill()

    def close(self) -> None:
        """Kill every worker process; idempotent."""
        for worker in self._workers.values():
            worker.kill()
        self._workers.clear()

    def _call(self, seat: Seat, agent: Bot, state: Any, observation: Any, legal: list[Any],
              time_left: TimeLeft) -> Any:
        if self._timed[seat]:
            timed: TimedAgent = agent  # type: ignore[assignment]
            return timed.act_within(observation, list(legal), time_left, self._templates(state, seat))
        limit = time_left.limit
        if limit is None:
            try:
                return agent.act(observation, list(legal))
            except Exception as exc:
                raise AgentFailure("exception", f"{type(exc).__name__}: {exc}") from None
        if self.isolation == "thread":
            return call_in_thread(agent, observation, legal, limit)
        worker = self._workers.get(seat)
        if worker is None or not worker.is_alive():
            worker = self._workers[seat] = AgentWorker(agent, f"agent-{seat}")
        try:
            return worker.ask(observation, legal, limit)
        except AgentFailure:
            if not worker.is_alive():
                del self._workers[seat]
            raise

    def _templates(self, state: Any, seat: Seat) -> Sequence[Any] | None:
        """The game's action templates for ``seat`` now (seed 001: ``Bet(min=2, max=None)``), if it has them."""
        maker = getattr(self.game, "action_templates", None)
        return maker(state, seat) if callable(maker) else None

    def _refuse(self, seat: Seat, agent: Bot, state: Any, action: Any) -> None:
        """Raise the failure for an answer outside the legal list, telling the agent why if it listens."""
        if not isinstance(action, self.game.info.action_types):
            raise AgentFailure("malformed", f"{action!r} is not a {self.game.info.title} action")
        try:
            reason = self.game.why_illegal(state, seat, action) or "not among the legal actions"
        except Exception as exc:
            reason = f"not among the legal actions ({type(exc).__name__})"
        listener = getattr(agent, "refused", None)
        if callable(listener):
            with contextlib.suppress(Exception):  # the agent is failing already; its failure is recorded next
                listener(action, reason)
        raise AgentFailure("illegal", f"{_action_text(action)}: {reason}")


def _action_text(action: Any) -> str:
    text = getattr(action, "text", None)
    return str(text()) if callable(text) else repr(action)
