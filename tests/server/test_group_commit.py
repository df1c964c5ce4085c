"""Group commit: computer moves decided ahead are shown only once stored, and a restart resumes from the last
stored action (moves decided but never stored are simply decided again)."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

import cardtable
from cardtable.core import GameRecord, replay
from cardtable.server import create_app
from tests.server.conftest import create, receive, start


def _wait_for(predicate: Any, seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def _stored_version(path: Path, table_id: str) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("SELECT version FROM tables WHERE id = ?", (table_id,)).fetchone()[0])


def test_views_show_stored_moves_only_and_a_restart_resumes_from_the_last_stored(tmp_path: Path) -> None:
    """The writer stalls: the computer players decide ahead, yet no view shows a move that is not stored; then
    every commit fails (the process dies with its decided moves unstored); a new server on the database resumes
    from the last stored action and the game finishes."""
    path = tmp_path / "cardtable.db"
    stall, give_up = threading.Event(), threading.Event()
    # Short leases: after the crash, the table is free again within a second (as after --lease-ttl).
    with TestClient(create_app(f"sqlite:///{path}", bot_delay=0, lease_ttl=1.0)) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        created = create(client, "wizard", ["bot"] * 4, seed=5, options={"players": 4, "rounds": 5})
        table_id = created["table_id"]
        table = manager.tables[table_id]
        original = manager.store.transaction
        durable: list[int] = []

        def transaction(work: Any) -> Any:
            if stall.is_set():  # the writer hangs (a dying disk); when released, the commit fails
                give_up.wait(300)  # a hang guard longer than _wait_for's: the test releases it
                raise OSError(5, "Input/output error")
            result = original(work)
            durable.append(_stored_version(path, table_id))
            if durable[-1] >= 8:  # from the next commit on, the writer hangs
                stall.set()
            return result

        manager.store.transaction = transaction
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            receive(ws)
            start(client, table_id, created["token"])
            view = receive(ws)
            while view["version"] < 8:
                assert view["version"] <= max(durable, default=0), "a view showed a move not stored yet"
                view = receive(ws)
            assert stall.is_set()
            # Decided ahead, waiting for the stalled writer; the commit under way when it stalled is shown.
            _wait_for(lambda: len(table.ahead.moves) >= 3 and table.version == _stored_version(path, table_id))
            stored = table.version
            assert table.ahead.moves[0].index == stored and max(durable) == stored and view["version"] <= stored
            give_up.set()  # from now on every commit fails: the process "dies" with its decided moves unstored
    # (Only now, the app being stopped: its shutdown would store the decided moves, a crash does not.)
    manager.store.transaction = original
    assert _stored_version(path, table_id) == stored  # the decided moves never reached the database
    with TestClient(create_app(f"sqlite:///{path}", bot_delay=0, lease_ttl=1.0)) as client:
        assert client.get(f"/api/tables/{table_id}").json()["version"] == stored
        _wait_for(lambda: client.get(f"/api/tables/{table_id}").json()["status"] == "finished")
        data = client.get(f"/api/tables/{table_id}/record").json()
    game = cardtable.load_game("wizard")
    record = GameRecord.from_json(data, game)
    assert len(record.actions) > stored
    assert game.outcome(replay(game, record)[0]) is not None
