"""A bot connected to one server process plays a table another process drives, even when the process it is
connected to forgets the table (a shown table with no connection is dropped by housekeeping) between the
moment it loaded it and the moment the bot's seat joined it; and two catch-ups of a shown table leave the
newer table, whichever read the store first.

Two apps on one SQLite file stand for two processes; what the PostgreSQL notifier carries between them
(forwarded operations, "the table moved on", presence) is carried here by each app's event-loop portal.
Seen under load with two real processes (tests/botapi/test_bridge.py): the bot was seated, said hello, and
was never asked anything; every decision was lost to the owner's clock.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from fastapi.testclient import TestClient

from cardtable.server import create_app
from cardtable.server.botapi import BotApiSettings
from cardtable.server.live import LiveTable
from cardtable.server.manager import TableManager
from cardtable.store import Store
from tests.botapi.helpers import account, play, seat_bot, start, stream, table

T = TypeVar("T")


def _soon(loop: asyncio.AbstractEventLoop, work: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T] | None:
    """Run ``work`` on another app's event loop without waiting for it (a blocking call from one loop into the
    other, while that one calls back, would deadlock); ``None`` once that app has stopped."""
    try:
        return asyncio.run_coroutine_threadsafe(work, loop)
    except RuntimeError:  # its loop is closed: the app is shutting down
        work.close()
        return None


def _link(owner: TestClient, follower: TestClient, forwarded: asyncio.Event | None = None) -> None:
    """What the notifier does between two processes, from ``follower`` to ``owner`` and back (``forwarded`` is
    set, on the owner's loop, when an operation forwarded by the follower arrives)."""
    driving: TableManager = owner.app.state.manager  # type: ignore[attr-defined]
    showing: TableManager = follower.app.state.manager  # type: ignore[attr-defined]
    driving_loop = owner.portal.call(asyncio.get_running_loop)  # type: ignore[attr-defined]
    showing_loop = follower.portal.call(asyncio.get_running_loop)  # type: ignore[attr-defined]

    async def run(table_id: str, operation: dict[str, Any]) -> dict[str, Any]:
        if forwarded is not None:
            forwarded.set()
        return await driving.run_operation(driving.tables[table_id], operation) or {}

    async def forward(table_id: str, operation: dict[str, Any]) -> dict[str, Any]:
        done = _soon(driving_loop, run(table_id, operation))
        assert done is not None, "the owner has stopped"
        return await asyncio.wrap_future(done)

    def moved_on(table: LiveTable) -> None:
        shown = showing.tables.get(table.id)
        if shown is not None and not shown.owned:
            _soon(showing_loop, showing.catch_up(shown))

    async def tell(table_id: str, seats: list[int]) -> None:
        driven = driving.tables.get(table_id)
        if driven is not None:
            driving.remote_presence(driven, showing.owner, seats)

    def presence(table: LiveTable) -> None:
        _soon(driving_loop, tell(table.id, sorted(table.connected_seats())))

    showing.forward = forward
    driving.on_change.append(moved_on)
    showing.on_presence = presence


def test_a_bot_seated_while_its_process_drops_the_shown_table_still_plays(db_url: str) -> None:
    token = account(db_url, "robo")
    settings = BotApiSettings(decision=60.0)  # generous: a loaded machine must not cost a decision here
    with TestClient(create_app(db_url, bot_delay=0, takeover_after=0, bots=settings)) as owner, \
            TestClient(create_app(db_url, bot_delay=0, takeover_after=0, bots=settings)) as follower:
        _link(owner, follower)
        showing: TableManager = follower.app.state.manager  # type: ignore[attr-defined]
        seat_taken = showing.operate

        async def operate_then_housekeep(shown: LiveTable, operation: dict[str, Any]) -> dict[str, Any]:
            result = await seat_taken(shown, operation)
            if operation.get("op") == "bot_seat":
                # The follower's housekeeping runs while the bot's acceptance is under way: the shown table
                # has no connection yet, so it is dropped.
                await showing.housekeeping()
                assert shown.id not in showing.tables
            return result

        showing.operate = operate_then_housekeep  # type: ignore[method-assign]
        with stream(follower, token) as ws:
            created = table(owner, "crazy_eights", 2, options={"rounds": 1})
            seat_bot(owner, ws, created, 1, "robo")
            # The seat the bot plays is at the table the follower shows (and keeps up to date).
            assert showing.tables[created["table_id"]].connections
            start(owner, created)
            seen = play(ws)
        acts = [m for m in seen if m["type"] == "act"]
        summary = owner.get(f"/api/tables/{created['table_id']}").json()
    assert acts, "the bot was never asked"
    assert summary["status"] == "finished"
    assert summary["seats"][1]["kind"] == "remote" and not summary["seats"][1]["failures"], summary["seats"][1]


def test_a_bot_asked_from_the_store_before_the_owner_shows_the_move_is_heard(db_url: str) -> None:
    """The owner stores the computer's moves, then shows them; the process a bot is connected to may read them
    from the store in between (a catch-up for an earlier change) and ask the bot at once. Its answer reaches the
    owner before the owner shows the move: it must wait for it, not be refused as stale (seen under load: the
    bot, refused and never asked again, lost that decision to the clock)."""
    token = account(db_url, "robo")
    settings = BotApiSettings(decision=60.0)
    with TestClient(create_app(db_url, bot_delay=0, takeover_after=0, bots=settings)) as owner, \
            TestClient(create_app(db_url, bot_delay=0, takeover_after=0, bots=settings)) as follower:
        driving: TableManager = owner.app.state.manager  # type: ignore[attr-defined]
        showing: TableManager = follower.app.state.manager  # type: ignore[attr-defined]
        showing_loop = follower.portal.call(asyncio.get_running_loop)  # type: ignore[attr-defined]
        forwarded = owner.portal.call(asyncio.Event)  # type: ignore[attr-defined]
        _link(owner, follower, forwarded)
        storage = driving.operations.storage
        real = storage.write
        raced: list[int] = []

        async def write(work: Callable[..., Any], table: LiveTable | None = None, *, fenced: bool = False) -> Any:
            result = await real(work, table, fenced=fenced)
            moves = table.ahead.moves if table is not None else []
            if not raced and moves and moves[-1].to_act == 1:  # computer moves stored, the bot's turn next
                raced.append(moves[-1].index + 1)
                forwarded.clear()
                shown = showing.tables[table.id]  # type: ignore[union-attr]
                _soon(showing_loop, showing.catch_up(shown))  # the follower reads them before they are shown
                await asyncio.wait_for(forwarded.wait(), 20)  # and its bot's answer arrives first
            return result

        storage.write = write  # type: ignore[method-assign]
        with stream(follower, token) as ws:
            created = table(owner, "crazy_eights", 2, options={"rounds": 1})
            seat_bot(owner, ws, created, 1, "robo")
            start(owner, created)
            seen = play(ws)
        summary = owner.get(f"/api/tables/{created['table_id']}").json()
    assert raced, "the owner never stored a move leading to the bot's turn"
    assert [m for m in seen if m["type"] == "act" and m["id"] == raced[0]], "the bot was not asked that decision"
    assert not [m for m in seen if m["type"] == "error"], [m for m in seen if m["type"] == "error"]
    assert summary["status"] == "finished"
    assert not summary["seats"][1]["failures"], summary["seats"][1]


def test_two_catch_ups_of_a_shown_table_leave_the_newer_table(db_url: str) -> None:
    """A catch-up that read the store first but is slower must not put its older table back after a later one
    (seen under load: a game shown as still playing, to the other process's sockets, after it had ended)."""
    with TestClient(create_app(db_url, bot_delay=0)) as owner, TestClient(create_app(db_url, bot_delay=0)) as follower:
        showing: TableManager = follower.app.state.manager  # type: ignore[attr-defined]
        created = table(owner, "crazy_eights", 2, options={"rounds": 1})
        shown = follower.portal.call(showing.find, created["table_id"])  # type: ignore[attr-defined]
        assert not shown.owned and shown.status == "waiting"
        older = Store(db_url).load(created["table_id"])
        start(owner, created)
        storage = showing.operations.storage
        real = storage.read
        slow = [True]

        async def read(work: Callable[..., Any], *args: Any) -> Any:
            if args == (created["table_id"],) and slow and slow.pop():  # the first read: made before the start
                await asyncio.sleep(0.5)
                return older
            return await real(work, *args)

        async def two_catch_ups() -> None:
            first = asyncio.create_task(showing.catch_up(shown))
            await asyncio.sleep(0.05)  # the first has read (the older table) and not yet applied it
            await showing.catch_up(shown)
            await first

        storage.read = read  # type: ignore[method-assign]
        follower.portal.call(two_catch_ups)  # type: ignore[attr-defined]
        storage.read = real  # type: ignore[method-assign]
        status, dealt = shown.status, shown.state is not None
    assert status == "playing" and dealt
