"""A table in memory: its stored description, the engine state, the record and the connections."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, ClassVar

from cardtable.core import Event, Game, GameRecord, Seat
from cardtable.core.bot import Bot
from cardtable.server.ahead import Ahead
from cardtable.server.limits import TokenBucket
from cardtable.server.refusals import RefusalCode
from cardtable.store import StoredTable

AnyGame = Game[Any, Any, Any, Any]
#: Close codes: the server restarts (the page reconnects by itself), a client broke a limit.
CLOSE_RESTART = 1012
CLOSE_POLICY = 1008
#: The reason sent with a restart close; the page recognises it.
RESTART_REASON = "server restarting; reconnect"


class TableError(Exception):
    """A refused request: an HTTP status for REST, the message for both REST and WebSocket."""

    def __init__(self, status: int, message: str, code: RefusalCode | None = None,
                 params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        #: The refusal's code for translated pages (``messages.RefusalCode``); ``None``: shown as the English line.
        self.code = code
        #: What the page fills into its sentence for ``code`` (seats are numbers from 0); ``None``: the line itself.
        self.params = params


@dataclass(eq=False)
class Connection:
    """One WebSocket: the seat it holds (``None``: spectator), a bounded outbox and a 'view is stale' flag.

    Views are not queued: a change marks the connection dirty and its writer sends the latest view when the
    socket can take it, so a slow reader gets the newest view, never a backlog. Small messages (errors,
    pongs) queue up to a limit; past it the connection is closed.
    """

    seat: Seat | None
    table: Any = None
    address: str = ""
    is_host: bool = False
    outbox_limit: int = 32
    view_interval: float = 0.0
    bucket: TokenBucket | None = None
    #: How many of the table's events this connection has been offered already.
    event_index: int = 0
    has_view: bool = False
    dirty: bool = False
    closing: tuple[int, str] | None = None
    messages: deque[dict[str, Any]] = field(default_factory=deque)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    #: When this connection was last told it sends too fast (refusals are not repeated every message).
    throttled_at: float = 0.0
    #: Whether the client applies patches (``?patches=1``): then views after the first go as differences.
    patches: bool = False
    #: The last view sent on this connection (``views.BuiltView``); ``None``: the next one goes in full.
    last_view: Any = None
    #: Whether a program holds this connection (a bot account's seat), not a person's page.
    program: ClassVar[bool] = False

    def send(self, message: dict[str, Any]) -> None:
        """Queue a small message; a reader this far behind is closed instead."""
        if self.closing is not None:
            return
        if len(self.messages) >= self.outbox_limit:
            self.messages.clear()
            self.close(CLOSE_POLICY, "too many unread messages: read what the server sends")
            return
        self.messages.append(message)
        self.wake.set()

    def mark_dirty(self) -> None:
        """The table changed: send this connection its view when it can take it."""
        self.dirty = True
        self.wake.set()

    def close(self, code: int, reason: str) -> None:
        """Ask the writer to close the socket after what is queued."""
        if self.closing is None:
            self.closing = (code, reason)
        self.wake.set()

    def send_close(self) -> None:
        """Close because the server is restarting (the page reconnects by itself)."""
        self.close(CLOSE_RESTART, RESTART_REASON)


@dataclass(eq=False)
class LiveTable:
    """A table being played or waiting for players; the engine state is rebuilt from the record."""

    stored: StoredTable
    game: AnyGame
    options: Any
    state: Any = None
    record: GameRecord | None = None
    events: list[Event] = field(default_factory=list)
    #: ``marks[v]``: how many events there were once version ``v`` was reached.
    marks: list[int] = field(default_factory=list)
    connections: set[Connection] = field(default_factory=set)
    #: People's (and bots') seats the computer plays while their player is away.
    covering: set[Seat] = field(default_factory=set)
    #: Bot seats forfeited this game (too many lost decisions): the computer plays them to the end.
    forfeited: set[Seat] = field(default_factory=set)
    #: Per bot seat, the last decision (version) already counted as lost (timeout, crashed, ...): the computer's
    #: move for it then is not counted again as ``away``.
    lost_at: dict[Seat, int] = field(default_factory=dict)
    bots: dict[Seat, Bot] = field(default_factory=dict)
    #: Average seconds each computer player takes to decide (small ones think on the event loop).
    think_time: dict[Seat, float] = field(default_factory=dict)
    driver: asyncio.Task[None] | None = None
    timers: dict[Seat, asyncio.Task[None]] = field(default_factory=dict)
    #: Serialises changes: each one is checked, stored, then applied in memory while holding it.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: Counts changes of anything a view shows; views are cached per change.
    change: int = 0
    #: Views built since the last change, per audience (seat, events already sent): ``views.BuiltView``.
    views: dict[tuple[Seat | None, int], Any] = field(default_factory=dict)
    #: Patches (or full views where a patch would not be smaller) since the last change, per audience and base.
    patches: dict[tuple[Seat | None, int, int], str] = field(default_factory=dict)
    #: Parts of views that depend on the engine state only (observations, legal actions), for ``parts_of``.
    parts: dict[tuple[str, Seat | None], Any] = field(default_factory=dict)
    parts_of: Any = None
    #: Event JSON by index into ``events`` (for the list ``events_json_of``).
    events_json: dict[int, dict[str, Any]] = field(default_factory=dict)
    events_json_of: Any = None
    #: Whether this process drives the table (holds its lease); others only show it.
    owned: bool = True
    #: Seats connected to other processes: process → (seats, until when, ``time.monotonic``).
    remote: dict[str, tuple[set[Seat], float]] = field(default_factory=dict)
    #: Computer moves decided but not committed yet (never shown to anyone; see ``server/ahead.py``).
    ahead: Ahead = field(default_factory=Ahead)

    @property
    def id(self) -> str:
        """The table id."""
        return self.stored.id

    @property
    def status(self) -> str:
        """``waiting``, ``playing``, ``paused``, ``finished``, ``error`` or ``abandoned``."""
        return self.stored.status

    @property
    def error(self) -> str | None:
        """Why the table stopped, when its status is ``error``."""
        return self.stored.error

    @property
    def version(self) -> int:
        """The number of accepted actions."""
        return 0 if self.record is None else len(self.record.actions)

    @property
    def to_act(self) -> Seat | None:
        """The seat that must act now, if the game is on (nobody once it is over: finished by the rules, or by a
        side's resignation)."""
        if self.state is None or self.status in ("error", "finished"):
            return None
        return self.game.to_act(self.state)

    def touch(self) -> None:
        """Something every view shows changed: drop cached views and mark every connection stale."""
        self.change += 1
        self.views.clear()
        self.patches.clear()
        for connection in self.connections:
            connection.mark_dirty()

    def connected_seats(self) -> set[Seat]:
        """Seats with at least one open connection (here, or to another process that said so lately)."""
        seats = {c.seat for c in self.connections if c.seat is not None}
        if self.remote:
            now = time.monotonic()
            for process, (there, until) in list(self.remote.items()):
                if until < now:
                    del self.remote[process]
                else:
                    seats |= there
        return seats

    def computer_to_act(self) -> Seat | None:
        """The seat to act if the computer must act for it now (a bot seat or a covered person)."""
        if self.status != "playing" or not self.owned:
            return None
        seat = self.to_act
        if seat is None:
            return None
        if self.stored.seats[seat].kind == "bot" or seat in self.covering or seat in self.forfeited:
            return seat
        return None

    def seat_of_token(self, token_hash: str) -> Seat | None:
        """The seat holding this token, if any."""
        for seat in self.stored.seats:
            if seat.token_hash is not None and seat.token_hash == token_hash:
                return seat.index
        return None
