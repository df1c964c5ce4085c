"""The table manager: live tables, seats and tokens, accepted actions, computer players, takeovers.

Failure rules (the runner's status machine, ``cardtable.runner.RunnerStatus``): a table is ``waiting``,
``playing``, ``paused``, ``finished`` or ``error`` (and ``abandoned`` when its host leaves before the start).
Every change is one database transaction, prepared on copies and applied in memory only once committed:
if the store fails, nothing changed anywhere and the caller gets a 503. A computer player's move that
could not be stored is retried until the store works again. An engine or bot failure puts the table in
``error`` with its record and the reason kept, and everyone at the table is told.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

from sqlalchemy.engine import Connection as DbConnection

import cardtable
from cardtable.core import DecodeError
from cardtable.core.codec import parse_json
from cardtable.core.types import Seat
from cardtable.server.absence import Absence
from cardtable.server.changes import Changes
from cardtable.server.commits import GroupCommit
from cardtable.server.decisions import Decisions
from cardtable.server.driver import Driver
from cardtable.server.failures import TableFailures
from cardtable.server.lifecycle import Lifecycle
from cardtable.server.limits import AddressBuckets, Limits, TokenBucket, excerpt
from cardtable.server.live import CLOSE_POLICY, AnyGame, Connection, LiveTable, TableError
from cardtable.server.lobby import Lobby
from cardtable.server.messages import error_message
from cardtable.server.registry import TableRegistry
from cardtable.server.schemas import CreateTable
from cardtable.server.seats import Seating, check_host, seat_at, seat_by_token
from cardtable.server.statuses import CLOSED, ERROR, FINISHED, PAUSED, PLAYING
from cardtable.server.storage import TableStorage
from cardtable.server.views import outcome_json
from cardtable.server.writer import StoreWriter
from cardtable.store import Store, StoredSeat, StoredTable, hash_token

log = logging.getLogger("cardtable.server")
T = TypeVar("T")


class TableManager:
    """Holds the live tables of one server and applies every change to them."""

    def __init__(self, store: Store, *, bot_delay: float = 0.6, takeover_after: float = 30.0,
                 games: Mapping[str, AnyGame] | None = None, limits: Limits | None = None,
                 owner: str | None = None, lease_ttl: float = 15.0) -> None:
        self.registry = TableRegistry(store, dict(games) if games is not None else cardtable.all_games(),
                                      limits or Limits(), owner, lease_ttl)
        self.writer = StoreWriter(store)
        # The parts, lowest first; the two that call up (a lost lease, the driver woken) are late-bound.
        self.storage = TableStorage(self.registry, self.writer, lambda table: self._disown(table))
        self.changes = Changes(lambda table: self.driver.start(table))
        self.absence = Absence(self.registry, self.changes, takeover_after)
        self.failures = TableFailures(self.registry, self.storage, self.changes, self.absence)
        self.commits = GroupCommit(self.registry, self.storage, self.changes, self.absence)
        self.driver = Driver(self.commits, self.failures, bot_delay)
        self.lifecycle = Lifecycle(self.registry, self.storage, self.changes, self.absence, self.commits,
                                   self.failures)
        self.seating = Seating(self.registry, self.storage, self.changes, self.absence, self.commits)
        self.decisions = Decisions(self.registry, self.storage, self.changes, self.absence, self.commits,
                                   self.failures, self.driver)
        self.lobby_list = Lobby(self.registry, self.storage, self.changes)
        self.address_messages = AddressBuckets(self.limits.address_messages_per_second,
                                               self.limits.address_messages_burst)
        self.address_connections: dict[str, int] = {}
        self._background: list[asyncio.Task[None]] = []
        self._adopting = asyncio.Lock()
        #: Forwards an operation on a table another process drives (set by the notifier); ``None``: refuse.
        self.forward: Callable[[str, dict[str, Any]], Any] | None = None
        #: Tells the owner of a table shown here which of its seats are connected here (set by the notifier).
        self.on_presence: Callable[[LiveTable], None] | None = None
        #: Sends a table's extras (chat, summary holds) to the other processes (set by the notifier).
        self.relay: Callable[[str, dict[str, Any]], None] | None = None
        #: Called with what another process relayed about a table (table id, payload).
        self.on_relay: list[Callable[[str, dict[str, Any]], None]] = []

    # What the parts share.

    @property
    def store(self) -> Store:
        """The database."""
        return self.registry.store

    @property
    def games(self) -> dict[str, AnyGame]:
        """The games tables may be created for, by short name."""
        return self.registry.games

    @property
    def limits(self) -> Limits:
        """The server's limits (read at each use: replacing them takes effect at once)."""
        return self.registry.limits

    @limits.setter
    def limits(self, limits: Limits) -> None:
        self.registry.limits = limits

    @property
    def owner(self) -> str:
        """This process's name in leases."""
        return self.registry.owner

    @property
    def lease_ttl(self) -> float:
        """Seconds a lease lasts unless renewed."""
        return self.registry.lease_ttl

    @property
    def tables(self) -> dict[str, LiveTable]:
        """Open tables in memory by id (driven here, or shown here for the process that drives them)."""
        return self.registry.tables

    @property
    def finished(self) -> OrderedDict[str, LiveTable]:
        """Recently closed tables kept in memory, oldest first."""
        return self.registry.finished

    @property
    def on_change(self) -> list[Callable[[LiveTable], None]]:
        """Called after every change of a table in memory (the notifier, the social features and timers)."""
        return self.changes.on_change

    @property
    def before_computer_move(self) -> list[Callable[[LiveTable], Awaitable[None]]]:
        """Awaited before each computer move (e.g. while people read a round's summary)."""
        return self.driver.before_computer_move

    @property
    def run_ahead_checks(self) -> list[Callable[[LiveTable], bool]]:
        """Asked before computer moves are decided ahead of their commits (any ``False``: each waits)."""
        return self.driver.run_ahead_checks

    @property
    def bot_delay(self) -> float:
        """Seconds the computer waits before each move it plays."""
        return self.driver.bot_delay

    @bot_delay.setter
    def bot_delay(self, seconds: float) -> None:
        self.driver.bot_delay = seconds

    @property
    def takeover_after(self) -> float:
        """Seconds after a person left before the computer plays for them."""
        return self.absence.takeover_after

    @takeover_after.setter
    def takeover_after(self, seconds: float) -> None:
        self.absence.takeover_after = seconds

    # Start and stop.

    def load_open_tables(self) -> None:
        """Rebuild every waiting, playing or paused table this process may drive (takes their leases)."""
        self.lifecycle.load_open_tables()

    def resume(self) -> None:
        """Start the computer players, takeover timers and housekeeping (needs the event loop)."""
        self.writer.start()
        for table in self.tables.values():
            self.lifecycle.resume_table(table)
        loop = asyncio.get_running_loop()
        self._background.append(loop.create_task(self._housekeeping()))

    async def shutdown(self) -> None:
        """Close every connection (1012: the page reconnects), stop background tasks, flush the writer."""
        self.driver.stopping = True
        for task in self._background:
            task.cancel()
        tasks: list[asyncio.Task[None]] = list(self._background)
        for table in self.tables.values():
            tasks.extend(table.timers.values())
            if table.driver is not None:
                tasks.append(table.driver)
            for connection in table.connections:
                connection.send_close()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.commits.store_decided_moves()
        await asyncio.to_thread(self.writer.stop)
        with contextlib.suppress(Exception):
            self.store.release(self.owner)

    async def close_connections(self, wait: float = 2.0) -> None:
        """Tell every socket the server restarts (1012 and a reason; the page reconnects), wait for them."""
        for table in list(self.tables.values()):
            for connection in table.connections:
                connection.send_close()
        deadline = time.monotonic() + wait
        while any(t.connections for t in self.tables.values()) and time.monotonic() < deadline:
            await asyncio.sleep(0.02)

    async def _housekeeping(self) -> None:
        """Every few seconds: renew leases, take over orphaned tables, expire idle waiting tables."""
        period = max(0.5, min(self.lease_ttl / 3, 5.0))
        while True:
            await asyncio.sleep(period)
            try:
                await self.housekeeping()
            except Exception as exc:  # the database is down, say: try again next time
                log.warning("housekeeping failed: %s", excerpt(exc, 200))

    async def housekeeping(self) -> None:
        """One round of lease renewal, takeover and expiry."""
        # Only the tables held before the renewal began can be missing from its answer for a reason: one
        # created or adopted meanwhile was leased after the renewal read the leases.
        before = [t for t in self.tables.values() if t.owned]
        held = await asyncio.to_thread(self.store.renew, self.owner, self.lease_ttl)
        for table in before:
            if table.owned and table.status not in CLOSED and table.id not in held:
                log.warning("lost the lease of table %s; another process drives it now", table.id)
                self._disown(table)
        for table_id in await asyncio.to_thread(self.store.unowned_open):
            await self.adopt(table_id)
        for table in list(self.tables.values()):
            if not table.owned:
                if table.connections:
                    self._tell_presence(table)
                else:
                    self.tables.pop(table.id, None)
        await self.lifecycle.expire_idle()

    async def adopt(self, table_id: str) -> LiveTable | None:
        """Take over a table whose owner stopped (its lease expired): load it and drive it."""
        async with self._adopting:  # one at a time: two loads of one table would both drive it
            current = self.tables.get(table_id)
            if current is not None and current.owned:
                return current
            return await self._adopt(table_id)

    async def _adopt(self, table_id: str) -> LiveTable | None:
        if not await asyncio.to_thread(self.store.acquire, table_id, self.owner, self.lease_ttl):
            return None
        stored = await asyncio.to_thread(self.store.load, table_id)
        if stored is None or stored.status in CLOSED:
            return None
        old = self.tables.get(table_id)
        table = self.lifecycle.load(stored)
        if table is None:
            return None
        if old is not None:  # a table we showed for another process: keep its sockets
            table.connections = old.connections
            for connection in table.connections:
                connection.table = table
        log.warning("took over table %s (its owner stopped renewing its lease)", table_id)
        table.touch()
        self.lifecycle.resume_table(table)
        return table

    def _disown(self, table: LiveTable) -> None:
        table.owned = False
        self.absence.cancel_timers(table)
        if table.driver is not None:
            table.driver.cancel()

    # Lobby.

    def game(self, name: str) -> AnyGame:
        """A registered game; 400 if unknown."""
        return self.registry.game(name)

    async def find(self, table_id: str) -> LiveTable:
        """A table in memory, or one rebuilt from the store; 404 if there is none."""
        return await self.lifecycle.find(table_id)

    async def lobby(self, limit: int | None = None, offset: int = 0) -> list[dict[str, Any]]:
        """A page of the lobby list (open tables and recent errors), newest first; cheap and cached briefly."""
        return await self.lobby_list.page(limit, offset)

    def open_tables(self) -> list[LiveTable]:
        """Waiting, playing and paused tables in this process's memory, newest first."""
        return self.registry.open_tables()

    async def create(self, body: CreateTable, address: str = "") -> tuple[LiveTable, Seat | None, str]:
        """A new waiting table; returns it with the host's seat and token."""
        return await self.lifecycle.create(body, address)

    async def join(self, table: LiveTable, seat: int, name: str) -> str:
        """Give a free human seat to a person; returns the seat's new token."""
        token = secrets.token_urlsafe(24)
        await self.operate(table, {"op": "join", "seat": seat, "name": name, "token_hash": hash_token(token)})
        return token

    async def leave(self, table: LiveTable, token: str) -> None:
        """Give up a seat: freed before the start, handed to the computer during play."""
        await self.operate(table, {"op": "leave", "token_hash": hash_token(token)})

    async def start(self, table: LiveTable, token: str) -> None:
        """Deal: host only, while waiting; free human seats become computer players."""
        await self.operate(table, {"op": "start", "token_hash": hash_token(token)})

    async def pause(self, table: LiveTable, token: str) -> None:
        """Host only: stop the game where it is (no actions, no computer moves) until ``resume``."""
        await self.operate(table, {"op": "pause", "token_hash": hash_token(token)})

    async def resume_table(self, table: LiveTable, token: str) -> None:
        """Host only: carry on a paused game."""
        await self.operate(table, {"op": "resume", "token_hash": hash_token(token)})

    async def operate(self, table: LiveTable, operation: dict[str, Any]) -> None:
        """Run a change here if this process drives the table, else forward it to the process that does.

        Operations carry token hashes, never tokens: they may travel between processes.
        """
        if not table.owned:
            await self._forward(table, operation)
            if not table.owned:  # show the change here at once (the owner's announcement may come later)
                await self.catch_up(table)
            return
        await self.run_operation(table, operation)

    async def run_operation(self, table: LiveTable, operation: dict[str, Any]) -> None:
        """Run one change on a table this process drives (from a request here or forwarded by another process)."""
        kind = operation.get("op")
        if kind == "join":
            await self.seating.join(table, int(operation["seat"]), str(operation["name"]),
                                    str(operation["token_hash"]))
        elif kind == "leave":
            await self.seating.leave(table, str(operation["token_hash"]))
        elif kind == "start":
            check_host(table, str(operation["token_hash"]))
            await self.lifecycle.start(table)
        elif kind in ("pause", "resume"):
            check_host(table, str(operation["token_hash"]))
            await self.lifecycle.set_paused(table, kind == "pause")
        elif kind == "action":
            try:
                action = table.game.action_codec.decode(operation.get("action"))
            except Exception as exc:
                raise TableError(400, f"bad action: {excerpt(exc, 120)}") from None
            await self.decisions.accept(table, int(operation["seat"]), action, version=int(operation["version"]))
        else:
            raise TableError(400, f"unknown operation {excerpt(kind, 30)!r}")

    async def set_paused(self, table: LiveTable, paused: bool) -> None:
        """Pause a playing table or resume a paused one (the caller checked that it is the host)."""
        await self.lifecycle.set_paused(table, paused)

    def record(self, table: LiveTable) -> dict[str, Any]:
        """The finished (or stopped) game's record as JSON; 409 before (a record reveals every hand)."""
        return self.lifecycle.record(table)

    # Connections.

    def connect(self, table: LiveTable, token: str | None, address: str = "", since: int | None = None, *,
                patches: bool = False) -> Connection:
        """A new connection holding the token's seat (or spectating); it gets its first view.

        ``patches``: the client applies patches; views after its first come as differences (``views.make_patch``).

        ``since``: the version the client already has the events of; its first view then carries only the
        events after it (a page that reconnects keeps its log). Out of range: every event, as without it.
        """
        if self.address_connections.get(address, 0) >= self.limits.connections_per_address:
            raise TableError(429, "too many open connections from your address", code="connections_rate", params={})
        token_hash = hash_token(token) if token else None
        seat = None if token_hash is None else table.seat_of_token(token_hash)
        is_host = token_hash is not None and secrets.compare_digest(token_hash, table.stored.host_token_hash)
        connection = Connection(seat, table, address, is_host, self.limits.outbox, self.limits.view_interval,
                                TokenBucket(self.limits.messages_per_second, self.limits.messages_burst))
        connection.patches = patches
        if since is not None and 0 <= since < len(table.marks):
            connection.event_index = table.marks[since]
        self.address_connections[address] = self.address_connections.get(address, 0) + 1
        newly_seated = seat is not None and seat not in table.connected_seats()
        table.connections.add(connection)
        if table.status in CLOSED:
            self.tables.setdefault(table.id, table)
            self.finished.pop(table.id, None)
        if newly_seated:
            assert seat is not None
            self.absence.returned(table, seat)
            table.touch()  # the seat list shows it connected: everyone's view changed
            self._tell_presence(table)
        connection.mark_dirty()
        self.changes.kick(table)
        return connection

    def disconnect(self, table: LiveTable, connection: Connection) -> None:
        """Forget a closed connection; a person's seat starts its takeover timer."""
        table.connections.discard(connection)
        count = self.address_connections.get(connection.address, 1) - 1
        if count > 0:
            self.address_connections[connection.address] = count
        else:
            self.address_connections.pop(connection.address, None)
        seat = connection.seat
        if seat is not None and seat not in table.connected_seats():
            if table.status == PLAYING and table.owned:
                self.absence.start_timer(table, seat)
            table.touch()
            self._tell_presence(table)
        if table.status in CLOSED and not table.connections:
            self.registry.forget(table)

    async def handle(self, table: LiveTable, connection: Connection, text: str | bytes | None) -> None:
        """One client message: an action, a ping, pause/resume, or something refused with an error message."""
        if not connection.bucket or not connection.bucket.take() or not self.address_messages.take(
                connection.address):
            now = time.monotonic()
            if now - connection.throttled_at > 1.0:
                connection.throttled_at = now
                connection.send(error_message("too many messages: slow down (they were dropped)", "socket_rate", {}))
            return
        try:
            message = _parse_message(text, self.limits.message_bytes)
            kind = message["type"]
            if kind == "ping":
                connection.send({"type": "pong"})
            elif kind == "view":  # the client lost track of its view: the next one goes in full
                connection.last_view = None
                connection.mark_dirty()
            elif kind == "action":
                await self._act(table, connection, message)
            else:
                await self._host_message(table, connection, kind)
        except TableError as exc:
            connection.send(error_message(excerpt(exc.message, 300), exc.code, exc.params))
        except Exception:  # a bug: log it, tell the client, keep the socket
            log.exception("message at table %s failed", table.id)
            connection.send(error_message("the server failed to handle that message; nothing changed",
                                          "server_failed", {}))

    async def _host_message(self, table: LiveTable, connection: Connection, kind: str) -> None:
        if not connection.is_host:
            raise TableError(403, f"only the host can {kind} the table", code="host_only", params={})
        await self.operate(table, {"op": kind, "token_hash": table.stored.host_token_hash})

    def _tell_presence(self, table: LiveTable) -> None:
        if not table.owned and self.on_presence is not None:
            self.on_presence(table)

    def remote_presence(self, table: LiveTable, process: str, seats: list[Seat]) -> None:
        """Another process says these seats of our table are connected there (valid for two lease periods)."""
        self.absence.remote_presence(table, process, seats)

    # For the table's extras (social.py, timers.py): the same atomic rules as every other change.

    def seat_at(self, table: LiveTable, seat: int) -> StoredSeat:
        """The stored seat number ``seat`` of a table; 400 if the table has no such seat."""
        return seat_at(table, seat)

    def seat_of(self, table: LiveTable, token: str) -> Seat:
        """The seat a token holds at this table; 403 if none."""
        return seat_by_token(table, token)

    def new_table_id(self) -> str:
        """A fresh random table id."""
        return self.registry.new_id()

    async def write(self, work: Callable[[DbConnection], T], table: LiveTable | None = None) -> T:
        """One transaction on the writer thread (with ``table``: fenced by its lease); a failure is a 503."""
        return await self.storage.write(work, table)

    async def read(self, read: Callable[..., T], *args: Any) -> T:
        """A store read off the event loop; a failure is a 503."""
        return await self.storage.read(read, *args)

    def changed(self, table: LiveTable) -> None:
        """A stored change is applied in memory: send views, run the change hooks, start the computer."""
        self.changes.changed(table)
        self.changes.kick(table)

    def refresh(self, table: LiveTable) -> None:
        """Run the change hooks and make sure the computer plays if it must (nothing stored changed)."""
        self.changes.kick(table)

    def start_absence_timer(self, table: LiveTable, seat: Seat) -> None:
        """Start the timer after which the computer plays for a person who is away."""
        self.absence.start_timer(table, seat)

    async def play_for(self, table: LiveTable, seat: Seat, version: int) -> None:
        """The computer plays ``seat``'s move at ``version`` now (the turn timer); 409 if the table moved on."""
        await self.decisions.play_for(table, seat, version)

    async def add_table(self, stored: StoredTable, game: AnyGame, options: Any) -> LiveTable:
        """Store a new waiting table (this process takes its lease) and hold it in memory."""
        return await self.lifecycle.add_table(stored, game, options)

    def broadcast(self, table: LiveTable) -> None:
        """Mark every connection's view stale; each writer sends its connection the latest view."""
        table.touch()

    # Actions.

    async def _act(self, table: LiveTable, connection: Connection, message: dict[str, Any]) -> None:
        seat = connection.seat
        if seat is None:
            raise TableError(403, "spectators cannot act", code="spectators_cannot_act", params={})
        version = message.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise TableError(400, 'an action needs the integer "version" it was chosen on')
        try:
            action = table.game.action_codec.decode(message.get("action"))
        except DecodeError as exc:
            raise TableError(400, f"bad action: {excerpt(exc, 120)}") from None
        except Exception as exc:  # a decoder that fails on junk is refused as junk, not a crash
            raise TableError(400, f"bad action: {excerpt(exc, 120)}") from None
        if not table.owned:
            await self.operate(table, {"op": "action", "seat": seat, "version": version,
                                       "action": message.get("action")})
            return
        await self.decisions.accept(table, seat, action, version=version)

    # Storage.

    async def _forward(self, table: LiveTable, operation: dict[str, Any]) -> dict[str, Any]:
        """Send an operation on a table another process drives to that process; its answer."""
        if self.forward is None:
            raise TableError(409, f"table {table.id} is driven by another server process; reconnect to reach it",
                             code="other_process", params={})
        result = await self.forward(table.id, operation)
        return dict(result or {})

    async def catch_up(self, table: LiveTable) -> None:
        """A table another process drives moved on: read what changed and show it to our connections."""
        stored = await self.storage.read(self.store.load, table.id)
        if stored is None:
            return
        async with table.lock:
            game = table.game
            news = stored.actions[table.version:]
            if news and table.state is not None and table.record is not None:
                for seat, data in news:
                    action = game.action_codec.decode(data)
                    table.state, events = game.apply(table.state, seat, action)
                    table.record = table.record.with_action(seat, action)
                    table.events.extend(events)
                    table.marks.append(len(table.events))
            elif stored.status in (PLAYING, PAUSED, FINISHED, ERROR) and table.state is None:
                fresh = self.registry.rebuild(stored)
                table.state, table.record, table.events = fresh.state, fresh.record, fresh.events
                table.marks = fresh.marks
            table.stored = stored
            self.changes.count += 1
            table.touch()


#: Message types a client may send.
MESSAGE_TYPES = ("action", "ping", "pause", "resume", "view")


def _parse_message(text: str | bytes | None, limit: int) -> dict[str, Any]:
    """A client message as a JSON object with a known ``type``; TableError otherwise."""
    if not isinstance(text, str):
        raise TableError(400, "binary messages are not accepted: send JSON text")
    if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
        raise TableError(413, f"message too large (limit {limit} bytes)")
    try:
        message = parse_json(text)  # the core's strict msgspec parser: no NaN, no lone surrogates
    except DecodeError:
        raise TableError(400, "message is not valid JSON") from None
    if not isinstance(message, dict):
        raise TableError(400, "message must be a JSON object")
    kind = message.get("type")
    if kind not in MESSAGE_TYPES:
        raise TableError(400, f"unknown message type {excerpt(kind, 30)!r} (known: {', '.join(MESSAGE_TYPES)})")
    return message


__all__ = ["CLOSE_POLICY", "TableManager", "outcome_json"]
