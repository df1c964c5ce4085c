"""Group commit of the computer moves decided ahead (``server/ahead.py``): every pending move of a table
stored in one transaction, then shown in memory at once; and waiting until none is pending.

A computer move for a bot account's seat that is neither forfeited nor already counted as lost is a decision the
bot was not asked (it was away: not connected): it is counted as a lost decision of kind ``away`` with the seat,
in the same transaction as the move."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from sqlalchemy.engine import Connection as DbConnection

from cardtable.core import GameRecord
from cardtable.server.absence import Absence
from cardtable.server.ahead import Move
from cardtable.server.changes import Changes
from cardtable.server.live import LiveTable, TableError
from cardtable.server.registry import TableRegistry
from cardtable.server.statuses import FINISHED
from cardtable.server.storage import TableStorage
from cardtable.store import StoredSeat
from cardtable.store.models import utcnow

#: The lost decision of a bot account's seat the computer played because the bot was not connected.
AWAY = "away"

log = logging.getLogger("cardtable.server")


class GroupCommit:
    """Flushes each table's decided moves to the store, at most one flush in flight per table."""

    def __init__(self, registry: TableRegistry, storage: TableStorage, changes: Changes, absence: Absence) -> None:
        self.registry = registry
        self.storage = storage
        self.changes = changes
        self.absence = absence

    def queue(self, table: LiveTable) -> None:
        """Make sure a flush will commit the table's uncommitted moves."""
        ahead = table.ahead
        if not ahead.flushing and ahead.unsent:
            ahead.flushing = True
            ahead.task = asyncio.get_running_loop().create_task(self._flush(table))

    async def settle(self, table: LiveTable) -> None:
        """Wait until no computer move of the table is waiting for its commit (call holding ``table.lock``)."""
        while table.ahead.moves:
            await table.ahead.settled.wait()

    async def store_decided_moves(self, wait: float = 10.0) -> None:
        """Commit the computer moves already decided (their flushes run on the writer, still running)."""
        deadline = time.monotonic() + wait
        for table in list(self.registry.tables.values()):
            while table.ahead.flushing and table.ahead.task is not None and time.monotonic() < deadline:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await asyncio.wait_for(asyncio.shield(table.ahead.task), max(0.01, deadline - time.monotonic()))

    async def _flush(self, table: LiveTable) -> None:
        """Commit every move decided at the table and not yet taken (one transaction), then show them."""
        ahead = table.ahead
        taken: list[Move] = []
        registry = self.registry
        away: list[StoredSeat] = []

        def work(c: DbConnection) -> None:
            taken.extend(ahead.take())  # kept across a retry of this write alone
            if not taken:
                return
            last = taken[-1]
            registry.store.append_actions(table.id, taken[0].index, [(m.seat, m.data) for m in taken], last.status,
                                          c, to_act=last.to_act, outcome=last.outcome, owner=registry.owner)
            away[:] = away_counted(table, taken)
            if away:
                registry.store.save_seats(table.id, away, None, c)
            if last.status == FINISHED:  # nothing left to drive: the lease goes with the last move
                registry.store.release(registry.owner, [table.id], c)
                registry.finished_in(table, last.outcome, [e for m in taken for e in m.events], c)
        try:
            await self.storage.write(work, table, fenced=True)
        except TableError as exc:
            ahead.flushing = False
            log.warning("table %s: %d computer move(s) not stored (%s); deciding again", table.id,
                        len(ahead.moves), exc.message)
            ahead.drop()
            return
        except asyncio.CancelledError:
            ahead.flushing = False
            raise
        ahead.flushing = False
        for seat in away:
            table.stored.seats[seat.index].failures[AWAY] = seat.failures[AWAY]
        moves = ahead.committed(taken)
        if moves:
            self._show_committed(table, moves)
        self.queue(table)

    def _show_committed(self, table: LiveTable, moves: list[Move]) -> None:
        """Stored moves go into the table in memory (state, record, events); views go out once for all."""
        record = table.record
        assert record is not None
        table.record = GameRecord(record.game, record.options, record.seed,
                                  record.actions + tuple((m.seat, m.action) for m in moves), record.notes)
        for move in moves:
            table.events.extend(move.events)
            table.marks.append(len(table.events))
        last = moves[-1]
        table.state = last.state
        table.stored.status, table.stored.updated_at = last.status, utcnow()
        table.stored.version, table.stored.to_act, table.stored.outcome = last.index + 1, last.to_act, last.outcome
        if last.status == FINISHED:
            self.absence.cancel_timers(table)
            table.covering.clear()
        self.changes.changed(table, moved=True)
        self.changes.wake(table)


def away_counted(table: LiveTable, moves: list[Move]) -> list[StoredSeat]:
    """The bot accounts' seats among ``moves`` the computer played while their bot was away, as copies with
    those decisions counted (kind ``away``); a forfeited seat's moves and a decision already lost are not."""
    counts: dict[int, int] = {}
    for move in moves:
        seat = table.stored.seats[move.seat]
        if seat.kind != "remote" or move.seat in table.forfeited or seat.failures.get("forfeited"):
            continue
        if table.lost_at.get(move.seat) == move.index:
            continue
        counts[move.seat] = counts.get(move.seat, 0) + 1
    out = []
    for index, n in counts.items():
        copy = table.stored.seats[index].copy()
        copy.failures[AWAY] = copy.failures.get(AWAY, 0) + n
        out.append(copy)
    return out
