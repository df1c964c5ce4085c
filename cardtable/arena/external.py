"""A bot that is a program: any language, spoken to over the JSON-lines protocol, run in the sandbox.

The program starts at the game's start (``start``), answers ``hello`` with
``ready``, then one ``action`` per ``act``. Every way it can fail costs one
decision and raises :class:`~cardtable.runner.AgentFailure` of the matching
kind: ``timeout`` (no answer in time: the program and its children are killed
and started again, with a new ``hello``, at its next decision), ``malformed``
(not JSON, not an action message, an index out of range, an action the codec
cannot read), ``crashed`` (it exited or closed its output; it is not started
again), ``protocol`` (the handshake failed: wrong version, no ``ready``).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Sequence
from typing import Any

from cardtable.arena import protocol
from cardtable.arena.sandbox import Closed, Limits, Sandbox, SandboxError, Timeout
from cardtable.core.game import Game
from cardtable.core.outcome import Outcome
from cardtable.runner import AgentFailure, TimeLeft


class ExternalBot:
    """An external program playing one seat (a :class:`~cardtable.core.bot.Bot` and a ``TimedAgent``)."""

    def __init__(self, command: Sequence[str], *, limits: Limits | None = None, name: str | None = None) -> None:
        self.command = list(command)
        self.limits = limits or Limits()
        self.name = name or " ".join(self.command)
        self.sandbox: Sandbox | None = None
        self.restarts = 0
        self._game: Game[Any, Any, Any, Any] | None = None
        self._options: Any = None
        self._seat = 0
        self._number = 0
        self._spent = 0.0
        self._dead: str | None = None

    # The game's life.

    def start(self, game: Game[Any, Any, Any, Any], options: Any, seat: int) -> None:
        """Start the program (if it is not running) and shake hands for a new game; :class:`AgentFailure`."""
        self._game, self._options, self._seat = game, options, seat
        self._dead = None
        self._spent = 0.0
        self._launch()

    def act_within(self, observation: Any, legal_actions: Sequence[Any], time_left: TimeLeft,
                   templates: Sequence[Any] | None = None) -> Any:
        """The program's action within ``time_left`` (and this bot's own decision limit)."""
        if self._dead is not None:
            raise AgentFailure("crashed", self._dead)
        if self.sandbox is None or not self.sandbox.is_running():
            self.restarts += 1
            self._launch()
        sandbox = self.sandbox
        assert sandbox is not None and self._game is not None
        game_left = self._game_left(time_left)
        if game_left is not None and game_left <= 0:
            raise AgentFailure("timeout", f"game time of {self.limits.game}s spent", forfeit=True)
        limit = min(t for t in (time_left.limit, self.limits.decision, game_left) if t is not None)
        self._number += 1
        number = self._number
        began = time.monotonic()
        deadline = began + limit
        sent = TimeLeft(min(limit, time_left.decision or limit), game_left)
        try:
            return self._exchange(sandbox, number, observation, legal_actions, sent, templates, deadline, limit)
        except AgentFailure as exc:
            if exc.kind == "timeout" and game_left is not None and limit == game_left:
                raise AgentFailure("timeout", f"game time of {self.limits.game}s spent: {exc.detail}",
                                   forfeit=True) from None
            raise
        finally:
            self._spent += time.monotonic() - began

    def _game_left(self, time_left: TimeLeft) -> float | None:
        own = None if self.limits.game is None else self.limits.game - self._spent
        limits = [t for t in (own, time_left.game) if t is not None]
        return min(limits) if limits else None

    def _exchange(self, sandbox: Sandbox, number: int, observation: Any, legal_actions: Sequence[Any],
                  sent: TimeLeft, templates: Sequence[Any] | None, deadline: float, limit: float) -> Any:
        assert self._game is not None
        line = protocol.encode_act(number, observation, legal_actions, sent, templates)
        try:
            sandbox.write_line(line, deadline)
            while True:
                answer = protocol.decode(sandbox.read_line(deadline))
                if answer.get("id", number) == number:
                    break  # answers to decisions that are over are skipped
            return protocol.parse_action(self._game, answer, legal_actions)
        except Timeout:
            self._stop()
            raise AgentFailure("timeout", f"no answer within {limit:.3g}s; the program was killed") from None
        except Closed:
            raise self._crashed() from None
        except ValueError as exc:  # ProtocolError, or a line over the length limit
            sandbox.drop_pending()
            raise AgentFailure("malformed", str(exc)) from None

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """The :class:`~cardtable.core.bot.Bot` interface: act within this bot's own limits."""
        return self.act_within(observation, legal_actions, TimeLeft(self.limits.decision, None))

    def refused(self, action: Any, reason: str) -> None:
        """Tell the program why its last answer was not legal (it need not answer)."""
        self._send(protocol.refused(self._number, action, reason))

    def end(self, outcome: Outcome | None) -> None:
        """Tell the program the game is over."""
        self._send(protocol.end(outcome))

    def close(self) -> None:
        """Say ``quit``, give the program a moment, then kill its group and remove its directory; idempotent."""
        if self.sandbox is None:
            return
        sandbox, self.sandbox = self.sandbox, None
        if sandbox.is_running():
            with contextlib.suppress(Timeout, Closed):
                sandbox.write_line(protocol.encode(protocol.QUIT), time.monotonic() + 0.05)
            with contextlib.suppress(Exception):
                sandbox.process.wait(0.1)
        sandbox.close()

    # Helpers.

    def _launch(self) -> None:
        if self._game is None:
            raise AgentFailure("protocol", "started before the game was known")
        if self.sandbox is not None and not self.sandbox.is_running():
            self._stop()
        if self.sandbox is None:
            try:
                self.sandbox = Sandbox(self.command, self.limits)
            except SandboxError as exc:
                self._dead = str(exc)
                raise AgentFailure("crashed", str(exc)) from None
        self._handshake(self.sandbox)

    def _handshake(self, sandbox: Sandbox) -> None:
        assert self._game is not None
        limits = {"decision": self.limits.decision, "game": self.limits.game, "handshake": self.limits.handshake}
        deadline = time.monotonic() + self.limits.handshake
        hello = protocol.hello(self._game, self._options, self._seat, limits)
        try:
            sandbox.write_line(protocol.encode(hello), deadline)
            name = protocol.parse_ready(protocol.decode(sandbox.read_line(deadline)))
        except Timeout:
            self._stop()
            self._dead = f"no \"ready\" within {self.limits.handshake:.3g}s"
            raise AgentFailure("timeout", self._dead, forfeit=True) from None
        except Closed:
            raise self._crashed() from None
        except ValueError as exc:
            self._stop()
            self._dead = str(exc)
            raise AgentFailure("protocol", str(exc)) from None
        self.name = name

    def _crashed(self) -> AgentFailure:
        sandbox = self.sandbox
        detail = "the program closed its output" if sandbox is None else sandbox.crash_detail()
        self._stop()
        self._dead = detail
        return AgentFailure("crashed", detail)

    def _send(self, message: dict[str, Any]) -> None:
        sandbox = self.sandbox
        if sandbox is None or not sandbox.is_running():
            return
        with contextlib.suppress(Timeout, Closed):
            sandbox.write_line(protocol.encode(message), time.monotonic() + 0.05)

    def _stop(self) -> None:
        if self.sandbox is not None:
            self.sandbox.close()
            self.sandbox = None
