"""A vote to replace an absent person by the computer for good.

While the computer plays for someone who is away, each other person seated at the table may vote to let it
play that seat for good. Once a majority of the people present (the voter counts as present) has voted, the
seat is the computer's as if its person had left: their token no longer holds it, and a return finds the
table as a spectator. The table is told of each vote and of the result. Votes live in memory (a restart
forgets them) and lapse when the person comes back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardtable.core.types import Seat
from cardtable.server.live import LiveTable, TableError
from cardtable.server.manager import TableManager
from cardtable.server.social import Social
from cardtable.server.statuses import PAUSED, PLAYING


@dataclass
class Ballots:
    """The votes at one table: for each absent seat, the seats of the people who voted to replace it."""

    votes: dict[Seat, set[Seat]] = field(default_factory=dict)


class Replacements:
    """Counts the votes and hands a seat to the computer for good once a majority of the present agrees."""

    def __init__(self, manager: TableManager, social: Social) -> None:
        self.manager = manager
        self.social = social
        self.tables: dict[str, Ballots] = {}

    async def vote(self, table: LiveTable, token: str, seat: int) -> dict[str, Any]:
        """The holder of ``token`` votes to replace the person at ``seat``; returns the count and whether the
        seat is the computer's now."""
        voter = self.manager.seat_of(table, token)
        target = self.manager.seat_at(table, seat)
        if table.status not in (PLAYING, PAUSED):
            raise TableError(409, f"table {table.id} is {table.status}", code="table_status",
                             params={"status": table.status})
        if seat == voter:
            raise TableError(400, "you cannot vote to replace yourself; leave the table instead",
                             code="vote_own_seat", params={})
        if target.kind != "human" or seat not in table.covering or seat in table.connected_seats():
            raise TableError(409, f"seat {seat} is not a person the computer plays for while they are away",
                             code="vote_not_away", params={"seat": seat})
        ballots = self.tables.setdefault(table.id, Ballots())
        voters = ballots.votes.setdefault(seat, set())
        voters.add(voter)
        present = self._present(table, seat) | {voter}
        voters &= present  # a voter who left no longer counts
        needed = len(present) // 2 + 1
        who = table.stored.seats[voter].name
        if len(voters) < needed:
            self.social.announce(table, "replace_vote", seat, who=who)
            return {"table_id": table.id, "seat": seat, "votes": len(voters), "needed": needed, "replaced": False}
        self.social.announce(table, "replaced", seat)
        ballots.votes.pop(seat, None)
        token_hash = target.token_hash
        assert token_hash is not None  # a person's seat during play is held by a token
        await self.manager.operate(table, {"op": "leave", "token_hash": token_hash})
        return {"table_id": table.id, "seat": seat, "votes": len(voters), "needed": needed, "replaced": True}

    def _present(self, table: LiveTable, absent: Seat) -> set[Seat]:
        """The people seated and connected now, but the absent one."""
        connected = table.connected_seats()
        return {s.index for s in table.stored.seats if s.kind == "human" and s.index in connected and s.index != absent}
