"""Taking over a computer seat during play (seed 004, issue 14 item 6): the computer keeps the seat until its
next turn begins, then it is the person's; asked on the seat's own turn, it is theirs at once."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from cardtable.server import create_app
from tests.server.conftest import create, receive, start


def _until(ws: WebSocketTestSession, wanted: Callable[[dict[str, Any]], bool], seen: list[dict[str, Any]] | None = None,
           ) -> dict[str, Any]:
    """Messages on a socket until one satisfies ``wanted`` (each kept in ``seen``); fails after 120 s (a hang guard)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        message = receive(ws)
        if seen is not None:
            seen.append(message)
        if wanted(message):
            return message
    raise AssertionError("the awaited message never came")


def _view_after(version: int) -> Callable[[dict[str, Any]], bool]:
    """Whether a message is a view newer than ``version``."""
    return lambda m: m["type"] == "view" and m["version"] > version


def _allow(client: TestClient, table_id: str, token: str) -> None:
    response = client.post(f"/api/tables/{table_id}/settings", json={"token": token, "allow_takeover": True})
    assert response.status_code == 200, response.text


def test_a_takeover_during_play_waits_for_the_seats_next_turn(client: TestClient) -> None:
    """Asked while the host is to play: shown as promised, the seat stays the computer's, and when its turn
    comes the computer does not move: the person gets the seat, its hand and its legal actions."""
    created = create(client, "wizard", ["human", "bot", "bot"], seed=11)
    table_id, host = created["table_id"], created["token"]
    _allow(client, table_id, host)
    start(client, table_id, host)
    with client.websocket_connect(f"/ws/tables/{table_id}?token={host}") as ws:
        view = _until(ws, lambda m: m["type"] == "view" and m["to_act"] == 0)
        taken = client.post(f"/api/tables/{table_id}/take", json={"seat": 2, "name": "Summer"})
        assert taken.status_code == 200, taken.text
        seen: list[dict[str, Any]] = []
        note = _until(ws, lambda m: m["type"] == "chat", seen)["line"]
        assert (note["note"], note["seat"], note["who"]) == ("takeover_pending", 2, "Summer")
        table = client.get(f"/api/tables/{table_id}").json()
        assert table["seats"][2]["kind"] == "bot" and table["version"] == view["version"]
        assert client.get(f"/api/tables/{table_id}/social").json()["pending"] == [{"seat": 2, "name": "Summer"}]
        second = client.post(f"/api/tables/{table_id}/take", json={"seat": 2, "name": "Beth"})
        assert second.status_code == 409 and "promised to Summer" in second.json()["detail"]
        # Before the handover the new token holds no seat: its socket is a spectator's.
        with client.websocket_connect(f"/ws/tables/{table_id}?token={taken.json()['token']}") as early:
            assert receive(early)["seat"] is None
        ws.send_json({"type": "action", "version": view["version"], "action": view["legal_actions"][0]["action"]})
        done = _until(ws, lambda m: m["type"] == "takeover" and m["done"], seen)
        assert done["seat"] == 2
    table = client.get(f"/api/tables/{table_id}").json()
    assert table["seats"][2]["kind"] == "human" and table["seats"][2]["name"] == "Summer"
    assert table["to_act"] == 2  # the computer did not play the turn it handed over
    record_actions = table["version"]
    with client.websocket_connect(f"/ws/tables/{table_id}?token={taken.json()['token']}") as mine:
        view = _until(mine, lambda m: m["type"] == "view")
        assert view["seat"] == 2 and view["legal_actions"] and view["observation"]["hand"]
        assert view["version"] == record_actions


def test_a_takeover_asked_on_the_seats_own_turn_is_at_once(db_url: str) -> None:
    """While the computer waits to play the seat, the person gets it before the computer moves."""
    with TestClient(create_app(db_url, bot_delay=1.0)) as client:
        created = create(client, "durak", ["human", "bot"], seed=3)
        table_id, host = created["table_id"], created["token"]
        _allow(client, table_id, host)
        start(client, table_id, host)
        with client.websocket_connect(f"/ws/tables/{table_id}?token={host}") as ws:
            view = _until(ws, lambda m: m["type"] == "view")
            while view["to_act"] != 1:
                if view["legal_actions"]:
                    ws.send_json({"type": "action", "version": view["version"],
                                  "action": view["legal_actions"][0]["action"]})
                view = _until(ws, _view_after(view["version"]))
            taken = client.post(f"/api/tables/{table_id}/take", json={"seat": 1, "name": "Summer"})
            assert taken.status_code == 200, taken.text
        table = client.get(f"/api/tables/{table_id}").json()
        assert table["seats"][1]["kind"] == "human" and table["version"] == view["version"]
        time.sleep(1.3)  # longer than the computer's delay: it must not have moved for the seat
        assert client.get(f"/api/tables/{table_id}").json()["version"] == view["version"]
        with client.websocket_connect(f"/ws/tables/{table_id}?token={taken.json()['token']}") as mine:
            mine_view = _until(mine, lambda m: m["type"] == "view")
            assert mine_view["seat"] == 1 and mine_view["legal_actions"]


