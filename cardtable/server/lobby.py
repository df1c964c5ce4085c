"""The lobby list: a page of open tables and recent errors, newest first, cheap and cached briefly."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

from cardtable._version import __version__
from cardtable.server.changes import Changes
from cardtable.server.registry import TableRegistry
from cardtable.server.storage import TableStorage
from cardtable.server.views import stored_summary, summary
from cardtable.store import LISTED_STATUSES, Ladder, StoredSeat, StoredTable
from cardtable.store.ladder import bot_key, builtin_key, person_key
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
        self.ladder = Ladder(registry.store.engine)

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
        page, shown = [], []
        for stored in rows:
            live = registry.tables.get(stored.id)
            if live is not None and live.owned and live.status in LISTED_STATUSES:
                page.append(summary(live))
                shown.append(live.stored)
            elif stored.game in registry.games:
                page.append(stored_summary(stored, registry.games[stored.game].info.title))
                shown.append(stored)
        for entry, table in zip(page, shown, strict=True):
            if (table.settings or {}).get("rated"):
                entry["rated"] = True
        rated = [(entry, table) for entry, table in zip(page, shown, strict=True) if entry.get("rated")]
        if rated:
            await self.storage.read(seat_ratings, self.ladder, rated)
        if len(self._cache) > 64:
            self._cache.clear()
        self._cache[key] = (now, changes, page)
        return page


def seat_key(seat: StoredSeat) -> str | None:
    """The ladder key of a seat's player (``server/ratings.py``), or None for a free or guest's seat."""
    if seat.person is not None:
        return person_key(seat.person)
    if seat.kind == "remote" and seat.account is not None:
        return bot_key(seat.account)
    if seat.kind == "bot" and seat.bot:
        return builtin_key(f"{seat.bot}@{__version__}")
    return None


def seat_ratings(ladder: Ladder, tables: list[tuple[dict[str, Any], StoredTable]]) -> None:
    """Put each seat's rating (``rating``, ``uncertainty``, ``provisional``) into the rated tables' entries."""
    for entry, table in tables:
        keys = {seat.index: seat_key(seat) for seat in table.seats}
        found = ladder.ratings_of([k for k in keys.values() if k], table.game)
        for seat in entry["seats"]:
            key = keys.get(seat["seat"])
            rating = found.get(key) if key else None
            seat["rating"] = None if rating is None else {
                "rating": rating.rating, "uncertainty": rating.uncertainty, "provisional": rating.provisional}
