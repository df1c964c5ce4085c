"""Changes asked of a table by name (join, leave, start, pause, resume, action): run here when this process
drives the table, else forwarded to the process that does and then caught up here.

Operations carry token hashes, never tokens: they may travel between processes (``server/notify.py``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from cardtable.server.changes import Changes
from cardtable.server.decisions import Decisions
from cardtable.server.lifecycle import Lifecycle
from cardtable.server.limits import excerpt
from cardtable.server.live import LiveTable, TableError
from cardtable.server.registry import TableRegistry
from cardtable.server.seats import Seating, check_host
from cardtable.server.statuses import ERROR, FINISHED, PAUSED, PLAYING
from cardtable.server.storage import TableStorage


class Operations:
    """Runs or forwards each named change, and shows here what another process changed."""

    def __init__(self, registry: TableRegistry, storage: TableStorage, changes: Changes, seating: Seating,
                 lifecycle: Lifecycle, decisions: Decisions) -> None:
        self.registry = registry
        self.storage = storage
        self.changes = changes
        self.seating = seating
        self.lifecycle = lifecycle
        self.decisions = decisions
        #: Forwards an operation on a table another process drives (set by the notifier); ``None``: refuse.
        self.forward: Callable[[str, dict[str, Any]], Any] | None = None
        #: Operations the table's extras add (the Bot API's), by name: ``(table, operation) -> result``.
        self.extra: dict[str, Callable[[LiveTable, dict[str, Any]], Awaitable[dict[str, Any] | None]]] = {}

    async def operate(self, table: LiveTable, operation: dict[str, Any]) -> dict[str, Any]:
        """Run a change here if this process drives the table, else forward it to the process that does; what
        it answers (most operations answer nothing: ``{}``).

        Operations carry token hashes, never tokens: they may travel between processes.
        """
        if not table.owned:
            result = await self._forward(table, operation)
            if not table.owned:  # show the change here at once (the owner's announcement may come later)
                await self.catch_up(table)
            return result
        return await self.run_operation(table, operation) or {}

    async def run_operation(self, table: LiveTable, operation: dict[str, Any]) -> dict[str, Any] | None:
        """Run one change on a table this process drives (from a request here or forwarded by another process)."""
        kind = operation.get("op")
        if isinstance(kind, str) and kind in self.extra:
            return await self.extra[kind](table, operation)
        if kind == "join":
            person = operation.get("person")
            await self.seating.join(table, int(operation["seat"]), str(operation["name"]),
                                    str(operation["token_hash"]), int(person) if person is not None else None)
        elif kind == "leave":
            await self.seating.leave(table, str(operation["token_hash"]))
        elif kind == "start":
            check_host(table, str(operation["token_hash"]))
            await self.lifecycle.start(table)
        elif kind in ("pause", "resume"):
            check_host(table, str(operation["token_hash"]))
            await self.lifecycle.set_paused(table, kind == "pause")
        elif kind == "action":
            try:
                action = table.game.action_codec.decode(operation.get("action"))
            except Exception as exc:
                raise TableError(400, f"bad action: {excerpt(exc, 120)}") from None
            await self.decisions.accept(table, int(operation["seat"]), action, version=int(operation["version"]))
        else:
            raise TableError(400, f"unknown operation {excerpt(kind, 30)!r}")
        return None

    async def _forward(self, table: LiveTable, operation: dict[str, Any]) -> dict[str, Any]:
        """Send an operation on a table another process drives to that process; its answer."""
        if self.forward is None:
            raise TableError(409, f"table {table.id} is driven by another server process; reconnect to reach it",
                             code="other_process", params={})
        result = await self.forward(table.id, operation)
        return dict(result or {})

    async def catch_up(self, table: LiveTable) -> None:
        """A table another process drives moved on: read what changed and show it to our connections.

        Catch-ups of one table run one at a time, each reading the store once it holds the table's lock: one
        that read earlier but got the lock later would put an older table back (seen: a game shown as still
        playing after it had ended, to the sockets of the process that did not drive it).
        """
        async with table.lock:
            stored = await self.storage.read(self.registry.store.load, table.id)
            if stored is None:
                return
            game = table.game
            news = stored.actions[table.version:]
            if news and table.state is not None and table.record is not None:
                for seat, data in news:
                    action = game.action_codec.decode(data)
                    table.state, events = game.apply(table.state, seat, action)
                    table.record = table.record.with_action(seat, action)
                    table.events.extend(events)
                    table.marks.append(len(table.events))
            elif stored.status in (PLAYING, PAUSED, FINISHED, ERROR) and table.state is None:
                fresh = self.registry.rebuild(stored)
                table.state, table.record, table.events = fresh.state, fresh.record, fresh.events
                table.marks = fresh.marks
            table.stored = stored
            self.changes.count += 1
            table.touch()
