"""Computer moves decided ahead of their commit (group commit per table).

At a table where no seated person is connected, the computer players do not wait for each move's commit:
each decided move is applied to a *head* state kept here, handed to the store writer, and the next move is
decided from the head at once. The writer commits every move queued for the table in one transaction
(one ``INSERT`` of several actions, one fenced ``UPDATE``). Only then are the moves applied to the table in
memory (``LiveTable.state``, record, events) and views go out: nothing anyone sees was not stored first.
If the process dies, the moves still here were never shown to anyone; after a restart they are simply
decided again from the last committed action.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from cardtable.core import Event
from cardtable.core.types import Seat


@dataclass(slots=True)
class Move:
    """A decided computer move and the table after it (not stored yet)."""

    index: int
    seat: Seat
    action: Any
    data: dict[str, Any]
    state: Any
    events: list[Event]
    status: str
    to_act: Seat | None
    outcome: dict[str, Any] | None
    generation: int


@dataclass(eq=False)
class Ahead:
    """One table's moves decided but not committed yet, oldest first; at most one flush is in flight."""

    moves: list[Move] = field(default_factory=list)
    #: The moves no flush has taken yet (the writer thread takes them with ``popleft``: thread-safe).
    unsent: deque[Move] = field(default_factory=deque)
    flushing: bool = False
    #: Bumped when uncommitted moves are dropped (a failed flush): moves of older generations are ignored.
    generation: int = 0
    #: The last flush failed: the driver waits a little before deciding again.
    failed: bool = False
    #: Set while no move is pending.
    settled: asyncio.Event = field(default_factory=asyncio.Event)
    #: The flush in flight, if any.
    task: asyncio.Task[None] | None = None

    def __post_init__(self) -> None:
        self.settled.set()

    def head(self, state: Any, version: int) -> tuple[Any, int]:
        """The state after every decided move and its version (the table's own when none is pending)."""
        if self.moves:
            last = self.moves[-1]
            return last.state, last.index + 1
        return state, version

    def add(self, move: Move) -> None:
        """A new decided move, to be committed after those before it."""
        self.moves.append(move)
        self.unsent.append(move)
        self.settled.clear()

    def take(self) -> list[Move]:
        """The moves no flush has taken yet (called on the writer thread)."""
        taken = []
        while True:
            try:
                taken.append(self.unsent.popleft())
            except IndexError:
                return taken

    def committed(self, moves: list[Move]) -> list[Move]:
        """These moves are stored: drop them from the pending ones; those still current, in order."""
        current = [m for m in moves if m.generation == self.generation]
        del self.moves[:len(current)]
        if not self.moves:
            self.settled.set()
        return current

    def drop(self) -> None:
        """Forget every uncommitted move (their commit failed); the driver decides again from the table."""
        self.moves.clear()
        self.unsent.clear()
        self.generation += 1
        self.failed = True
        self.settled.set()
