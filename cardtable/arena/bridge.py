"""The bridge: a local protocol-1 program (any language, in the sandbox) playing at a remote server's tables.

``cardtable bot-connect URL --token-file F "COMMAND"`` opens the Bot API's one WebSocket
(``/api/bot/stream``, the token in the ``Authorization`` header) and, for every table where the bot
holds a seat, runs one copy of COMMAND: the server's ``hello``, ``act``, ``refused`` and ``end`` for
that table go to the program as protocol-1 lines (the ``table`` field removed), and its ``ready`` and
``action`` lines go back with the table added. What the program does wrong is reported to the server
as a ``failure`` of the runner's kinds (``timeout``, ``malformed``, ``crashed``, ``protocol``), so the
computer plays that decision at once and the table shows why. A timeout kills the program; the next
decision starts it again with a new ``hello``, as the local hosts do (docs/bot-protocol.md).

A dropped connection is retried with a growing pause (the server keeps the seats meanwhile and lets
the computer play, as for a person who steps away); programs keep running, and the server's new
``hello`` for each seat is, for them, the second ``hello`` of protocol 1. A refused token (closed
with code 4001) ends the bridge with that reason. Invitations are accepted as they arrive unless
``accept=False``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from cardtable.arena.sandbox import Closed, Limits, Sandbox, SandboxError, Timeout

log = logging.getLogger("cardtable.bridge")

#: The server closes a session with this code when the token is unknown or revoked: do not retry.
CLOSE_REFUSED = 4001
#: Time kept back from each decision for the network (the server's clock is the one that counts).
NETWORK_MARGIN = 0.05
STREAM_PATH = "/api/bot/stream"
#: A session that lasted this long (seconds) resets the pause between reconnections.
STEADY = 10.0


class BridgeStopped(Exception):
    """The server refused the token, or the bridge was asked to stop; the text says why."""


def stream_url(server: str) -> str:
    """``http://host:8000`` (or ``ws://…``, with or without the path) -> the Bot API's WebSocket URL."""
    parts = urlsplit(server.strip())
    scheme = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}.get(parts.scheme)
    if scheme is None or not parts.netloc:
        raise ValueError(f"{server!r} is not a server address (http://host:port or https://host)")
    path = parts.path.rstrip("/")
    if not path.endswith(STREAM_PATH):
        path += STREAM_PATH
    return urlunsplit((scheme, parts.netloc, path, "", ""))


def read_token(path: str) -> str:
    """The token in the file ``path`` (its first line); ``ValueError`` with a message if there is none."""
    try:
        with open(path, encoding="utf-8") as f:
            token = f.readline().strip()
    except OSError as exc:
        raise ValueError(f"cannot read the token file {path}: {exc.strerror}") from None
    if not token:
        raise ValueError(f"the token file {path} is empty")
    return token


@dataclass
class TableProgram:
    """One table's copy of the program: its sandbox, the last ``hello`` and the messages still to pass on."""

    table: str
    command: list[str]
    limits: Limits
    hello: dict[str, Any] | None = None
    sandbox: Sandbox | None = None
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    task: asyncio.Task[None] | None = None

    def close(self) -> None:
        """Say ``quit`` and end the program (idempotent)."""
        sandbox, self.sandbox = self.sandbox, None
        if sandbox is None:
            return
        if sandbox.is_running():
            with contextlib.suppress(Timeout, Closed):
                sandbox.write_line(b'{"type":"quit"}', time.monotonic() + 0.05)
        sandbox.close()


def full_jitter(pause: float, rng: random.Random) -> float:
    """A wait drawn evenly from [0, ``pause``] ("full jitter"): bots dropped together by a server restart
    spread their reconnections instead of knocking all at once at every doubling."""
    return rng.uniform(0.0, pause)


