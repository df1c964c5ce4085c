"""People away from their seats: the takeover timers, the computer covering for them, and their return
(connected here, or to another process that says so)."""

from __future__ import annotations

import asyncio
import time

from cardtable.core.types import Seat
from cardtable.server.changes import Changes
from cardtable.server.live import LiveTable
from cardtable.server.registry import TableRegistry
from cardtable.server.statuses import PLAYING


class Absence:
    """Hands a person's seat to the computer ``takeover_after`` seconds after they left, and back when they return."""

    def __init__(self, registry: TableRegistry, changes: Changes, takeover_after: float) -> None:
        self.registry = registry
        self.changes = changes
        self.takeover_after = takeover_after

    def absent_people(self, table: LiveTable) -> list[Seat]:
        """The seats of people (and remote bots) with no connection, here or at another process."""
        connected = table.connected_seats()
        return [s.index for s in table.stored.seats if s.kind in ("human", "remote") and s.index not in connected]

    def start_timer(self, table: LiveTable, seat: Seat) -> None:
        """Start the timer after which the computer plays for the person at ``seat`` (unless one runs).

        A remote bot's seat is covered at once: a program that dropped its connection is not thinking."""
        if seat in table.timers or seat in table.covering:
            return
        if table.stored.seats[seat].kind == "remote":
            table.covering.add(seat)
            self.changes.changed(table)
            self.changes.kick(table)
            return
        table.timers[seat] = asyncio.get_running_loop().create_task(self._take_over_later(table, seat))

    async def _take_over_later(self, table: LiveTable, seat: Seat) -> None:
        """After the takeover time, the computer plays for a person who is still away."""
        await asyncio.sleep(self.takeover_after)
        table.timers.pop(seat, None)
        if table.status == PLAYING and seat not in table.connected_seats():
            table.covering.add(seat)
            self.changes.changed(table)
            self.changes.kick(table)

    def returned(self, table: LiveTable, seat: Seat) -> None:
        """A person is back: stop the timer and take the seat back from the computer."""
        timer = table.timers.pop(seat, None)
        if timer is not None:
            timer.cancel()
        table.covering.discard(seat)

    def cancel_timers(self, table: LiveTable) -> None:
        """Stop every takeover timer of the table (it finished, stopped or left this process)."""
        for timer in table.timers.values():
            timer.cancel()
        table.timers.clear()

    def remote_presence(self, table: LiveTable, process: str, seats: list[Seat]) -> None:
        """Another process says these seats of our table are connected there (valid for two lease periods)."""
        before = table.connected_seats()
        table.remote[process] = (set(seats), time.monotonic() + 2 * self.registry.lease_ttl)
        now = table.connected_seats()
        for seat in now - before:
            self.returned(table, seat)
        for seat in before - now:
            if table.status == PLAYING:
                self.start_timer(table, seat)
        if now != before:
            self.changes.changed(table)
            self.changes.kick(table)
