"""Resigning a game.

In a game of two sides (two players, or Kaiser's and Mus's pairs) a person resigns for their side, as the
rules of those games allow a pair to concede: the game ends at once and the other side wins. The outcome
(``"seat 1 resigned"`` or ``"seats 0 and 2 resigned"``) is stored with the table, so a restart shows it too,
and the finished table's hooks (ratings) run in the same transaction. In a game of more sides resigning is
leaving: the computer plays the seat to the end and the person counts last (as for anyone who leaves).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import Connection as DbConnection

from cardtable.core.types import Seat
from cardtable.server.live import LiveTable, TableError
from cardtable.server.manager import TableManager
from cardtable.server.statuses import FINISHED, PAUSED, PLAYING
from cardtable.store.models import utcnow


def resigned_outcome(teams: tuple[tuple[Seat, ...], ...], players: int, seat: Seat) -> dict[str, Any]:
    """The outcome of a two-sided game that ``seat``'s side resigns: the other side wins."""
    mine = next(team for team in teams if seat in team)
    winners = sorted(s for team in teams if seat not in team for s in team)
    reason = f"seat {seat} resigned" if len(mine) == 1 else f"seats {mine[0]} and {mine[1]} resigned"
    return {"type": "outcome", "scores": [1.0 if s in winners else 0.0 for s in range(players)],
            "winners": winners, "reason": reason}


class Resignations:
    """Ends a table's game when a side resigns (see the module's docstring)."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager

    async def resign(self, table: LiveTable, token: str) -> dict[str, Any]:
        """The holder of ``token`` resigns; returns whether the game ended and its outcome."""
        manager = self.manager
        seat = manager.seat_of(table, token)
        _check_status(table)
        teams = table.game.teams(table.options)
        if len(teams) > 2:
            await manager.leave(table, token)
            return {"table_id": table.id, "seat": seat, "ended": False, "outcome": None}
        if not table.owned:
            raise TableError(409, f"table {table.id} is driven by another server process; reload to reach it",
                             code="other_process", params={})
        outcome = resigned_outcome(teams, len(table.stored.seats), seat)
        registry = manager.registry
        async with table.lock:
            await manager.commits.settle(table)
            _check_status(table)

            def work(c: DbConnection) -> None:
                registry.store.set_status(table.id, FINISHED, c, outcome=outcome, to_act=None)
                registry.store.release(registry.owner, [table.id], c)
                registry.finished_in(table, outcome, [], c)

            await manager.storage.write(work, table)
            table.stored.status, table.stored.outcome, table.stored.to_act = FINISHED, outcome, None
            table.stored.updated_at = utcnow()
            manager.absence.cancel_timers(table)
            table.covering.clear()
            manager.changes.changed(table)
        return {"table_id": table.id, "seat": seat, "ended": True, "outcome": outcome}


def _check_status(table: LiveTable) -> None:
    if table.status not in (PLAYING, PAUSED):
        raise TableError(409, f"table {table.id} is {table.status}", code="table_status",
                         params={"status": table.status})
