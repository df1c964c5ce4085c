"""Two real ``cardtable serve`` processes on one PostgreSQL: chat, reactions, rate limits and summary readers
reach every process (relayed over LISTEN/NOTIFY), whichever process the request or the socket uses."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from tests.server.postgres import postgres_cluster
from tests.server.realserver import Served, serve


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    """A throwaway PostgreSQL cluster for this module (started here, stopped after)."""
    with postgres_cluster() as url:
        yield url


def _chat(ws: ClientConnection) -> dict[str, Any]:
    """The next chat line on a socket (views and other messages skipped); fails after 60 s (a hang guard)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        message = json.loads(ws.recv(timeout=60))
        if message["type"] == "chat":
            return dict(message["line"])
    raise AssertionError("no chat line came")


def _eventually(check: Any, seconds: float = 60.0) -> None:
    """Wait until ``check()`` is true (a relay is asynchronous; ``seconds`` is a hang guard)."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "never became true"
        time.sleep(0.05)


def test_chat_reactions_and_readers_cross_processes(database: str, tmp_path: Path) -> None:
    """A line sent to A reaches a socket on B and B's history; a reaction sent to B reaches A; the rate limit
    counts lines sent to both; a summary reader registered on B is known to A, which drives the table."""
    try:
        _cross(database, tmp_path)
    except BaseException as failure:  # the servers' own words help more than a timeout
        logs = {name: (tmp_path / f"{name}.log").read_text(errors="replace")[-3000:] for name in ("a", "b")}
        raise AssertionError(f"{failure!r}\n--- a.log ---\n{logs['a']}\n--- b.log ---\n{logs['b']}") from failure


def _cross(database: str, tmp_path: Path) -> None:
    # A long chat window: on a loaded machine the six lines below can take more than the default ten seconds.
    args = ("--bot-delay", "0", "--lease-ttl", "3", "--limit", "chat_window=300")
    with serve(database, tmp_path / "a.log", *args) as a, serve(database, tmp_path / "b.log", *args) as b:
        status, created = a.request("POST", "/api/tables", {"game": "durak", "seed": 8, "name": "Rick",
                                                            "seats": [{"kind": "human"}, {"kind": "human"}]})
        assert status == 201, created
        table_id = created["table_id"]
        status, joined = b.request("POST", f"/api/tables/{table_id}/join", {"seat": 1, "name": "Morty"})
        assert status == 200, joined
        with connect(f"{a.ws}/ws/tables/{table_id}") as on_a, \
                connect(f"{b.ws}/ws/tables/{table_id}?token={joined['token']}") as on_b:
            on_a.recv(timeout=15)
            on_b.recv(timeout=15)
            _say(a, table_id, {"token": created["token"], "text": "<i>hola</i>"})
            line = _chat(on_b)
            assert (line["name"], line["text"]) == ("Rick", "<i>hola</i>") == (_chat(on_a)["name"], line["text"])
            _say(b, table_id, {"token": joined["token"], "reaction": "well_played"})
            assert _chat(on_a)["reaction"] == "well_played"
            _eventually(lambda: len(_social(b, table_id)["chat"]) == 2)
            assert [x.get("text", x.get("reaction")) for x in _social(a, table_id)["chat"]] == \
                   ["<i>hola</i>", "well_played"]
            # Rick's five lines in the window: three through A, two through B; the sixth is refused on either.
            for process in (a, a, b, b):
                _say(process, table_id, {"token": created["token"], "text": "again"})
                _chat(on_b)
            status, refused = b.request("POST", f"/api/tables/{table_id}/chat",
                                        {"token": created["token"], "text": "too many"})
            assert status == 429 and "slow down" in refused["detail"], refused
        assert b.request("POST", f"/api/tables/{table_id}/reader", {"token": joined["token"]})[0] == 200
        _eventually(lambda: _social(a, table_id)["readers"] == [1])
        assert "Traceback" not in a.text_log() + b.text_log()


def _say(process: Served, table_id: str, body: dict[str, Any]) -> None:
    status, answer = process.request("POST", f"/api/tables/{table_id}/chat", body)
    assert status == 200, answer


def _social(process: Served, table_id: str) -> dict[str, Any]:
    status, state = process.request("GET", f"/api/tables/{table_id}/social")
    assert status == 200, state
    return dict(state)
