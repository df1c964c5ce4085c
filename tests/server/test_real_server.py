"""A real ``cardtable serve`` over real sockets: bad frames, a junk flood from slow readers, SIGTERM."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.server.realserver import Served, serve, stop


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A served SQLite database shared by this module's tests (starting a server takes seconds)."""
    folder = tmp_path_factory.mktemp("real")
    with serve(f"sqlite:///{folder / 'real.db'}", folder / "server.log", "--bot-delay", "0") as served:
        yield served


def _two_people(server: Served) -> tuple[str, list[str]]:
    status, created = server.request("POST", "/api/tables", {"game": "durak", "seed": 3,
                                                             "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert status == 201, created
    table_id = created["table_id"]
    status, joined = server.request("POST", f"/api/tables/{table_id}/join", {"seat": 1, "name": "Morty"})
    assert status == 200, joined
    return table_id, [created["token"], joined["token"]]


def _view(ws: ClientConnection) -> dict[str, Any]:
    while True:
        message = json.loads(ws.recv(timeout=30))
        if message["type"] == "view":
            return dict(message)


def _closed(ws: ClientConnection) -> ConnectionClosed:
    """Read until the server closes the socket; the close."""
    try:
        while True:
            ws.recv(timeout=30)
    except ConnectionClosed as closed:
        return closed
    raise AssertionError("still open")


def test_invalid_utf8_and_oversized_frames_close_the_socket_quietly(server: Served) -> None:
    """Invalid UTF-8 in a text frame: close 1007; a frame over 1 MiB: close 1009; no traceback; server fine."""
    table_id, tokens = _two_people(server)
    with connect(f"{server.ws}/ws/tables/{table_id}?token={tokens[0]}") as ws:
        _view(ws)
        ws.send(b'{"type": "ping", "x": "\xff\xfe"}', text=True)
        assert _closed(ws).rcvd is not None and _closed(ws).rcvd.code == 1007
    with connect(f"{server.ws}/ws/tables/{table_id}?token={tokens[0]}", max_size=None) as ws:
        _view(ws)
        with contextlib.suppress(ConnectionClosed):  # the server may close (1009) while the frame goes out
            ws.send("x" * (1024 * 1024 + 10))
        closed = _closed(ws)
        assert closed.rcvd is not None and closed.rcvd.code == 1009
    with connect(f"{server.ws}/ws/tables/{table_id}?token={tokens[0]}") as ws:
        _view(ws)
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=30)) == {"type": "pong"}
    assert "Traceback" not in server.text_log()


def test_slow_readers_flooding_junk_keep_memory_bounded(server: Served) -> None:
    """Six sockets send 60 KB junk as fast as they can and never read: the server stays small and responsive.

    Each floods for two seconds and at least 25 frames, however slow the machine (a busy one sends fewer a second)."""
    table_id, tokens = _two_people(server)
    server.request("POST", f"/api/tables/{table_id}/start", {"token": tokens[0]})
    before = server.rss_kib()
    junk = json.dumps({"type": "action", "version": 0, "action": {"type": "x" * 60_000}})
    stop_at = time.monotonic() + 2.0
    sent = [0] * 6
    closes: list[int | None] = []

    def flood(index: int) -> None:
        try:
            with connect(f"{server.ws}/ws/tables/{table_id}?token={tokens[index % 2]}", max_queue=4,
                         close_timeout=0.5) as ws:
                while time.monotonic() < stop_at or sent[index] < 25:
                    ws.send(junk)
                    sent[index] += 1
        except ConnectionClosed as closed:
            closes.append(None if closed.rcvd is None else closed.rcvd.code)
        except (OSError, TimeoutError):
            closes.append(None)

    threads = [threading.Thread(target=flood, args=(i,)) for i in range(6)]
    for thread in threads:
        thread.start()
    peak = before
    while any(t.is_alive() for t in threads):
        peak = max(peak, server.rss_kib())
        time.sleep(0.1)
    for thread in threads:
        thread.join()
    assert server.request("GET", "/api/tables")[0] == 200  # answered (the request's own 30 s is a hang guard)
    assert sum(sent) > 100, sent  # the flood did happen
    assert peak - before < 80 * 1024, (before, peak, sent)  # under 80 MiB growth, however long it runs
    assert "Traceback" not in server.text_log()


@pytest.fixture
def own_server(tmp_path: Path) -> Any:
    """A server of this test's own (it gets stopped; tests may run in any order and on any xdist worker)."""
    with serve(f"sqlite:///{tmp_path / 'own.db'}", tmp_path / "own.log", "--bot-delay", "0") as served:
        yield served


def test_sigterm_closes_sockets_with_a_restart_reason_and_keeps_every_action(own_server: Served,
                                                                             tmp_path: Path) -> None:
    """SIGTERM: every socket gets 1012 with a reason the page knows, the process exits cleanly, nothing is lost."""
    server = own_server
    table_id, tokens = _two_people(server)
    server.request("POST", f"/api/tables/{table_id}/start", {"token": tokens[0]})
    with connect(f"{server.ws}/ws/tables/{table_id}?token={tokens[0]}") as ws0, \
            connect(f"{server.ws}/ws/tables/{table_id}?token={tokens[1]}") as ws1:
        sockets = {0: ws0, 1: ws1}
        view = _view(ws0)
        for _ in range(4):
            actor = view["to_act"]
            mine = _view(sockets[actor]) if actor != 0 else view
            while mine["version"] != view["version"] or not mine["legal_actions"]:
                mine = _view(sockets[actor])
            sockets[actor].send(json.dumps({"type": "action", "version": mine["version"],
                                            "action": mine["legal_actions"][0]["action"]}))
            while (view := _view(ws0))["version"] == mine["version"]:
                pass
        acknowledged = view["version"]
        assert stop(server) in (0, -15)  # uvicorn re-raises the signal once it has shut down
        for ws in (ws0, ws1):
            closed = _closed(ws)
            assert closed.rcvd is not None and closed.rcvd.code == 1012
            assert "restart" in closed.rcvd.reason
    assert "Traceback" not in server.text_log()
    with serve(server.database_url, tmp_path / "server2.log", "--bot-delay", "0") as again:
        status, summary = again.request("GET", f"/api/tables/{table_id}")
        assert status == 200 and summary["version"] == acknowledged and summary["status"] == "playing"
