"""A finished game leaves nothing in the server's memory beyond the bounded cache of finished tables
(``Limits.finished_cache``); ``benchmarks/growth.py`` measures the KiB per game over 1,000 games."""

from __future__ import annotations

import gc
import time
import weakref
from typing import Any

from fastapi.testclient import TestClient

from cardtable.server import create_app
from cardtable.server.limits import Limits


def _play(client: TestClient) -> str:
    """A table of two computer players, dealt and followed until finished; its id."""
    seats = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    made = client.post("/api/tables", json={"game": "crazy_eights", "options": {"rounds": 1}, "seats": seats})
    assert made.status_code == 201, made.text
    table_id, token = made.json()["table_id"], made.json()["token"]
    assert client.post(f"/api/tables/{table_id}/start", json={"token": token}).status_code == 200
    deadline = time.monotonic() + 60
    while client.get(f"/api/tables/{table_id}").json()["status"] == "playing":
        assert time.monotonic() < deadline, "the game did not finish"
        time.sleep(0.01)
    return str(table_id)


def test_a_finished_game_leaves_nothing_beyond_the_bounded_cache(db_url: str) -> None:
    limits = Limits(finished_cache=3, tables_per_minute=1e6, tables_burst=1e6)
    with TestClient(create_app(db_url, bot_delay=0, limits=limits)) as client:
        app: Any = client.app
        manager, social = app.state.manager, app.state.social
        first = _play(client)
        cached = manager.registry.finished.get(first)
        assert cached is not None and first not in manager.registry.tables  # over, nobody there: let go at once
        gone = weakref.ref(cached)
        del cached
        ids = [first] + [_play(client) for _ in range(7)]
        gc.collect()
        assert gone() is None, f"something still holds finished table {first}: {gc.get_referrers(gone())}"
        assert not manager.registry.tables and list(manager.registry.finished) == ids[-3:]
        assert set(social.tables) <= set(ids[-3:])
        # A table let go is still there for whoever asks: loaded from the store.
        again = client.get(f"/api/tables/{first}")
        assert again.status_code == 200 and again.json()["status"] == "finished"
        assert client.get(f"/api/tables/{first}/record").json()["seed"] >= 0
