"""Presence told twice in quick succession (a bot's seat attached, then gone) reaches the owner in the order it
changed: the owner's last word is the latest, whichever lookup of the owner ended first."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from types import SimpleNamespace
from typing import Any, cast

from cardtable.server.live import LiveTable
from cardtable.server.manager import TableManager
from cardtable.server.notify import Notifier


class _Shown:
    """A table shown here: its id and the seats connected here."""

    def __init__(self) -> None:
        self.id = "t1"
        self.seats = {1}

    def connected_seats(self) -> set[int]:
        return set(self.seats)


def test_the_owner_hears_the_latest_presence_last() -> None:
    first_lookup_may_end = threading.Event()
    lookups: list[str] = []

    def owner_of(table_id: str) -> str:
        lookups.append(table_id)
        if len(lookups) == 1:  # the first telling's lookup is slow: it ends after the second's
            assert first_lookup_may_end.wait(10)
        return "owner"

    manager = SimpleNamespace(owner="here", store=SimpleNamespace(owner_of=owner_of))
    sent: list[dict[str, Any]] = []

    async def scenario() -> None:
        notifier = Notifier(cast(TableManager, manager))

        async def record(payload: dict[str, Any]) -> None:
            sent.append(payload)
            if len(sent) == 1:
                first_lookup_may_end.set()

        notifier._notify = record  # type: ignore[method-assign]
        shown = _Shown()
        notifier._presence(cast(LiveTable, shown))  # the bot's seat attached here
        while not lookups:
            await asyncio.sleep(0.01)
        shown.seats = set()  # and its connection went
        notifier._presence(cast(LiveTable, shown))
        while len(sent) < 2:
            await asyncio.sleep(0.01)

    # On a thread of its own: Playwright's sync API keeps an event loop running in the test thread when the
    # browser tests ran first in this worker, and asyncio.run refuses to start inside it.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, asyncio.wait_for(scenario(), 20)).result()
    assert sent[-1]["seats"] == [], sent
    assert all(m["to"] == "owner" and m["table"] == "t1" and m["from"] == "here" for m in sent)