class Bridge:
    """Plays a local program at every table where the bot account holds a seat on one server."""

    def __init__(self, server: str, token: str, command: Sequence[str], *, limits: Limits | None = None,
                 accept: bool = True, max_pause: float = 30.0, say: Callable[[str], None] | None = None,
                 rng: random.Random | None = None) -> None:
        self.url = stream_url(server)
        self._token = token
        self.command = list(command)
        self.limits = limits or Limits(game=None)
        self.accept = accept
        self.max_pause = max_pause
        self._random = rng or random.Random()
        self.say = say or (lambda text: log.info("%s", text))
        self.programs: dict[str, TableProgram] = {}
        #: Tables whose seat the bot has been given (a ``hello``) on this run: a second ``hello`` is a seat back.
        self.seated: set[str] = set()
        self.name: str | None = None
        self.connected = asyncio.Event()
        self._socket: Any = None
        self._stop = asyncio.Event()
        self._closing: asyncio.Future[None] | None = None

    # The connection.

    async def run(self) -> None:
        """Connect, play, and reconnect after a drop until :meth:`stop` or a refused token."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

        pause = 0.25
        opened: float | None = None
        try:
            while not self._stop.is_set():
                problem = ""
                try:
                    async with connect(self.url, additional_headers={"Authorization": f"Bearer {self._token}"},
                                       max_size=4 * 2**20, open_timeout=10) as socket:
                        opened = time.monotonic()
                        await self._session(socket)
                except InvalidStatus as exc:
                    status = exc.response.status_code
                    if status in (401, 403):
                        raise BridgeStopped(f"the server refused the token (HTTP {status})") from None
                    problem = f"the server answered HTTP {status}"
                except ConnectionClosed as exc:
                    if exc.rcvd is not None and exc.rcvd.code == CLOSE_REFUSED:
                        raise BridgeStopped(f"the server ended the session: {exc.rcvd.reason}") from None
                    problem = f"the connection dropped ({exc})"
                except (OSError, InvalidHandshake, TimeoutError) as exc:
                    problem = f"cannot reach {self.url} ({exc})"
                finally:
                    self._socket = None
                    self.connected.clear()
                    if opened is not None and time.monotonic() - opened > STEADY:
                        pause = 0.25  # a session that lasted: its drop is retried quickly again
                    opened = None
                if self._stop.is_set():
                    break
                wait = full_jitter(pause, self._random)
                if problem:
                    self.say(f"{problem}; trying again in {wait:.3g}s")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stop.wait(), wait)
                pause = min(self.max_pause, pause * 2)
        finally:
            await self._close_all()

    def stop(self) -> None:
        """End :meth:`run` (programs are told ``quit``)."""
        self._stop.set()
        if self._socket is not None:
            self._closing = asyncio.ensure_future(self._socket.close())

    async def _session(self, socket: Any) -> None:
        self._socket = socket
        async for text in socket:
            try:
                message = json.loads(text)
            except ValueError:
                self.say(f"the server sent a line that is not JSON: {str(text)[:80]!r}")
                continue
            if isinstance(message, dict):
                await self._dispatch(message)

    async def _send(self, message: dict[str, Any]) -> None:
        socket = self._socket
        if socket is None:
            return  # the connection is gone: the server plays for the seat and asks again after reconnecting
        from websockets.exceptions import ConnectionClosed

        with contextlib.suppress(ConnectionClosed):
            await socket.send(json.dumps(message, ensure_ascii=False, separators=(",", ":")))

    async def _dispatch(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "welcome":
            self.name = str(message.get("bot"))
            self.connected.set()
            self.say(f"connected to {self.url} as {self.name}")
            if self.accept:
                await self._send({"type": "invitations"})
        elif kind in ("invited", "invitations"):
            found = message.get("invitations") or [message.get("invitation")]
            for invitation in found:
                if isinstance(invitation, dict) and self.accept:
                    self.say(f"accepting the invitation to table {invitation.get('table')} "
                             f"({page_seat(invitation.get('seat'))}, {invitation.get('game')})")
                    await self._send({"type": "accept", "invitation": invitation.get("id")})
        elif kind in ("hello", "act", "refused", "end") and isinstance(message.get("table"), str):
            if kind == "hello":
                self._greeted(message)
            program = self._program(message["table"])
            program.queue.put_nowait(message)
        elif kind == "left" and isinstance(message.get("table"), str):
            gone = self.programs.pop(message["table"], None)
            self.seated.discard(message["table"])
            if gone is not None:
                gone.queue.put_nowait({"type": "left"})
            self.say(f"left table {message['table']}: {message.get('reason', '')}")
        elif kind == "error":
            self.say(f"the server said: {message.get('message')}")

    def _greeted(self, hello: dict[str, Any]) -> None:
        """Say which seat the bot plays at a table, or that it has its seat back (after a drop or a restart the
        computer played the seat's turns meanwhile)."""
        table = hello["table"]
        seat = page_seat(hello.get("seat"))
        if table in self.seated:
            self.say(f"table {table}: {seat} is the bot's again (the computer played its turns while it was away)")
        else:
            self.say(f"table {table}: playing {seat} ({hello.get('game')})")
            self.seated.add(table)

    # One table.

    def _program(self, table: str) -> TableProgram:
        program = self.programs.get(table)
        if program is None:
            program = self.programs[table] = TableProgram(table, self.command, self.limits)
            program.task = asyncio.create_task(self._serve(program))
        return program

    async def _serve(self, program: TableProgram) -> None:
        try:
            while True:
                message = await program.queue.get()
                kind = message.pop("type")
                if kind == "left":
                    return
                message.pop("table", None)
                if kind == "hello":
                    program.hello = message
                    await self._handshake(program)
                elif kind == "act":
                    await self._act(program, message)
                elif kind in ("refused", "end"):
                    await asyncio.to_thread(_tell, program, {"type": kind, **message})
                    if kind == "end":
                        await asyncio.to_thread(program.close)
        finally:
            await asyncio.to_thread(program.close)

    async def _handshake(self, program: TableProgram, decision: Any = None) -> bool:
        """Start the program and give it the table's ``hello``; a failure during a decision costs that decision
        (the server is told), one at the table's ``hello`` is only reported here (the next decision retries)."""
        hello = program.hello
        assert hello is not None
        result = await asyncio.to_thread(_handshake, program, hello)
        if isinstance(result, Failure):
            if decision is None:
                self.say(f"table {program.table}: the program failed to start: {result.kind}: {result.detail}")
            else:
                await self._send({"type": "failure", "table": program.table, "id": decision, **result.message()})
            return False
        await self._send({"type": "ready", "table": program.table, "protocol": 1, "name": result})
        return True

    async def _act(self, program: TableProgram, message: dict[str, Any]) -> None:
        decision = message.get("id")
        if program.sandbox is None or not program.sandbox.is_running():
            if program.hello is None or not await self._handshake(program, decision):
                return
        left = (message.get("time_left") or {}).get("decision")
        limit = self.limits.decision if not isinstance(left, int | float) else max(0.01, left - NETWORK_MARGIN)
        answer = await asyncio.to_thread(_exchange, program, {"type": "act", **message}, decision, limit)
        if isinstance(answer, Failure):
            await self._send({"type": "failure", "table": program.table, "id": decision, **answer.message()})
        else:
            await self._send({**answer, "table": program.table})

    async def _close_all(self) -> None:
        programs, self.programs = list(self.programs.values()), {}
        for program in programs:
            if program.task is not None:
                program.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await program.task


def page_seat(seat: object) -> str:
    """A seat as the table page numbers it, from 1 ("seat 2" for the protocol's seat 1)."""
    return f"seat {seat + 1}" if isinstance(seat, int) and not isinstance(seat, bool) else f"seat {seat}"


@dataclass(frozen=True)
class Failure:
    """What went wrong with the program, as one of the runner's failure kinds."""

    kind: str
    detail: str

    def message(self) -> dict[str, Any]:
        """The fields of the ``failure`` message."""
        return {"kind": self.kind, "detail": self.detail[:300]}


def _encode(message: dict[str, Any]) -> bytes:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _start(program: TableProgram) -> Sandbox | Failure:
    if program.sandbox is not None and program.sandbox.is_running():
        return program.sandbox
    program.close()
    try:
        program.sandbox = Sandbox(program.command, program.limits)
    except SandboxError as exc:
        return Failure("crashed", str(exc))
    return program.sandbox


def _handshake(program: TableProgram, hello: dict[str, Any]) -> str | Failure:
    """Start the program if needed and shake hands; its name, or what went wrong (runs in a thread)."""
    sandbox = _start(program)
    if isinstance(sandbox, Failure):
        return sandbox
    deadline = time.monotonic() + program.limits.handshake
    try:
        sandbox.write_line(_encode({"type": "hello", **hello}), deadline)
        line = sandbox.read_line(deadline)
    except Timeout:
        program.close()
        return Failure("timeout", f"no \"ready\" within {program.limits.handshake:.3g}s")
    except Closed:
        return _crashed(program)
    except ValueError as exc:
        program.close()
        return Failure("protocol", str(exc))
    ready = _object(line)
    if ready is None or ready.get("type") != "ready" or ready.get("protocol") != 1:
        program.close()
        return Failure("protocol", f"expected \"ready\" for protocol 1, got {line[:80]!r}")
    name = ready.get("name")
    return name.strip()[:80] if isinstance(name, str) and name.strip() else "bot"


def _exchange(program: TableProgram, act: dict[str, Any], decision: Any, limit: float) -> dict[str, Any] | Failure:
    """Give the program one ``act``; its answer as a message, or what went wrong (runs in a thread)."""
    sandbox = program.sandbox
    assert sandbox is not None
    deadline = time.monotonic() + limit
    try:
        sandbox.write_line(_encode(act), deadline)
        while True:
            line = sandbox.read_line(deadline)
            answer = _object(line)
            if answer is None:
                sandbox.drop_pending()
                return Failure("malformed", f"not a JSON message object: {line[:80]!r}")
            if answer.get("id", decision) == decision:
                return answer  # answers to decisions that are over are skipped
    except Timeout:
        program.close()
        return Failure("timeout", f"no answer within {limit:.3g}s; the program was killed")
    except Closed:
        return _crashed(program)
    except ValueError as exc:  # a line over the length limit
        sandbox.drop_pending()
        return Failure("malformed", str(exc))


def _tell(program: TableProgram, message: dict[str, Any]) -> None:
    sandbox = program.sandbox
    if sandbox is not None and sandbox.is_running():
        with contextlib.suppress(Timeout, Closed):
            sandbox.write_line(_encode(message), time.monotonic() + 0.05)


def _crashed(program: TableProgram) -> Failure:
    sandbox = program.sandbox
    detail = "the program closed its output" if sandbox is None else sandbox.crash_detail()
    program.close()
    return Failure("crashed", detail + " (it is started again at the next decision)")


def _object(line: bytes) -> dict[str, Any] | None:
    try:
        data = json.loads(line.decode("utf-8", "replace"))
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("type"), str) else None
