"""Group commit of the computer moves decided ahead (``server/ahead.py``): every pending move of a table
stored in one transaction, then shown in memory at once; and waiting until none is pending."""

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
from cardtable.store.models import utcnow

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

        def work(c: DbConnection) -> None:
            taken.extend(ahead.take())  # kept across a retry of this write alone
            if not taken:
                return
            last = taken[-1]
            registry.store.append_actions(table.id, taken[0].index, [(m.seat, m.data) for m in taken], last.status,
                                          c, to_act=last.to_act, outcome=last.outcome, owner=registry.owner)
            if last.status == FINISHED:  # nothing left to drive: the lease goes with the last move
                registry.store.release(registry.owner, [table.id], c)
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
