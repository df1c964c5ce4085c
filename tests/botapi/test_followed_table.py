"""A bot connected to one server process plays a table another process drives, even when the process it is
connected to forgets the table (a shown table with no connection is dropped by housekeeping) between the
moment it loaded it and the moment the bot's seat joined it.

Two apps on one SQLite file stand for two processes; what the PostgreSQL notifier carries between them
(forwarded operations, "the table moved on", presence) is carried here by each app's event-loop portal.
Seen under load with two real processes (tests/botapi/test_bridge.py): the bot was seated, said hello, and
was never asked anything; every decision was lost to the owner's clock.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi.testclient import TestClient

from cardtable.server import create_app
from cardtable.server.botapi import BotApiSettings
from cardtable.server.live import LiveTable
from cardtable.server.manager import TableManager
from tests.botapi.helpers import account, play, start, stream, table, until


def _link(owner: TestClient, follower: TestClient) -> None:
    """What the notifier does between two processes, from ``follower`` to ``owner`` and back."""
    driving: TableManager = owner.app.state.manager  # type: ignore[attr-defined]
    showing: TableManager = follower.app.state.manager  # type: ignore[attr-defined]

    async def forward(table_id: str, operation: dict[str, Any]) -> dict[str, Any]:
        async def run() -> dict[str, Any]:
            return await driving.run_operation(driving.tables[table_id], operation) or {}

        done = owner.portal.start_task_soon(run)  # type: ignore[attr-defined]
        return await asyncio.wrap_future(done)

    def moved_on(table: LiveTable) -> None:
        shown = showing.tables.get(table.id)
        if shown is not None and not shown.owned:
            with contextlib.suppress(RuntimeError):  # the follower is shutting down
                follower.portal.start_task_soon(showing.catch_up, shown)  # type: ignore[attr-defined]

    def presence(table: LiveTable) -> None:
        seats = sorted(table.connected_seats())

        async def tell() -> None:
            driven = driving.tables.get(table.id)
            if driven is not None:
                driving.remote_presence(driven, showing.owner, seats)

        with contextlib.suppress(RuntimeError):
            owner.portal.start_task_soon(tell)  # type: ignore[attr-defined]

    showing.forward = forward
    driving.on_change.append(moved_on)
    showing.on_presence = presence


def test_a_bot_seated_while_its_process_drops_the_shown_table_still_plays(db_url: str) -> None:
    token = account(db_url, "robo")
    settings = BotApiSettings(decision=20.0)
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
            invited = owner.post(f"/api/tables/{created['table_id']}/invite",
                                 json={"token": created["token"], "seat": 1, "bot": "robo"})
            assert invited.status_code == 201, invited.text
            invitation = until(ws, "invited")["invitation"]
            ws.send_json({"type": "accept", "invitation": invitation["id"]})
            hello = until(ws, "hello")
            ws.send_json({"type": "ready", "table": hello["table"], "name": "robo", "protocol": 1})
            # The seat the bot plays is at the table the follower shows (and keeps up to date).
            assert showing.tables[created["table_id"]].connections
            start(owner, created)
            seen = play(ws)
        acts = [m for m in seen if m["type"] == "act"]
        summary = owner.get(f"/api/tables/{created['table_id']}").json()
    assert acts, "the bot was never asked"
    assert summary["status"] == "finished"
    assert summary["seats"][1]["kind"] == "remote" and not summary["seats"][1]["failures"], summary["seats"][1]
