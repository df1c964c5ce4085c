"""What follows a change of a table in memory: every view marked stale, the lobby's change count, the change
hooks run, the table's driver woken in case the computer must act, and a table that is over with nobody
connected let go (into the bounded cache of finished tables: a finished game keeps nothing else in memory)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from cardtable.server.live import LiveTable
from cardtable.server.statuses import CLOSED, PLAYING

log = logging.getLogger("cardtable.server")


class Changes:
    """Tells everyone a table changed; the one place views, hooks and the driver hear of it."""

    def __init__(self, wake: Callable[[LiveTable], None],
                 forget: Callable[[LiveTable], None] | None = None) -> None:
        #: Called after every change of a table in memory (the notifier publishes it to other processes;
        #: the table's social features and timers hook in here too).
        self.on_change: list[Callable[[LiveTable], None]] = []
        #: Starts the table's driver if the computer must act and none runs (``Driver.start``).
        self.wake = wake
        #: Counts changes that lobby pages show (cached lobby pages are reused while it stands still).
        self.count = 0
        #: Lets go of a table that is over (``TableRegistry.forget``), once the hooks have seen its last change.
        self.forget = forget

    def changed(self, table: LiveTable, *, moved: bool = False) -> None:
        """A change is in memory: views, lobby cache, other processes. A move (``moved``) of a table still
        playing leaves the lobby cache alone: lobby pages may show a version up to ``LOBBY_TTL`` old."""
        if not moved or table.status != PLAYING:
            self.count += 1
        table.touch()
        self.run_hooks(table)
        if self.forget is not None and table.status in CLOSED and not table.connections:
            self.forget(table)

    def kick(self, table: LiveTable) -> None:
        """Make sure a driver task runs while the computer must act at this table; run the change hooks."""
        self.run_hooks(table)
        self.wake(table)

    def run_hooks(self, table: LiveTable) -> None:
        """The change hooks (social features, turn timer, notifier); a failing hook is logged, never fatal."""
        for hook in self.on_change:
            try:
                hook(table)
            except Exception:  # a hook must not undo a stored change
                log.exception("a change hook failed at table %s", table.id)
