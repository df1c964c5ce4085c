"""A table whose rules engine or computer player fails stops in ``error``: record and reason kept, its lease
given up, everyone at the table told."""

from __future__ import annotations

import logging

from sqlalchemy.engine import Connection as DbConnection

from cardtable.server.absence import Absence
from cardtable.server.changes import Changes
from cardtable.server.live import LiveTable, TableError
from cardtable.server.messages import error_message
from cardtable.server.registry import TableRegistry
from cardtable.server.statuses import ERROR
from cardtable.server.storage import TableStorage
from cardtable.store.models import utcnow

log = logging.getLogger("cardtable.server")


class TableFailures:
    """Stops failed tables (the one way a table reaches ``error`` while this process drives it)."""

    def __init__(self, registry: TableRegistry, storage: TableStorage, changes: Changes, absence: Absence) -> None:
        self.registry = registry
        self.storage = storage
        self.changes = changes
        self.absence = absence

    async def fail(self, table: LiveTable, reason: str) -> None:
        """The engine or a computer player failed: ERROR, record and reason kept, everyone told."""
        log.error("table %s stopped: %s", table.id, reason)
        table.stored.status, table.stored.error, table.stored.updated_at = ERROR, reason, utcnow()
        self.absence.cancel_timers(table)
        store, owner = self.registry.store, self.registry.owner
        try:
            def work(c: DbConnection) -> None:
                store.set_status(table.id, ERROR, c, error=reason)
                store.release(owner, [table.id], c)
            await self.storage.write(work, table)
        except TableError:  # the store is down too: the table is stopped in memory; a restart replays it
            log.error("could not store the error of table %s", table.id)
        for connection in table.connections:
            connection.send(error_message(f"The table stopped: {reason}", "table_stopped", {"reason": reason}))
        self.changes.changed(table)
