"""The table manager: one server's entry point to its live tables, wiring the parts that each own one concern.

Failure rules (the runner's status machine, ``cardtable.runner.RunnerStatus``; ``server/statuses.py``): a table
is ``waiting``, ``playing``, ``paused``, ``finished`` or ``error`` (and ``abandoned`` when its host leaves before
the start). Every change is one database transaction, prepared on copies and applied in memory only once
committed: if the store fails, nothing changed anywhere and the caller gets a 503. A computer player's move
that could not be stored is retried until the store works again. An engine or bot failure puts the table in
``error`` with its record and the reason kept, and everyone at the table is told.

The parts, each importing only those above it in this list (no part imports this module)::

    statuses     a table's statuses (the runner's five and abandoned)
    registry     the tables in memory and what every part shares (store, limits, lease name)
    storage      fenced writes on the writer thread, reads off the loop, failures as refusals
    changes      what follows a change: views stale, lobby count, change hooks, the driver woken
    absence      people away: takeover timers, the computer covering, their return (here or elsewhere)
    failures     a failed table stops in error, everyone told
    commits      group commit of the computer moves decided ahead
    deciders     who decides for a seat (a person or the computer), which bot, how it thinks
    driver       the task playing the computer's turns
    seats        seat layout and lookups; joining and leaving
    lifecycle    create, load, resume, find, deal, pause, idle expiry, record
    lobby        the lobby list
    decisions    a decision arrived for seat S at version D: checked, applied, stored, shown
    leases       leases renewed and lost, orphaned tables adopted, presence told to owners
    operations   named changes run here or forwarded to the owner, and caught up here
    connections  sockets: connect, disconnect, limits, client messages

The two calls that go up that list are late-bound here: a write that finds its lease lost disowns the table
(``leases``), and a change wakes the table's driver (``driver``).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

from sqlalchemy.engine import Connection as DbConnection

import cardtable
from cardtable.core.types import Seat
from cardtable.server.absence import Absence
from cardtable.server.changes import Changes
from cardtable.server.commits import GroupCommit
from cardtable.server.connections import Connections
from cardtable.server.decisions import Decisions
from cardtable.server.driver import Driver
from cardtable.server.failures import TableFailures
from cardtable.server.leases import Leases
from cardtable.server.lifecycle import Lifecycle
from cardtable.server.limits import Limits
from cardtable.server.live import CLOSE_POLICY, AnyGame, Connection, LiveTable
from cardtable.server.lobby import Lobby
from cardtable.server.operations import Operations
from cardtable.server.registry import TableRegistry
from cardtable.server.schemas import CreateTable
from cardtable.server.seats import Seating, seat_at, seat_by_token
from cardtable.server.storage import TableStorage
from cardtable.server.views import outcome_json
from cardtable.server.writer import StoreWriter
from cardtable.store import Store, StoredSeat, StoredTable, hash_token

T = TypeVar("T")


class TableManager:
    """Holds the live tables of one server and applies every change to them (through its parts)."""

    def __init__(self, store: Store, *, bot_delay: float = 0.6, takeover_after: float = 30.0,
                 games: Mapping[str, AnyGame] | None = None, limits: Limits | None = None,
                 owner: str | None = None, lease_ttl: float = 15.0) -> None:
        self.registry = TableRegistry(store, dict(games) if games is not None else cardtable.all_games(),
                                      limits or Limits(), owner, lease_ttl)
        self.writer = StoreWriter(store)
        # The parts, lowest first; the two calls that go up are late-bound (see the module doc).
        self.storage = TableStorage(self.registry, self.writer, lambda table: self.leases.disown(table))
        self.changes = Changes(lambda table: self.driver.start(table), self.registry.forget)
        self.absence = Absence(self.registry, self.changes, takeover_after)
        self.failures = TableFailures(self.registry, self.storage, self.changes, self.absence)
        self.commits = GroupCommit(self.registry, self.storage, self.changes, self.absence)
        self.driver = Driver(self.commits, self.failures, bot_delay)
        self.seating = Seating(self.registry, self.storage, self.changes, self.absence, self.commits)
        self.lifecycle = Lifecycle(self.registry, self.storage, self.changes, self.absence, self.commits,
                                   self.failures)
        self.lobby_list = Lobby(self.registry, self.storage, self.changes)
        self.decisions = Decisions(self.registry, self.storage, self.changes, self.absence, self.commits,
                                   self.failures, self.driver)
        self.leases = Leases(self.registry, self.absence, self.lifecycle)
        self.operations = Operations(self.registry, self.storage, self.changes, self.seating, self.lifecycle,
                                     self.decisions)
        self.connections = Connections(self.registry, self.changes, self.absence, self.leases, self.operations,
                                       self.decisions)
        self._background: list[asyncio.Task[None]] = []
        #: Sends a table's extras (chat, summary holds) to the other processes (set by the notifier).
        self.relay: Callable[[str, dict[str, Any]], None] | None = None
        #: Called with what another process relayed about a table (table id, payload).
        self.on_relay: list[Callable[[str, dict[str, Any]], None]] = []

    # What the parts share, and their hooks.

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
    def forward(self) -> Callable[[str, dict[str, Any]], Any] | None:
        """Forwards an operation on a table another process drives (set by the notifier); ``None``: refuse."""
        return self.operations.forward

    @forward.setter
    def forward(self, forward: Callable[[str, dict[str, Any]], Any] | None) -> None:
        self.operations.forward = forward

    @property
    def on_presence(self) -> Callable[[LiveTable], None] | None:
        """Tells the owner of a table shown here which of its seats are connected here (set by the notifier)."""
        return self.leases.on_presence

    @on_presence.setter
    def on_presence(self, tell: Callable[[LiveTable], None] | None) -> None:
        self.leases.on_presence = tell

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
        self._background.append(loop.create_task(self.leases.run()))

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

    async def housekeeping(self) -> None:
        """One round of lease renewal, takeover and expiry."""
        await self.leases.housekeeping()

    async def adopt(self, table_id: str) -> LiveTable | None:
        """Take over a table whose owner stopped (its lease expired): load it and drive it."""
        return await self.leases.adopt(table_id)

    # Lobby and tables.

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

    async def create(self, body: CreateTable, address: str = "",
                     person: tuple[int, str] | None = None) -> tuple[LiveTable, Seat | None, str]:
        """A new waiting table; returns it with the host's seat and token (``person``: a signed-in host)."""
        return await self.lifecycle.create(body, address, person)

    def record(self, table: LiveTable) -> dict[str, Any]:
        """The finished (or stopped) game's record as JSON; 409 before (a record reveals every hand)."""
        return self.lifecycle.record(table)

    # Changes by name (run here or forwarded to the process that drives the table).

    async def join(self, table: LiveTable, seat: int, name: str, person: int | None = None) -> str:
        """Give a free human seat to a person (``person``: their account, when signed in); the seat's new token."""
        token = secrets.token_urlsafe(24)
        await self.operate(table, {"op": "join", "seat": seat, "name": name, "token_hash": hash_token(token),
                                   "person": person})
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

    async def operate(self, table: LiveTable, operation: dict[str, Any]) -> dict[str, Any]:
        """Run a change here if this process drives the table, else forward it to the process that does."""
        return await self.operations.operate(table, operation)

    async def run_operation(self, table: LiveTable, operation: dict[str, Any]) -> dict[str, Any] | None:
        """Run one change on a table this process drives (from a request here or forwarded by another process)."""
        return await self.operations.run_operation(table, operation)

    async def set_paused(self, table: LiveTable, paused: bool) -> None:
        """Pause a playing table or resume a paused one (the caller checked that it is the host)."""
        await self.lifecycle.set_paused(table, paused)

    async def catch_up(self, table: LiveTable) -> None:
        """A table another process drives moved on: read what changed and show it to our connections."""
        await self.operations.catch_up(table)

    # Connections.

    def connect(self, table: LiveTable, token: str | None, address: str = "", since: int | None = None, *,
                patches: bool = False) -> Connection:
        """A new connection holding the token's seat (or spectating); it gets its first view (see ``Connections``)."""
        return self.connections.connect(table, token, address, since, patches=patches)

    def attach(self, table: LiveTable, connection: Connection) -> None:
        """A connection made elsewhere (a bot's seat over the Bot API) joins the table (see ``Connections``)."""
        self.connections.attach(table, connection)

    def disconnect(self, table: LiveTable, connection: Connection) -> None:
        """Forget a closed connection; a person's seat starts its takeover timer."""
        self.connections.disconnect(table, connection)

    async def handle(self, table: LiveTable, connection: Connection, text: str | bytes | None) -> None:
        """One client message: an action, a ping, pause/resume, or something refused with an error message."""
        await self.connections.handle(table, connection, text)

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


__all__ = ["CLOSE_POLICY", "TableManager", "outcome_json"]
