"""The manager's store reads and writes: one transaction on the writer thread, fenced by the table's lease,
a failure turned into the refusal the caller sees (nothing changed)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy.engine import Connection as DbConnection

from cardtable.server.limits import excerpt
from cardtable.server.live import LiveTable, TableError
from cardtable.server.registry import TableRegistry
from cardtable.server.writer import StoreWriter
from cardtable.store import LeaseLost, StaleVersion, Store

log = logging.getLogger("cardtable.server")
T = TypeVar("T")
#: The one-line answer when the database cannot take a change.
STORE_DOWN = "the database is unavailable right now; nothing changed, try again"


class TableStorage:
    """Writes through the store writer and reads off the event loop, for the tables of one registry."""

    def __init__(self, registry: TableRegistry, writer: StoreWriter,
                 lease_lost: Callable[[LiveTable], None]) -> None:
        self.registry = registry
        self.writer = writer
        #: Called when a write finds that another process holds the table's lease now (this one stops driving it).
        self.lease_lost = lease_lost

    async def write(self, work: Callable[[DbConnection], T], table: LiveTable | None = None, *,
                    fenced: bool = False) -> T:
        """Run one transaction on the writer thread; a store failure is a 503 (nothing changed).

        With ``table``, the transaction first checks (and extends) this process's lease of it: a process that
        lost a table to another never writes to it; it stops driving it and forwards from then on. ``fenced``:
        the work checks the lease itself (``Store.append_actions`` with ``owner``; housekeeping extends it).
        """
        registry = self.registry
        if table is not None and not fenced:
            table_id, inner = table.id, work

            def work(c: DbConnection) -> T:
                if not registry.store.hold(table_id, registry.owner, registry.lease_ttl, c):
                    raise _LeaseLost(table_id)
                return inner(c)
        try:
            return await self.writer.write(work)
        except TableError:
            raise
        except (_LeaseLost, LeaseLost):
            assert table is not None
            log.warning("table %s is driven by another process now; this one stops driving it", table.id)
            self.lease_lost(table)
            raise TableError(409, f"table {table.id} moved to another server process; try again",
                             code="other_process", params={}) from None
        except StaleVersion:
            raise TableError(409, f"table {table.id if table else ''} moved on meanwhile; try again") from None
        except KeyError:
            raise TableError(404, "the table is no longer in the store", code="no_table", params={}) from None
        except Exception as exc:
            log.warning("the store failed: %s", excerpt(exc, 200))
            raise TableError(503, STORE_DOWN, code="store_down", params={}) from None

    async def read(self, read: Callable[..., T], *args: Any) -> T:
        """A read off the event loop; a store failure is a 503."""
        try:
            return await asyncio.to_thread(read, *args)
        except Exception as exc:
            log.warning("the store failed: %s", excerpt(exc, 200))
            raise TableError(503, STORE_DOWN, code="store_down", params={}) from None


class _LeaseLost(Exception):
    """This process no longer holds the lease of a table it was about to write to."""


def status_writer(store: Store, table_id: str, status: str) -> Callable[[DbConnection], None]:
    """A write that sets one table's status."""
    return lambda c: store.set_status(table_id, status, c)
