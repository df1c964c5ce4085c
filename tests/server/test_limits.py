"""Bounded memory and cheap lists: lobby pages, idle waiting tables expiring, finished tables leaving memory,
creation and message rate limits, bounded outboxes."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from cardtable.server import create_app
from cardtable.server.limits import Limits, TokenBucket, excerpt
from cardtable.server.live import CLOSE_POLICY, Connection
from tests.server.conftest import create, human_table, play_alone, receive, start


def _manager(client: TestClient) -> Any:
    return client.app.state.manager  # type: ignore[attr-defined]


def test_the_lobby_is_paged_newest_first(db_url: str) -> None:
    """``limit`` and ``offset`` page the list; pages do not overlap and cover every open table."""
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        made = [create(client, "durak", ["human", "human"])["table_id"] for _ in range(7)]
        pages = [client.get("/api/tables", params={"limit": 3, "offset": offset}).json() for offset in (0, 3, 6)]
        assert [len(page) for page in pages] == [3, 3, 1]
        ids = [t["table_id"] for page in pages for t in page]
        assert sorted(ids) == sorted(made) and ids[0] == made[-1]
        assert client.get("/api/tables", params={"limit": 0}).status_code == 422
        assert len(client.get("/api/tables").json()) == 7


def test_idle_waiting_tables_expire(db_url: str) -> None:
    """A waiting table nobody touched or watched for ``waiting_idle`` is abandoned; a watched one stays."""
    with TestClient(create_app(db_url, bot_delay=0, limits=Limits(waiting_idle=0.2))) as client:
        idle = create(client, "durak", ["human", "human"])["table_id"]
        watched = create(client, "durak", ["human", "human"])["table_id"]
        with client.websocket_connect(f"/ws/tables/{watched}") as ws:
            receive(ws)
            time.sleep(0.3)
            client.portal.call(_manager(client).housekeeping)  # type: ignore[attr-defined]
            listed = [t["table_id"] for t in client.get("/api/tables").json()]
        assert listed == [watched]
        assert client.get(f"/api/tables/{idle}").status_code == 404
        assert idle not in _manager(client).tables


def test_finished_tables_leave_memory_and_come_back_when_asked(db_url: str) -> None:
    """Once its last watcher leaves, a finished table is dropped (a small cache aside) and reloaded on request."""
    with TestClient(create_app(db_url, bot_delay=0, limits=Limits(finished_cache=1))) as client:
        finished = []
        for _ in range(3):
            created = create(client, "durak", ["bot", "bot"])
            with client.websocket_connect(f"/ws/tables/{created['table_id']}") as ws:
                receive(ws)
                start(client, created["table_id"], created["token"])
                assert play_alone(ws)[-1]["status"] == "finished"
            finished.append(created["table_id"])
        manager = _manager(client)
        assert not set(finished) & set(manager.tables)
        assert list(manager.finished) == finished[-1:]
        summary = client.get(f"/api/tables/{finished[0]}").json()
        assert summary["status"] == "finished" and summary["outcome"] is not None
        assert client.get(f"/api/tables/{finished[0]}/record").status_code == 200


def test_table_creation_is_rate_limited_per_address(db_url: str) -> None:
    """Past the burst, new tables from one address get 429 with one line."""
    with TestClient(create_app(db_url, bot_delay=0, limits=Limits(tables_burst=3, tables_per_minute=1))) as client:
        answers = [client.post("/api/tables", json={"game": "durak"}).status_code for _ in range(5)]
        assert answers == [201, 201, 201, 429, 429]
        assert "too many new tables" in client.post("/api/tables", json={"game": "durak"}).json()["detail"]


def test_a_flooding_socket_is_throttled_with_one_error(client: TestClient) -> None:
    """Beyond the burst, messages are dropped; the sender hears about it once, not once per message."""
    created = create(client, "durak", ["human", "human"])
    manager = _manager(client)
    manager.limits = Limits(messages_burst=5, messages_per_second=0.001)
    with client.websocket_connect(f"/ws/tables/{created['table_id']}?token={created['token']}") as ws:
        receive(ws)
        for _ in range(30):
            ws.send_json({"type": "ping"})
        replies = [receive(ws) for _ in range(6)]
    assert replies.count({"type": "pong"}) == 5
    assert next(r for r in replies if r["type"] == "error")["message"].startswith("too many messages")


def test_an_outbox_that_is_not_read_closes_the_connection() -> None:
    """Small messages queue up to the limit; one more closes the connection (1008) and frees the queue."""
    async def fill() -> Connection:
        connection = Connection(None, outbox_limit=4, bucket=TokenBucket(1, 1))
        for _ in range(10):
            connection.send({"type": "error", "message": "x"})
        return connection

    # A thread of its own: a browser test earlier in this worker may have left Playwright's loop running here.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        connection = pool.submit(asyncio.run, fill()).result()
    assert connection.closing is not None and connection.closing[0] == CLOSE_POLICY
    assert len(connection.messages) == 0


def test_excerpts_are_short_and_single_line(tmp_path: Path) -> None:
    """Bad input is quoted by excerpt only."""
    assert excerpt("a\nb" + "x" * 500, 20) == "a b" + "x" * 16 + "…"
    assert len(excerpt("y" * 10_000)) == 60


def test_spectators_joining_send_nobody_else_a_view(client: TestClient) -> None:
    """Twenty spectators connect and leave: the first one hears nothing of it (its next message is a pong)."""
    created = create(client, "durak", ["human", "human"])
    url = f"/ws/tables/{created['table_id']}"
    with client.websocket_connect(url) as first:
        receive(first)
        for _ in range(20):
            with client.websocket_connect(url) as other:
                receive(other)
        first.send_json({"type": "ping"})
        assert receive(first) == {"type": "pong"}


def test_a_change_builds_one_view_per_audience(client: TestClient, monkeypatch: Any) -> None:
    """Five spectators and two sockets of one seat: an action builds three views (spectators, seat 0, seat 1)."""
    from cardtable.server import views

    table_id, tokens = human_table(client, "durak", 2, seed=4)
    start(client, table_id, tokens[0])
    urls = [f"/ws/tables/{table_id}"] * 5 + [f"/ws/tables/{table_id}?token={tokens[0]}"] * 2 + \
        [f"/ws/tables/{table_id}?token={tokens[1]}"]
    sockets = [client.websocket_connect(url).__enter__() for url in urls]
    try:
        latest = [receive(ws) for ws in sockets]
        for index, ws in enumerate(sockets):  # settle: every socket at the newest view
            while not all(s["connected"] for s in latest[index]["seats"]):
                latest[index] = receive(ws)
        built: list[Any] = []
        original = views.ViewBuilder.build

        def counting(self: Any, seat: Any, since: int) -> Any:
            built.append(seat)
            return original(self, seat, since)

        monkeypatch.setattr(views.ViewBuilder, "build", counting)
        actor = latest[-1]["to_act"]
        mine = next(v for v in latest if v["seat"] == actor)
        actor_socket = sockets[latest.index(mine)]
        actor_socket.send_json({"type": "action", "version": mine["version"],
                                "action": mine["legal_actions"][0]["action"]})
        after = [receive(ws) for ws in sockets]
        assert {v["version"] for v in after} == {mine["version"] + 1}
        assert sorted(built, key=str) == sorted([None, 0, 1], key=str)
    finally:
        for ws in reversed(sockets):
            ws.__exit__(None, None, None)


def test_a_reconnecting_page_can_ask_only_for_the_events_after_its_version(client: TestClient) -> None:
    """``?since=v``: the first view carries the events after version v only; out of range means all of them."""
    table_id, tokens = human_table(client, "durak", 2, seed=2)
    start(client, table_id, tokens[0])
    actor = client.get(f"/api/tables/{table_id}").json()["to_act"]
    url = f"/ws/tables/{table_id}?token={tokens[actor]}"
    with client.websocket_connect(url) as ws:
        first = receive(ws)
        ws.send_json({"type": "action", "version": 0, "action": first["legal_actions"][0]["action"]})
        after = receive(ws)
    assert after["version"] == 1 and after["events"]
    views = {}
    for since in (0, 1, 99, None):
        with client.websocket_connect(url if since is None else f"{url}&since={since}") as ws:
            views[since] = receive(ws)
    assert views[0]["events"] == after["events"]
    assert views[1]["events"] == []
    assert views[99]["events"] == views[None]["events"] == first["events"] + after["events"]
    assert {v["observation"] == after["observation"] for v in views.values()} == {True}
