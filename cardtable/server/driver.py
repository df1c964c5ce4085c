"""The driver of a table: one task that plays the computer's turns after the configured delay, deciding ahead
of the commits while no seated person is connected, and deciding again a move that could not be stored."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from cardtable.core import to_json
from cardtable.core.types import Seat
from cardtable.server.ahead import Move
from cardtable.server.commits import GroupCommit
from cardtable.server.deciders import computer_decides, is_watched, people_deciding, think
from cardtable.server.failures import TableFailures
from cardtable.server.limits import excerpt
from cardtable.server.live import LiveTable
from cardtable.server.statuses import FINISHED, PLAYING

#: A computer player's move that could not be stored is retried after this many seconds (doubling, capped).
RETRY_FIRST, RETRY_MAX = 0.2, 5.0
#: At most this many computer moves of one table are decided ahead of their commits before the driver waits
#: for them to be stored and runs the ``before_computer_move`` hooks again (a promised takeover, say).
MAX_AHEAD = 64


class Driver:
    """Starts and runs each table's driver task (``LiveTable.driver``) while the computer must act there."""

    def __init__(self, commits: GroupCommit, failures: TableFailures, bot_delay: float) -> None:
        self.commits = commits
        self.failures = failures
        self.bot_delay = bot_delay
        #: Set once the server shuts down: no driver starts, none decides again.
        self.stopping = False
        #: Awaited before each computer move (e.g. while people read a round's summary).
        self.before_computer_move: list[Callable[[LiveTable], Awaitable[None]]] = []
        #: Asked before computer moves are decided ahead of their commits; any ``False`` makes each move wait
        #: for its commit and the ``before_computer_move`` hooks (e.g. while a seat is promised to a person).
        self.run_ahead_checks: list[Callable[[LiveTable], bool]] = []

    def start(self, table: LiveTable) -> None:
        """Start the driver task if the computer must act at this table and none runs."""
        if self.stopping or table.computer_to_act() is None or (table.driver is not None and not table.driver.done()):
            return
        table.driver = asyncio.get_running_loop().create_task(self._drive(table))

    async def _drive(self, table: LiveTable) -> None:
        """Play the computer's turns after the configured delay; a move that could not be stored is decided again.

        While no seated person is connected, moves are decided ahead of their commit and committed in groups
        (``server/ahead.py``); otherwise each move waits for its commit before the next is decided, so people
        see every move and a round's summary holds the computer players.
        """
        ahead = table.ahead
        retry, stuck_at = RETRY_FIRST, -1
        since_hooks = 0  # moves decided since the hooks last ran (they run with nothing pending)
        while True:
            if ahead.failed:  # the store refused the last moves: they were dropped; decide again a little later
                ahead.failed = False
                retry = RETRY_FIRST if table.version != stuck_at else min(retry * 2, RETRY_MAX)
                stuck_at = table.version
                await asyncio.sleep(retry)
                continue
            if ahead.moves and (since_hooks >= MAX_AHEAD or not self.may_run_ahead(table)):
                await ahead.settled.wait()
                continue
            state, version = ahead.head(table.state, table.version)
            seat = self.computer_seat(table, state)
            if seat is None:
                if ahead.moves:  # e.g. the game ends in a move not stored yet: see it stored first
                    await ahead.settled.wait()
                    continue
                return
            if not ahead.moves:  # what is stored is what everyone sees: the hooks may act on it
                since_hooks = 0
                for wait in self.before_computer_move:
                    await wait(table)
            await asyncio.sleep(self.pace(table))
            generation = ahead.generation
            if ahead.head(table.state, table.version)[1] != version or self.computer_seat(table, state) != seat:
                continue  # someone else acted, the person came back, or the table stopped
            try:
                observation = table.game.observe(state, seat)
                legal = table.game.legal_actions(state, seat)
                action = await think(table, seat, observation, legal)
            except Exception as exc:
                await ahead.settled.wait()
                await self.failures.fail(table, f"the computer player at seat {seat} failed: {excerpt(exc, 160)}")
                return
            if (generation != ahead.generation or ahead.head(table.state, table.version)[1] != version
                    or self.computer_seat(table, state) != seat):
                continue  # changed while the computer was thinking
            try:
                after, events = table.game.apply(state, seat, action)
                outcome = table.game.outcome(after)
                to_act = table.game.to_act(after)
            except Exception as exc:
                await ahead.settled.wait()
                await self.failures.fail(table, f"the rules engine failed on seat {seat}'s action: {excerpt(exc, 160)}")
                return
            if table.lock.locked():
                # A change is being made (a pause, a seat changing hands): it settles the moves decided so far
                # and goes first; a move added now would be stored after it, as if it had not happened.
                async with table.lock:
                    pass
                continue
            outcome_data = None if outcome is None else dict(to_json(outcome))
            ahead.add(Move(version, seat, action, dict(to_json(action)), after, list(events),
                           FINISHED if outcome is not None else PLAYING, to_act, outcome_data, ahead.generation))
            self.commits.queue(table)
            since_hooks += 1

    def pace(self, table: LiveTable) -> float:
        """Seconds a computer move (or a bot's question) waits: ``bot_delay`` while a person is at the table or
        watches it, none at a table of programs nobody watches (a live tournament's, say)."""
        return self.bot_delay if is_watched(table) else 0.0

    def computer_seat(self, table: LiveTable, state: Any) -> Seat | None:
        """The seat the computer must play in ``state`` (a bot seat or a covered person), if the table is on."""
        if table.status != PLAYING or not table.owned or self.stopping or state is None:
            return None
        seat = table.game.to_act(state)
        if seat is None:
            return None
        return seat if computer_decides(table, seat) else None

    def may_run_ahead(self, table: LiveTable) -> bool:
        """Whether computer moves may be decided before the previous ones are stored: no seated person is
        connected (people see every move and read round summaries; spectators get the latest view)."""
        people = people_deciding(table)
        return not people & table.connected_seats() and all(check(table) for check in self.run_ahead_checks)
