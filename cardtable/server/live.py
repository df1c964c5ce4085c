"""A table in memory: its stored description, the engine state, the record and the connections."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from cardtable.core import Event, Game, GameRecord, Seat
from cardtable.core.bot import Bot
from cardtable.store import StoredTable

AnyGame = Game[Any, Any, Any, Any]


class TableError(Exception):
    """A refused request: an HTTP status for REST, the message for both REST and WebSocket."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(eq=False)
class Connection:
    """One WebSocket: the seat it holds (``None``: spectator) and its outgoing queue."""

    seat: Seat | None
    outbox: asyncio.Queue[dict[str, Any] | None] = field(default_factory=asyncio.Queue)
    #: How many of the table's events this connection has been offered already.
    event_index: int = 0
    has_view: bool = False

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message; the connection's writer sends queued messages in order."""
        self.outbox.put_nowait(message)

    def send_close(self) -> None:
        """Ask the writer to stop (the server is shutting down)."""
        self.outbox.put_nowait(None)


@dataclass(eq=False)
class LiveTable:
    """A table being played or waiting for players; the engine state is rebuilt from the record."""

    stored: StoredTable
    game: AnyGame
    options: Any
    state: Any = None
    record: GameRecord | None = None
    events: list[Event] = field(default_factory=list)
    connections: set[Connection] = field(default_factory=set)
    #: Human seats the computer plays while their person is away.
    covering: set[Seat] = field(default_factory=set)
    bots: dict[Seat, Bot] = field(default_factory=dict)
    driver: asyncio.Task[None] | None = None
    timers: dict[Seat, asyncio.Task[None]] = field(default_factory=dict)

    @property
    def id(self) -> str:
        """The table id."""
        return self.stored.id

    @property
    def status(self) -> str:
        """``waiting``, ``playing``, ``finished`` or ``abandoned``."""
        return self.stored.status

    @property
    def version(self) -> int:
        """The number of accepted actions."""
        return 0 if self.record is None else len(self.record.actions)

    @property
    def to_act(self) -> Seat | None:
        """The seat that must act now, if the game is on."""
        return None if self.state is None else self.game.to_act(self.state)

    def connected_seats(self) -> set[Seat]:
        """Seats with at least one open connection."""
        return {c.seat for c in self.connections if c.seat is not None}

    def computer_to_act(self) -> Seat | None:
        """The seat to act if the computer must act for it now (a bot seat or a covered person)."""
        seat = self.to_act
        if self.status != "playing" or seat is None:
            return None
        if self.stored.seats[seat].kind == "bot" or seat in self.covering:
            return seat
        return None

    def seat_of_token(self, token_hash: str) -> Seat | None:
        """The seat holding this token, if any."""
        for seat in self.stored.seats:
            if seat.token_hash is not None and seat.token_hash == token_hash:
                return seat.index
        return None
