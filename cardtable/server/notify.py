"""Several server processes on one PostgreSQL: versions announced with LISTEN/NOTIFY, changes forwarded.

Each table has one owner process (its lease, see ``Store.acquire``). The owner publishes "table X is at
version v" after every stored change; the other processes that show table X to their own sockets read what
changed from the database and send those sockets their views. A change asked of a process that does not own
the table (an action on a socket, a REST join or start) is forwarded to the owner over the same channel, and
the owner's answer (done, or the refusal with its status and message) comes back to the asker. Operations
carry token hashes, never tokens. Presence is forwarded too, so the owner does not hand a seat to the
computer while its person is connected to another process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from typing import Any

from sqlalchemy.engine import make_url

from cardtable.server.limits import excerpt
from cardtable.server.live import LiveTable, TableError
from cardtable.server.manager import TableManager
from cardtable.server.refusals import CODES

log = logging.getLogger("cardtable.server")
CHANNEL = "cardtable"
#: How long a forwarded change waits for the owner's answer.
FORWARD_TIMEOUT = 10.0
#: The longest wait, in seconds, between two tries to hear the other processes again after the channel failed.
RELISTEN_MAX = 10.0


def conninfo(url: str) -> str:
    """A libpq connection string for a SQLAlchemy PostgreSQL URL (``postgresql+psycopg://...``)."""
    from psycopg.conninfo import make_conninfo

    parsed = make_url(url)
    params: dict[str, Any] = {"dbname": parsed.database, "user": parsed.username, "password": parsed.password,
                              "host": parsed.host, "port": parsed.port}
    for key, value in parsed.query.items():
        params[key] = value if isinstance(value, str) else value[-1]
    return make_conninfo(**{k: str(v) for k, v in params.items() if v is not None})


def _why(exc: BaseException) -> str:
    """What made the channel fail, for the log and ``/readyz`` (the exception's type when it says nothing)."""
    return excerpt(str(exc).strip() or type(exc).__name__, 200)


class Notifier:
    """Publishes this process's table changes and serves or forwards operations between processes."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        self.me = manager.owner
        self._listen: Any = None
        self._send: Any = None
        self._send_lock = asyncio.Lock()
        self._pending: set[str] = set()
        self._wake = asyncio.Event()
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._spawned: set[asyncio.Task[None]] = set()
        #: Whether this process hears the others now (``/readyz`` says so); false while the channel is being
        #: connected again after it failed (a database restart, say).
        self.listening = False
        #: Why the channel last failed (for ``/readyz``), and how many times it was connected again.
        self.failure: str | None = None
        self.reconnections = 0

    def _spawn(self, work: Any) -> None:
        """Run a coroutine in the background, keeping a reference until it ends."""
        task = asyncio.get_running_loop().create_task(work)
        self._spawned.add(task)
        task.add_done_callback(self._spawned.discard)

    async def start(self) -> None:
        """Connect, LISTEN, and hook into the manager."""
        self._listen = await self._connect(listen=True)
        self.listening = True
        self._send = await self._connect()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listener()), loop.create_task(self._publisher())]
        self.manager.on_change.append(self._changed)
        self.manager.forward = self.forward
        self.manager.on_presence = self._presence
        self.manager.relay = self.relay

    async def stop(self) -> None:
        """Stop listening and publishing; close the connections."""
        if self._changed in self.manager.on_change:
            self.manager.on_change.remove(self._changed)
        self.manager.forward = None
        self.manager.on_presence = None
        self.manager.relay = None
        tasks = [*self._tasks, *self._spawned]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for connection in (self._listen, self._send):
            if connection is not None:
                with contextlib.suppress(Exception):
                    await connection.close()

    # Publishing.

    def _changed(self, table: LiveTable) -> None:
        if table.owned:
            self._pending.add(table.id)
            self._wake.set()

    def _presence(self, table: LiveTable) -> None:
        """Tell the owner which seats are connected here (fire and forget)."""
        self._spawn(self._tell_presence(table))

    async def _tell_presence(self, table: LiveTable) -> None:
        """The seats are read once the owner is known, just before the message is queued: the lookups of two
        quick tellings may end in either order, but their messages leave in the order they were queued (the
        send lock is first come, first served), so the owner's last word is the latest (a seat's connection
        that came and went in a moment, told in the wrong order, left the owner waiting for a bot no longer
        there, or playing for one that was)."""
        with contextlib.suppress(Exception):
            owner = await asyncio.to_thread(self.manager.store.owner_of, table.id)
            if owner is not None and owner != self.me:
                await self._notify({"kind": "presence", "to": owner, "from": self.me, "table": table.id,
                                    "seats": sorted(table.connected_seats())})

    async def _publisher(self) -> None:
        """Announce changed tables, coalescing bursts: ``{"kind": "version", "table", "version"}``."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            changed, self._pending = self._pending, set()
            for table_id in changed:
                table = self.manager.tables.get(table_id) or self.manager.finished.get(table_id)
                version = table.version if table is not None else None
                try:
                    await self._notify({"kind": "version", "from": self.me, "table": table_id, "version": version})
                except Exception as exc:
                    log.warning("cannot announce table %s: %s", table_id, excerpt(exc, 200))

    async def _connect(self, *, listen: bool = False) -> Any:
        """A new autocommit connection to the database (listening on the channel if ``listen``)."""
        import psycopg

        connection = await psycopg.AsyncConnection.connect(conninfo(self.manager.store.url), autocommit=True)
        if listen:
            await connection.execute(f"LISTEN {CHANNEL}")
        return connection

    async def _notify(self, payload: dict[str, Any]) -> None:
        """Send one message; a connection the database dropped is replaced and the message sent once more."""
        text = json.dumps(payload)
        async with self._send_lock:
            try:
                await self._send.execute("SELECT pg_notify(%s, %s)", (CHANNEL, text))
            except Exception as exc:
                if not self._send.closed and not self._send.broken:
                    raise
                log.warning("the connection for messages to the other processes failed (%s); connecting again",
                            excerpt(exc, 200))
                with contextlib.suppress(Exception):
                    await self._send.close()
                self._send = await self._connect()
                await self._send.execute("SELECT pg_notify(%s, %s)", (CHANNEL, text))

    # Listening.

    async def _listener(self) -> None:
        """Hear the other processes; when the channel fails, say so, connect again (waiting longer each time,
        up to ``RELISTEN_MAX`` seconds) and catch up every table shown here: its news may have been missed."""
        wait = 0.5
        while True:
            try:
                await self._hear()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.failure = _why(exc)
            self.listening = False
            log.warning("lost the channel to the other server processes (%s); connecting again", self.failure)
            with contextlib.suppress(Exception):
                await self._listen.close()
            while not self.listening:
                await asyncio.sleep(wait)
                wait = min(wait * 2, RELISTEN_MAX)
                try:
                    self._listen = await self._connect(listen=True)
                except Exception as exc:
                    self.failure = _why(exc)
                    log.warning("cannot reach the other server processes yet (%s)", self.failure)
                else:
                    self.listening, wait = True, 0.5
            self.reconnections += 1
            shown = [t for t in self.manager.tables.values() if not t.owned]
            log.warning("hearing the other server processes again; catching up %d shown table(s)", len(shown))
            for table in shown:
                self._spawn(self._catch_up(table))

    async def _hear(self) -> None:
        """Dispatch notifications until the connection fails (it raises) or ends."""
        async for notification in self._listen.notifies():
            try:
                message = json.loads(notification.payload)
                self._dispatch(message)
            except Exception:
                log.exception("bad notification %s", excerpt(notification.payload, 200))
        self.failure = "the database closed the connection"

    def _dispatch(self, message: dict[str, Any]) -> None:
        kind = message.get("kind")
        if message.get("from") == self.me:
            return
        if kind == "version":
            table = self.manager.tables.get(str(message.get("table")))
            if table is not None and not table.owned:
                self._spawn(self._catch_up(table))
        elif kind == "relay":
            self._relayed(str(message.get("table")), dict(message.get("payload") or {}))
        elif message.get("to") != self.me:
            return
        elif kind == "operation":
            self._spawn(self._serve(message))
        elif kind == "answer":
            future = self._waiting.pop(str(message.get("id")), None)
            if future is not None and not future.done():
                future.set_result(message)
        elif kind == "presence":
            table = self.manager.tables.get(str(message.get("table")))
            if table is not None and table.owned:
                self.manager.remote_presence(table, str(message["from"]), [int(s) for s in message["seats"]])

    # Relaying a table's extras (chat, reactions, summary holds: cardtable.server.social) to every process.

    def relay(self, table_id: str, payload: dict[str, Any]) -> None:
        """Send ``payload`` about a table to the other processes (fire and forget; a failure is logged)."""
        self._spawn(self._relay(table_id, payload))

    async def _relay(self, table_id: str, payload: dict[str, Any]) -> None:
        try:
            await self._notify({"kind": "relay", "from": self.me, "table": table_id, "payload": payload})
        except Exception as exc:
            log.warning("cannot relay to the other processes (table %s): %s", table_id, excerpt(exc, 200))

    def _relayed(self, table_id: str, payload: dict[str, Any]) -> None:
        for handler in self.manager.on_relay:
            try:
                handler(table_id, payload)
            except Exception:
                log.exception("a relayed message about table %s failed", table_id)

    async def _catch_up(self, table: LiveTable) -> None:
        try:
            await self.manager.catch_up(table)
        except Exception:
            log.exception("cannot follow table %s", table.id)

    # Forwarding.

    async def forward(self, table_id: str, operation: dict[str, Any]) -> dict[str, Any]:
        """Run ``operation`` on the process that owns the table (or here, if its owner is gone)."""
        owner = await asyncio.to_thread(self.manager.store.owner_of, table_id)
        if owner is None or owner == self.me:
            table = await self.manager.adopt(table_id)
            if table is None:
                raise TableError(503, f"table {table_id} is changing hands between server processes; try again",
                                 code="changing_hands", params={})
            return await self.manager.run_operation(table, operation) or {}
        ask = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[ask] = future
        try:
            await self._notify({"kind": "operation", "to": owner, "from": self.me, "id": ask, "table": table_id,
                                "operation": operation})
            answer = await asyncio.wait_for(future, FORWARD_TIMEOUT)
        except TimeoutError:
            raise TableError(503, f"the server process driving table {table_id} does not answer; "
                                  "try again in a few seconds", code="changing_hands", params={}) from None
        finally:
            self._waiting.pop(ask, None)
        if not answer.get("ok"):
            code, params = answer.get("code"), answer.get("params")
            raise TableError(int(answer.get("status", 500)), str(answer.get("message", "refused")),
                             code=code if code in CODES else None, params=params if isinstance(params, dict) else None)
        return dict(answer.get("result") or {})

    async def _serve(self, message: dict[str, Any]) -> None:
        """Run an operation another process forwarded; answer it."""
        started = time.monotonic()
        answer: dict[str, Any] = {"kind": "answer", "to": message.get("from"), "from": self.me,
                                  "id": message.get("id"), "ok": True}
        table = self.manager.tables.get(str(message.get("table")))
        try:
            if table is None or not table.owned:
                raise TableError(503, "that table is changing hands between server processes; try again",
                                 code="changing_hands", params={})
            answer["result"] = await self.manager.run_operation(table, dict(message.get("operation") or {})) or {}
        except TableError as exc:
            answer.update(ok=False, status=exc.status, message=exc.message, code=exc.code, params=exc.params)
        except Exception:
            log.exception("forwarded operation on table %s failed", message.get("table"))
            answer.update(ok=False, status=500, message="the server failed to handle that; nothing changed",
                          code="server_failed", params={})
        log.debug("served a forwarded operation in %.1f ms", (time.monotonic() - started) * 1000)
        with contextlib.suppress(Exception):
            await self._notify(answer)