def test_taking_over_during_play_needs_the_hosts_permission(client: TestClient) -> None:
    """Refused by default with one line; nothing is promised."""
    created = create(client, "durak", ["human", "bot"])
    table_id = created["table_id"]
    start(client, table_id, created["token"])
    refused = client.post(f"/api/tables/{table_id}/take", json={"seat": 1, "name": "Summer"})
    assert refused.status_code == 409 and "does not let" in refused.json()["detail"]
    assert client.get(f"/api/tables/{table_id}/social").json()["pending"] == []


def test_a_pending_takeover_is_kept_per_process_memory_only(tmp_path: Path) -> None:
    """A restart forgets a promise (documented): the page is told by the social state's empty ``pending``."""
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    with TestClient(create_app(url, bot_delay=0)) as client:
        created = create(client, "wizard", ["human", "bot", "bot"], seed=11)
        table_id, host = created["table_id"], created["token"]
        _allow(client, table_id, host)
        start(client, table_id, host)
        with client.websocket_connect(f"/ws/tables/{table_id}?token={host}") as ws:
            _until(ws, lambda m: m["type"] == "view" and m["to_act"] == 0)
        assert client.post(f"/api/tables/{table_id}/take", json={"seat": 2, "name": "Summer"}).status_code == 200
        assert client.get(f"/api/tables/{table_id}/social").json()["pending"] == [{"seat": 2, "name": "Summer"}]
    with TestClient(create_app(url, bot_delay=0)) as client:
        assert client.get(f"/api/tables/{table_id}/social").json()["pending"] == []
        assert client.get(f"/api/tables/{table_id}").json()["seats"][2]["kind"] == "bot"


def test_a_promise_lapses_when_the_game_stops_before_the_seats_turn(client: TestClient,
                                                                    monkeypatch: Any) -> None:
    """The engine fails on the host's move: the table stops, the promise is withdrawn and everyone is told."""
    created = create(client, "wizard", ["human", "bot", "bot"], seed=11)
    table_id, host = created["table_id"], created["token"]
    _allow(client, table_id, host)
    start(client, table_id, host)
    with client.websocket_connect(f"/ws/tables/{table_id}?token={host}") as ws:
        view = _until(ws, lambda m: m["type"] == "view" and m["to_act"] == 0)
        assert client.post(f"/api/tables/{table_id}/take", json={"seat": 2, "name": "Summer"}).status_code == 200
        game = client.app.state.manager.tables[table_id].game  # type: ignore[attr-defined]

        def broken(*_args: Any, **_kwargs: Any) -> Any:
            raise RuntimeError("the rules engine has a bug")

        monkeypatch.setattr(game, "apply", broken)
        ws.send_json({"type": "action", "version": view["version"], "action": view["legal_actions"][0]["action"]})
        lapsed = _until(ws, lambda m: m["type"] == "takeover" and m.get("cancelled") is True)
        assert (lapsed["seat"], lapsed["name"], lapsed["done"]) == (2, "Summer", False)
    assert client.get(f"/api/tables/{table_id}/social").json()["pending"] == []
    assert client.get(f"/api/tables/{table_id}").json()["seats"][2]["kind"] == "bot"


def test_computer_moves_do_not_run_ahead_past_a_promised_seat(db_url: str) -> None:
    """At a table of computers the moves are decided ahead of their commits; a promise stops that, so the
    promised seat's next turn is handed over rather than decided before anyone looks."""
    with TestClient(create_app(db_url, bot_delay=0.5)) as client:
        created = create(client, "wizard", ["bot", "bot", "bot"], seed=11)
        table_id, host = created["table_id"], created["token"]
        _allow(client, table_id, host)
        # Watched, so the computers keep the table's pace (nobody watching: full speed, and the seat chosen
        # below could come to act before the promise reaches the server).
        with client.websocket_connect(f"/ws/tables/{table_id}"):
            start(client, table_id, host)
            manager = client.app.state.manager  # type: ignore[attr-defined]
            table = manager.tables[table_id]
            assert manager.driver.may_run_ahead(table)  # nobody seated is connected
            seat = (table.to_act + 1) % 3  # not the seat to act: the promise waits for its turn
            taken = client.post(f"/api/tables/{table_id}/take", json={"seat": seat, "name": "Summer"})
            assert taken.status_code == 200, taken.text
            assert taken.json()["pending"]
            assert not manager.driver.may_run_ahead(table)
            deadline = time.monotonic() + 120  # a hang guard
            while client.get(f"/api/tables/{table_id}").json()["seats"][seat]["kind"] != "human":
                assert time.monotonic() < deadline, "the promised seat was never handed over"
                time.sleep(0.02)
            assert manager.driver.may_run_ahead(table)  # the promise is kept: nothing holds the computers back
