"""Tables shared between server processes: this process's leases renewed every few seconds, a table lost to
another process disowned, orphaned tables adopted, and the seats connected here told to a table's owner."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from cardtable.server.absence import Absence
from cardtable.server.lifecycle import Lifecycle
from cardtable.server.limits import excerpt
from cardtable.server.live import LiveTable
from cardtable.server.registry import TableRegistry
from cardtable.server.statuses import CLOSED

log = logging.getLogger("cardtable.server")


class Leases:
    """Keeps each table driven by exactly one process: renews, disowns, adopts; runs the housekeeping rounds."""

    def __init__(self, registry: TableRegistry, absence: Absence, lifecycle: Lifecycle) -> None:
        self.registry = registry
        self.absence = absence
        self.lifecycle = lifecycle
        self._adopting = asyncio.Lock()
        #: When the leases were last renewed (``time.monotonic()``; the start counts: it took them). ``/readyz``
        #: calls a process whose renewals stopped for a lease's lifetime not ready.
        self.renewed_at = time.monotonic()
        #: Tells the owner of a table shown here which of its seats are connected here (set by the notifier).
        self.on_presence: Callable[[LiveTable], None] | None = None

    async def run(self) -> None:
        """Every few seconds: renew leases, take over orphaned tables, expire idle waiting tables."""
        period = max(0.5, min(self.registry.lease_ttl / 3, 5.0))
        while True:
            await asyncio.sleep(period)
            try:
                await self.housekeeping()
            except Exception as exc:  # the database is down, say: try again next time
                log.warning("housekeeping failed: %s", excerpt(exc, 200))

    async def housekeeping(self) -> None:
        """One round of lease renewal, takeover and expiry."""
        registry = self.registry
        # Only the tables held before the renewal began can be missing from its answer for a reason: one
        # created or adopted meanwhile was leased after the renewal read the leases.
        before = [t for t in registry.tables.values() if t.owned]
        held = await asyncio.to_thread(registry.store.renew, registry.owner, registry.lease_ttl)
        self.renewed_at = time.monotonic()
        for table in before:
            if table.owned and table.status not in CLOSED and table.id not in held:
                log.warning("lost the lease of table %s; another process drives it now", table.id)
                self.disown(table)
        for table_id in await asyncio.to_thread(registry.store.unowned_open):
            await self.adopt(table_id)
        for table in list(registry.tables.values()):
            if not table.owned:
                if table.connections:
                    self.tell_presence(table)
                else:
                    registry.tables.pop(table.id, None)
                    registry.evicted(table.id)
        await self.lifecycle.expire_idle()

    async def adopt(self, table_id: str) -> LiveTable | None:
        """Take over a table whose owner stopped (its lease expired): load it and drive it."""
        async with self._adopting:  # one at a time: two loads of one table would both drive it
            current = self.registry.tables.get(table_id)
            if current is not None and current.owned:
                return current
            return await self._adopt(table_id)

    async def _adopt(self, table_id: str) -> LiveTable | None:
        registry = self.registry
        if not await asyncio.to_thread(registry.store.acquire, table_id, registry.owner, registry.lease_ttl):
            return None
        stored = await asyncio.to_thread(registry.store.load, table_id)
        if stored is None or stored.status in CLOSED:
            return None
        old = registry.tables.get(table_id)
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

    def disown(self, table: LiveTable) -> None:
        """Another process holds the table's lease now: stop driving it here (it is shown, changes forwarded)."""
        table.owned = False
        self.absence.cancel_timers(table)
        if table.driver is not None:
            table.driver.cancel()

    def tell_presence(self, table: LiveTable) -> None:
        """Tell the owner of a table shown here which of its seats are connected here (if another drives it)."""
        if not table.owned and self.on_presence is not None:
            self.on_presence(table)
