"""Tournaments the server plays at live tables: asked by an admin account, resumable, the arena's results."""

from __future__ import annotations

import contextlib
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from cardtable.server.botapi import tournaments as director_module
from cardtable.store import BotAccounts, Store
from tests.botapi.helpers import account, bot_app, play, stream, wait_finished

BODY = {"game": "crazy_eights", "entries": ["first=random", "heuristic", "last=random"], "options": {"rounds": 1},
        "games": 6, "seed": 4, "concurrency": 2}



def _post(client: Any, token: str | None, body: dict[str, Any]) -> Any:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    return client.post("/api/tournaments/live", json=body, headers=headers)


def test_only_an_admin_account_may_ask_and_bad_definitions_are_refused(db_url: str) -> None:
    admin = account(db_url, "boss", role="admin")
    player = account(db_url, "robo")
    with bot_app(db_url) as client:
        assert _post(client, None, BODY).status_code == 401
        assert _post(client, "ctb_wrong", BODY).status_code == 401
        assert _post(client, player, BODY).status_code == 403
        refusals = [({"entries": ["a=remote:nobody", "heuristic"]}, "no bot account 'nobody'"),
                    ({"entries": ["a=exec:python3 x.py", "heuristic"]}, "runs no programs"),
                    ({"entries": ["a=telepathy", "heuristic"]}, "no bot 'telepathy'"),
                    ({"options": {"rounds": 7}}, "rounds"), ({"format": "knockout"}, "knockout"),
                    ({"game": "chess"}, "chess")]
        for change, reason in refusals:
            response = _post(client, admin, {**BODY, **change})
            assert response.status_code == 400, (change, response.text)
            assert reason in response.json()["detail"], (change, response.text)
        assert client.get("/api/tournaments").json() == []


def test_a_tournament_with_a_connected_bot_plays_at_live_tables_to_its_results(db_url: str) -> None:
    admin = account(db_url, "boss", role="admin")
    robo = account(db_url, "robo")
    with bot_app(db_url) as client, stream(client, robo) as ws:
        playing = threading.Event()

        def bot() -> None:
            playing.set()
            with contextlib.suppress(Exception):  # the stream closes when the test is done with it
                for _ in range(6):  # one game per table it holds, one after another
                    play(ws, seed=5)

        body = {**BODY, "entries": ["mine=remote:robo", "heuristic", "first=random"], "concurrency": 1}
        made = _post(client, admin, body)
        assert made.status_code == 201, made.text
        tournament = made.json()["tournament"]
        worker = threading.Thread(target=bot, daemon=True)
        worker.start()
        state = wait_finished(client, tournament)
        tables = client.get(f"/api/tournaments/{tournament}/tables").json()["tables"]
    results = state["results"]
    assert results["played"] == 6 and set(results["standings"]) == {"mine", "heuristic", "first"}
    assert results["standings"]["mine"]["games"] == 6 and not results["errors"]
    assert len(tables) == 6 and len({t["table_id"] for t in tables}) == 6
    again = state["stored"][0]
    assert again["seating"] and again["status"] == "finished"


def _results(db_url: str, stop_after: int | None) -> dict[str, Any]:
    admin = account(db_url, "boss", role="admin")
    with bot_app(db_url) as client:
        tournament = _post(client, admin, BODY).json()["tournament"]
        if stop_after is None:
            return dict(wait_finished(client, tournament)["results"])
        deadline = time.monotonic() + 60
        while client.get(f"/api/tournaments/{tournament}").json()["stored_games"] < stop_after:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    with bot_app(db_url) as client:  # the server restarts: the tournament resumes by itself
        return dict(wait_finished(client, tournament)["results"])


def test_a_restarted_server_resumes_a_live_tournament_with_the_results_of_an_uninterrupted_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Both servers draw the same secret salt, so both tournaments deal the same cards.
    monkeypatch.setattr(director_module, "new_salt", lambda: "5a" * 32)
    whole = _results(f"sqlite:///{tmp_path / 'whole.db'}", None)
    resumed = _results(f"sqlite:///{tmp_path / 'resumed.db'}", 2)
    for key in ("standings", "ranking", "head_to_head", "played"):
        assert resumed[key] == whole[key], key


def test_a_revoked_admin_token_is_refused(db_url: str) -> None:
    admin = account(db_url, "boss", role="admin")
    BotAccounts(Store(db_url).engine).revoke("boss")
    with bot_app(db_url) as client:
        assert _post(client, admin, BODY).status_code == 401
