"""The lobby list: a page of open tables and recent errors, newest first, cheap and cached briefly."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

from cardtable.server.changes import Changes
from cardtable.server.registry import TableRegistry
from cardtable.server.storage import TableStorage
from cardtable.server.views import stored_summary, summary
from cardtable.store import LISTED_STATUSES
from cardtable.store.models import utcnow

#: Lobby pages are reused for this long unless this process changed a table meanwhile.
LOBBY_TTL = 1.0
#: Error tables stay in the lobby list this long.
ERROR_LISTED = timedelta(hours=1)


class Lobby:
    """Reads lobby pages from the store, showing this process's own tables as they are in memory."""

    def __init__(self, registry: TableRegistry, storage: TableStorage, changes: Changes) -> None:
        self.registry = registry
        self.storage = storage
        self.changes = changes
        self._cache: dict[tuple[int, int], tuple[float, int, list[dict[str, Any]]]] = {}

    async def page(self, limit: int | None = None, offset: int = 0) -> list[dict[str, Any]]:
        """A page of the lobby list (open tables and recent errors), newest first; cheap and cached briefly."""
        registry = self.registry
        limit = max(1, min(limit or registry.limits.lobby_page, registry.limits.lobby_page_max))
        offset = max(0, offset)
        key = (limit, offset)
        cached = self._cache.get(key)
        now = time.monotonic()
        if cached is not None and cached[1] == self.changes.count and now - cached[0] < LOBBY_TTL:
            return cached[2]
        changes = self.changes.count
        rows = await self.storage.read(registry.store.lobby, limit, offset, utcnow() - ERROR_LISTED)
        page = []
        for stored in rows:
            live = registry.tables.get(stored.id)
            if live is not None and live.owned and live.status in LISTED_STATUSES:
                page.append(summary(live))
            elif stored.game in registry.games:
                page.append(stored_summary(stored, registry.games[stored.game].info.title))
        if len(self._cache) > 64:
            self._cache.clear()
        self._cache[key] = (now, changes, page)
        return page
