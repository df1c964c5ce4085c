"""The channel between server processes on PostgreSQL survives its connections being cut: the process says so
on ``/readyz``, connects again, its sockets go on seeing what the other process's table does, and its
forwarded moves still reach the owner."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from cardtable.server import create_app
from cardtable.server.notify import conninfo
from tests.server.conftest import receive
from tests.server.postgres import postgres_cluster


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    with postgres_cluster() as url:
        yield url


def _view(ws: WebSocketTestSession, until: Any) -> dict[str, Any]:
    while True:
        message = receive(ws)
        assert message["type"] != "error", message
        if message["type"] == "view" and until(message):
            return dict(message)


def _cut(database: str, pid: int) -> None:
    """What a database restart or a network cut does to one connection."""
    with psycopg.connect(conninfo(database), autocommit=True) as admin:
        assert admin.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone() == (True,)


def test_a_process_whose_channel_is_cut_hears_the_others_again(database: str) -> None:
    with TestClient(create_app(database, bot_delay=0)) as a, TestClient(create_app(database, bot_delay=0)) as b:
        created = b.post("/api/tables", json={"game": "durak", "seed": 8, "name": "Ann",
                                              "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        table_id = created["table_id"]
        joined = b.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bo"}).json()
        tokens = [created["token"], joined["token"]]
        assert b.post(f"/api/tables/{table_id}/start", json={"token": tokens[0]}).status_code == 200
        notifier = a.app.state.notifier  # type: ignore[attr-defined]
        ready = a.get("/readyz").json()["checks"]["notifications"]
        assert ready == {"ok": True, "reconnections": 0}
        with a.websocket_connect(f"/ws/tables/{table_id}?token={tokens[0]}") as on_a, \
                b.websocket_connect(f"/ws/tables/{table_id}?token={tokens[1]}") as on_b:
            seen = _view(on_a, lambda v: v["status"] == "playing")
            played = _view(on_b, lambda v: v["status"] == "playing")
            _cut(database, notifier._listen.info.backend_pid)
            deadline = time.monotonic() + 30
            while notifier.reconnections < 1:
                assert time.monotonic() < deadline, "the process never heard the others again"
                time.sleep(0.05)
            # A move made at the process that drives the table reaches the socket on the other process.
            while played["to_act"] != 1:  # until the seat whose socket is on b is to act
                actor = on_a if seen["to_act"] == 0 else on_b
                view = seen if actor is on_a else played
                actor.send_json({"type": "action", "version": view["version"],
                                 "action": view["legal_actions"][0]["action"]})
                seen = _view(on_a, lambda v, after=view["version"]: v["version"] > after)
                played = _view(on_b, lambda v, after=view["version"]: v["version"] > after)
            before = seen["version"]
            on_b.send_json({"type": "action", "version": played["version"],
                            "action": played["legal_actions"][0]["action"]})
            seen = _view(on_a, lambda v: v["version"] > before)
            assert seen["version"] == before + 1
            played = _view(on_b, lambda v: v["version"] > before)
            # The connection a sends on is cut too: a's next forwarded move still reaches b.
            _cut(database, notifier._send.info.backend_pid)
            while seen["to_act"] != 0:
                on_b.send_json({"type": "action", "version": played["version"],
                                "action": played["legal_actions"][0]["action"]})
                played = _view(on_b, lambda v, after=played["version"]: v["version"] > after)
                seen = _view(on_a, lambda v, after=played["version"]: v["version"] >= after)
            on_a.send_json({"type": "action", "version": seen["version"], "action": seen["legal_actions"][0]["action"]})
            forwarded = _view(on_b, lambda v, after=seen["version"]: v["version"] > after)
            assert forwarded["version"] == seen["version"] + 1
        ready = a.get("/readyz")
    assert ready.status_code == 200 and ready.json()["checks"]["notifications"] == {"ok": True, "reconnections": 1}
