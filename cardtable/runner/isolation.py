"""Agent isolation under a time limit: a forked worker process per agent, or a stoppable thread per decision."""

from __future__ import annotations

import ctypes
import multiprocessing
import multiprocessing.connection
import os
import threading
from typing import Any, Literal

from cardtable.core.bot import Bot
from cardtable.runner.failures import AgentFailure

Isolation = Literal["process", "thread"]


def can_fork() -> bool:
    """Whether this platform can fork worker processes (else agents are isolated in threads)."""
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


#: Seconds an overrunning thread has to end once interrupted. A thread running Python code ends as soon as
#: it runs again, which on a busy machine may take far longer than the decision's limit; only a thread
#: blocked in C code waits all of it (once: its agent is then forfeited and never asked again).
STOP_GRACE = 2.0


class _Interrupted(BaseException):
    """Raised inside an overrunning agent thread to stop it."""


def call_in_thread(agent: Bot, observation: Any, legal: list[Any], limit: float) -> Any:
    """The agent's action from a daemon thread within ``limit`` seconds, or :class:`AgentFailure`."""
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
        thread.join(STOP_GRACE)
        if thread.is_alive():
            raise AgentFailure("timeout", f"no answer within {limit:.3g}s and its thread could not be stopped",
                               forfeit=True)
        raise AgentFailure("timeout", f"no answer within {limit:.3g}s; its thread was stopped")
    if "error" in box:
        exc = box["error"]
        raise AgentFailure("exception", f"{type(exc).__name__}: {exc}")
    return box.get("action")
