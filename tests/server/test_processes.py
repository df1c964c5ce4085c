"""Two real ``cardtable serve`` processes on one PostgreSQL: one owner per table, forwarding, takeover."""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from websockets.sync.client import ClientConnection, connect

import cardtable
from cardtable.core import GameRecord, replay
from tests.server.postgres import postgres_cluster
from tests.server.realserver import Served, serve


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    """A throwaway PostgreSQL cluster for this module (started here, stopped after)."""
    with postgres_cluster() as url:
        yield url


def _view(ws: ClientConnection, until: Any = None) -> dict[str, Any]:
    """The next view on a socket (errors fail the test), or the first that satisfies ``until``."""
    while True:
        message = json.loads(ws.recv(timeout=30))
        assert message["type"] != "error", message
        if message["type"] == "view" and (until is None or until(message)):
            return dict(message)


def _play(sockets: dict[int, ClientConnection], views: dict[int, dict[str, Any]], moves: int) -> dict[int, Any]:
    """Play ``moves`` actions (first legal action of the seat to act), each on its own socket."""
    for _ in range(moves):
        version = max(v["version"] for v in views.values())
        for seat, ws in sockets.items():
            if views[seat]["version"] < version:
                views[seat] = _view(ws, lambda v, version=version: v["version"] >= version)
        actor = views[0]["to_act"]
        if actor is None:
            break
        choice = views[actor]["legal_actions"][0]["action"]
        sockets[actor].send(json.dumps({"type": "action", "version": version, "action": choice}))
        for seat, ws in sockets.items():
            views[seat] = _view(ws, lambda v, version=version: v["version"] > version)
    return views


def test_two_processes_share_the_lobby_forward_changes_and_take_over(database: str, tmp_path: Path) -> None:
    """A creates; B lists it, forwards a join and the start; sockets on both play; A dies; B drives it on.

    (One test, because starting two servers and a cluster takes most of its time.)
    """
    try:
        _share_forward_and_take_over(database, tmp_path)
    except BaseException as failure:  # the servers' own words help more than a timeout
        logs = {name: (tmp_path / f"{name}.log").read_text(errors="replace")[-3000:] for name in ("a", "b")}
        raise AssertionError(f"{failure!r}\n--- a.log ---\n{logs['a']}\n--- b.log ---\n{logs['b']}") from failure


def _share_forward_and_take_over(database: str, tmp_path: Path) -> None:
    args = ("--bot-delay", "0", "--lease-ttl", "3")
    with serve(database, tmp_path / "a.log", *args) as a, serve(database, tmp_path / "b.log", *args) as b:
        status, created = a.request("POST", "/api/tables", {"game": "durak", "seed": 8,
                                                            "seats": [{"kind": "human"}, {"kind": "human"}]})
        assert status == 201
        table_id = created["table_id"]
        assert [t["table_id"] for t in b.request("GET", "/api/tables")[1]] == [table_id]
        status, joined = b.request("POST", f"/api/tables/{table_id}/join", {"seat": 1, "name": "Morty"})
        assert status == 200, joined
        status, refused = b.request("POST", f"/api/tables/{table_id}/join", {"seat": 1, "name": "Rick"})
        # the owner's answer, forwarded back with its code and parameters
        assert (status, refused) == (409, {"detail": "seat 1 is taken", "code": "seat_taken", "params": {"seat": 1}})
        assert a.request("GET", f"/api/tables/{table_id}")[1]["seats"][1]["name"] == "Morty"
        tokens = [created["token"], joined["token"]]
        with connect(f"{a.ws}/ws/tables/{table_id}?token={tokens[0]}") as ws0, \
                connect(f"{b.ws}/ws/tables/{table_id}?token={tokens[1]}") as ws1:
            _view(ws0)
            _view(ws1)
            status, started = b.request("POST", f"/api/tables/{table_id}/start", {"token": tokens[0]})
            assert status == 200 and started["status"] == "playing", started
            views = {0: _view(ws0, lambda v: v["status"] == "playing"),
                     1: _view(ws1, lambda v: v["status"] == "playing")}
            assert views[1]["seats"][0]["connected"] is True or views[1]["seats"][0]["kind"] == "human"
            views = _play({0: ws0, 1: ws1}, views, 6)
            assert views[0]["version"] == views[1]["version"] == 6
            assert views[0]["observation"] != views[1]["observation"]  # each seat its own view, on both processes
        _only_owner_wrote(database, table_id, 6)
        _b_shows_a_computer_game_that_a_drives(a, b)
        a.process.send_signal(signal.SIGKILL)  # the owner dies without a word
        a.process.wait()
        _wait_for_owner(database, table_id, dead=_owner(database, table_id))
        with connect(f"{b.ws}/ws/tables/{table_id}?token={tokens[0]}") as ws0, \
                connect(f"{b.ws}/ws/tables/{table_id}?token={tokens[1]}") as ws1:
            views = {0: _view(ws0), 1: _view(ws1)}
            assert views[0]["version"] == 6
            assert f"took over table {table_id}" in b.text_log()
            views = _play({0: ws0, 1: ws1}, views, 400)
            assert views[0]["status"] == "finished"
        status, data = b.request("GET", f"/api/tables/{table_id}/record")
        assert status == 200
        assert "Traceback" not in b.text_log()
    game = cardtable.load_game("durak")
    record = GameRecord.from_json(data, game)
    assert game.outcome(replay(game, record)[0]) is not None


def _owner(database: str, table_id: str) -> str | None:
    engine = create_engine(database)
    with engine.connect() as connection:
        owner = connection.execute(text("SELECT owner FROM leases WHERE table_id = :t"), {"t": table_id}).scalar()
    engine.dispose()
    return None if owner is None else str(owner)


def _wait_for_owner(database: str, table_id: str, dead: str | None, seconds: float = 120.0) -> None:
    """Wait until a live process holds the table's lease."""
    deadline = time.monotonic() + seconds
    while _owner(database, table_id) in (None, dead):
        assert time.monotonic() < deadline, "no process took the table over"
        time.sleep(0.2)


def _only_owner_wrote(database: str, table_id: str, actions: int) -> None:
    """The database holds exactly the acknowledged actions, once each."""
    engine = create_engine(database)
    with engine.connect() as connection:
        indexes = [row[0] for row in connection.execute(
            text('SELECT "index" FROM actions WHERE table_id = :t ORDER BY "index"'), {"t": table_id})]
    engine.dispose()
    assert indexes == list(range(actions))


def _b_shows_a_computer_game_that_a_drives(a: Served, b: Served) -> None:
    """Computer players at a table A owns are moved by A only; a spectator on B follows to the end."""
    status, created = a.request("POST", "/api/tables", {"game": "durak", "seats": [{"kind": "bot"}] * 2})
    assert status == 201
    table_id = created["table_id"]
    with connect(f"{b.ws}/ws/tables/{table_id}") as spectator:
        _view(spectator)
        assert b.request("POST", f"/api/tables/{table_id}/start", {"token": created["token"]})[0] == 200
        last = _view(spectator, lambda v: v["status"] == "finished")
    assert last["outcome"] is not None and last["legal_actions"] == []
    assert "took over" not in b.text_log()
