"""A decision arrived for seat S at version D (a person's action, one forwarded by another process, or the
turn timer's): checked, applied, stored, then shown; anything refused changes nothing.

The version a decision was chosen on is its id: one accepted decision per version, so a late or repeated
answer for a version the table has left is refused as stale. The computer's own moves at a table nobody
seated watches take the group-commit path instead (``server/driver.py``, ``server/commits.py``).
"""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy.engine import Connection as DbConnection

from cardtable.core import IllegalAction, to_json
from cardtable.core.types import Seat
from cardtable.server.absence import Absence
from cardtable.server.changes import Changes
from cardtable.server.commits import GroupCommit
from cardtable.server.deciders import bot_for, choose
from cardtable.server.driver import Driver
from cardtable.server.failures import TableFailures
from cardtable.server.limits import excerpt
from cardtable.server.live import LiveTable, TableError
from cardtable.server.registry import TableRegistry
from cardtable.server.statuses import FINISHED, PLAYING
from cardtable.server.storage import TableStorage
from cardtable.store.models import utcnow


class Decisions:
    """Accepts decisions for the seats of the tables this process drives."""

    def __init__(self, registry: TableRegistry, storage: TableStorage, changes: Changes, absence: Absence,
                 commits: GroupCommit, failures: TableFailures, driver: Driver) -> None:
        self.registry = registry
        self.storage = storage
        self.changes = changes
        self.absence = absence
        self.commits = commits
        self.failures = failures
        self.driver = driver

    async def accept(self, table: LiveTable, seat: Seat, action: Any, *, version: int,
                     computer: bool = False, driving: bool = False) -> None:
        """Check, apply, store, then tell everyone; an illegal action or a store failure changes nothing.

        ``computer``: the computer decided (a person's decision takes their seat back from it). ``driving``:
        a computer player's move, refused if a person took the seat over while it thought."""
        async with table.lock:
            await self.commits.settle(table)
            if table.status != PLAYING:
                raise TableError(409, f"the table is {table.status}", code="table_is", params={"status": table.status})
            if driving and table.computer_to_act() != seat:
                raise TableError(409, f"seat {seat} is no longer the computer's to play", code="no_longer_computer",
                                 params={"seat": seat})
            if version != table.version:
                raise TableError(409, f"stale version {version}: the table is at version {table.version}",
                             code="stale", params={})
            if seat != table.to_act:
                raise TableError(409, f"it is not your turn (seat {table.to_act} is to act)", code="not_your_turn",
                                 params={"seat": table.to_act})
            if not computer and seat in table.covering:
                self.absence.returned(table, seat)
            try:
                state, events = table.game.apply(table.state, seat, action)
                outcome = table.game.outcome(state)
                to_act = table.game.to_act(state)
            except IllegalAction as exc:
                raise TableError(409, excerpt(exc, 200), code="illegal") from None
            except Exception as exc:
                await self.failures.fail(table, f"the rules engine failed on seat {seat}'s action: {excerpt(exc, 160)}")
                raise TableError(500, f"the table stopped: {table.error}", code="table_stopped",
                                 params={"reason": str(table.error)}) from None
            status = FINISHED if outcome is not None else PLAYING
            data = to_json(action)
            outcome_data = None if outcome is None else dict(to_json(outcome))
            store, owner = self.registry.store, self.registry.owner
            # Committed before any view goes out: nothing accepted is ever lost.
            def work(c: DbConnection) -> None:
                store.append_action(table.id, version, seat, data, status, c, to_act=to_act,
                                    outcome=outcome_data, owner=owner)
                if status == FINISHED:  # nothing left to drive: the lease goes with the last move
                    store.release(owner, [table.id], c)
                    self.registry.finished_in(table, outcome_data, list(events), c)
            await self.storage.write(work, table, fenced=True)
            assert table.record is not None
            table.state, table.record = state, table.record.with_action(seat, action)
            table.events.extend(events)
            table.marks.append(len(table.events))
            table.stored.status, table.stored.updated_at = status, utcnow()
            table.stored.version, table.stored.to_act, table.stored.outcome = version + 1, to_act, outcome_data
            if status == FINISHED:
                self.absence.cancel_timers(table)
                table.covering.clear()
            self.changes.changed(table, moved=True)
            self.driver.start(table)

    async def play_for(self, table: LiveTable, seat: Seat, version: int) -> None:
        """The computer plays ``seat``'s move at ``version`` now (the turn timer); 409 if the table moved on."""
        if table.version != version or table.to_act != seat or table.status != PLAYING or not table.owned:
            raise TableError(409, f"stale version {version}: the table is at version {table.version}",
                             code="stale", params={})
        legal = table.game.legal_actions(table.state, seat)
        observation = table.game.observe(table.state, seat)
        action = await asyncio.to_thread(choose, bot_for(table, seat), observation, legal)
        await self.accept(table, seat, action, version=version, computer=True)
