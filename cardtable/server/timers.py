"""The turn timer (FEM V, "tiempo de juego"): a person who lets the time run out has the computer play
that one move for them, and the table is told so.

A timer belongs to one table version: any accepted action makes it stale, so it can never play a move
for a turn that is already over.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from cardtable.core.types import Seat
from cardtable.server.live import LiveTable, TableError
from cardtable.server.manager import TableManager
from cardtable.server.social import Social

log = logging.getLogger("cardtable.server")


@dataclass
class _Running:
    version: int
    seat: Seat
    task: asyncio.Task[None]


class TurnTimers:
    """Starts, restarts and fires the turn timers of the manager's tables."""

    def __init__(self, manager: TableManager, social: Social) -> None:
        self.manager = manager
        self.social = social
        self.running: dict[str, _Running] = {}

    def on_change(self, table: LiveTable) -> None:
        """After any change: time the person to act now, if the table has a timer (a no-op otherwise)."""
        seconds = self.social.of(table.id).settings.turn_seconds
        seat = table.to_act
        current = self.running.get(table.id)
        if current is not None and current.version == table.version and current.seat == seat \
                and not current.task.done():
            return
        if current is not None:
            current.task.cancel()
            del self.running[table.id]
        if seconds is None or seat is None or table.status != "playing" or table.computer_to_act() is not None:
            return
        if table.stored.seats[seat].kind != "human":
            return  # a bot account's seat has its own decision clock (botapi/remote.py): never played silently
        task = asyncio.get_running_loop().create_task(self._expire(table, table.version, seat, seconds))
        self.running[table.id] = _Running(table.version, seat, task)
        self.social.broadcast(table, {"type": "turn_timer", "seat": seat, "version": table.version,
                                      "seconds": seconds})

    async def _expire(self, table: LiveTable, version: int, seat: Seat, seconds: float) -> None:
        """When the time is up and the turn is unchanged, the computer plays this one move."""
        await self.social.wait_for_readers(table)  # the clock starts once the round's summary is read
        await asyncio.sleep(seconds)
        if table.version != version or table.to_act != seat or table.status != "playing":
            return
        if table.computer_to_act() is not None:
            return  # the computer already plays this seat (the person is away)
        try:
            await self.manager.play_for(table, seat, version)
        except TableError as exc:  # moved on meanwhile (409), or the store is down (503): the person still can
            log.warning("turn timer at table %s seat %s: %s", table.id, seat, exc.message)
            return
        except Exception:  # a failure here must not pass silently: log it; the person can still move
            log.exception("turn timer failed at table %s seat %s", table.id, seat)
            return
        self.social.announce(table, "timeout", seat)

    async def shutdown(self) -> None:
        """Cancel every running timer."""
        for running in self.running.values():
            running.task.cancel()
        self.running.clear()
