"""Failure rules: strict input at the edge, ERROR tables, pause and resume, atomic changes under store faults."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable.server import create_app
from tests.server.conftest import create, human_table, play_alone, receive, start


def _refused(response: Any, status: int, words: str) -> str:
    """A refusal: the status and a short one-line JSON detail containing ``words``."""
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and "\n" not in detail and len(detail) < 400, detail
    assert words in detail, detail
    return detail


def _manager(client: TestClient) -> Any:
    return client.app.state.manager  # type: ignore[attr-defined]


def _next_error(ws: Any) -> str:
    """The next error message on a socket (views in between are skipped)."""
    while (message := receive(ws))["type"] != "error":
        pass
    return str(message["message"])


def _wait_for(predicate: Any, seconds: float = 120.0) -> None:
    """Poll until ``predicate()`` holds; fail after ``seconds`` (a hang guard, not a timed assertion)."""
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


# Validation at the edge.


@pytest.mark.parametrize(("body", "field"), [
    ({"game": "durak", "seed": "7"}, "seed"),
    ({"game": "durak", "seed": True}, "seed"),
    ({"game": "durak", "seed": 7.0}, "seed"),
    ({"game": "durak", "name": 5}, "name"),
    ({"game": "durak", "seats": [{"kind": "human"}, {"kind": "bot", "bot": 3}]}, "bot"),
])
def test_create_refuses_to_coerce(client: TestClient, body: dict[str, Any], field: str) -> None:
    """A number in a string, a bool or a float where an int belongs: 422 naming the field, no table."""
    _refused(client.post("/api/tables", json=body), 422, field)
    assert client.get("/api/tables").json() == []


@pytest.mark.parametrize("seat", ["1", True, 1.0])
def test_join_refuses_to_coerce_the_seat(client: TestClient, seat: Any) -> None:
    """The seat number must be a JSON integer."""
    table_id = create(client, "durak", ["human", "human"])["table_id"]
    _refused(client.post(f"/api/tables/{table_id}/join", json={"seat": seat, "name": "M"}), 422, "seat")
    assert client.get(f"/api/tables/{table_id}").json()["seats"][1]["taken"] is False


@pytest.mark.parametrize("name", ["Ri\u202eck", "\u2066Rick", "Ri\u200bck", "Rick\u200e", "Ri\u00adck",
                                  "Ri\u200dck", "Ri\x07ck", "\ufeffRick"])
def test_names_refuse_bidi_zero_width_and_control_characters(client: TestClient, name: str) -> None:
    """Look-alike names are refused with the code point named."""
    detail = _refused(client.post("/api/tables", json={"game": "durak", "name": name}), 422, "name")
    assert "U+" in detail


def test_names_in_any_script_are_welcome(client: TestClient) -> None:
    """Plain letters of any script (and a joiner-free emoji) pass."""
    for name in ("Мария", "José", "李雷", "Ana 🂡"):
        assert client.post("/api/tables", json={"game": "durak", "name": name}).status_code == 201


def test_error_messages_quote_only_a_short_excerpt(client: TestClient) -> None:
    """A huge bad value is not echoed back (neither over REST nor on the socket)."""
    junk = "x" * 5000
    detail = _refused(client.post("/api/tables", json={"game": junk}), 422, "game")
    assert junk[:100] not in detail
    detail = _refused(client.post("/api/tables", json={"game": junk[:60]}), 400, "unknown game")
    assert len(detail) < 200
    table_id, tokens = human_table(client, "durak", 2, seed=3)
    start(client, table_id, tokens[0])
    with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[0]}") as ws:
        receive(ws)
        ws.send_json({"type": "action", "version": 0, "action": {"type": junk * 10}})
        reply = receive(ws)
        assert reply["type"] == "error" and len(reply["message"]) < 400
        ws.send_json({"type": junk})
        reply = receive(ws)
        assert reply["type"] == "error" and len(reply["message"]) < 200


# ERROR: an engine or a computer player that fails stops the table, visibly.


def test_an_engine_failure_puts_the_table_in_error_for_everyone(client: TestClient,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine raises on an action: ERROR with the reason, told to the socket, in the lobby, record kept."""
    table_id, tokens = human_table(client, "durak", 2, seed=5)
    start(client, table_id, tokens[0])
    actor = client.get(f"/api/tables/{table_id}").json()["to_act"]
    with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[actor]}") as ws, \
            client.websocket_connect(f"/ws/tables/{table_id}") as spectator:
        view = receive(ws)
        receive(spectator)
        game = _manager(client).tables[table_id].game

        def broken(*_args: Any, **_kwargs: Any) -> Any:
            raise RuntimeError("the rules engine has a bug")

        monkeypatch.setattr(game, "apply", broken)
        ws.send_json({"type": "action", "version": 0, "action": view["legal_actions"][0]["action"]})
        messages = [receive(ws), receive(ws)]
        told = [m for m in messages if m["type"] == "error" and "stopped" in m["message"]]
        assert told and "bug" in told[0]["message"]
        while (seen := receive(spectator))["type"] != "view" or seen["status"] != "error":
            pass
        assert "bug" in seen["error"]
    listed = {t["table_id"]: t for t in client.get("/api/tables").json()}
    assert listed[table_id]["status"] == "error" and "bug" in listed[table_id]["error"]
    summary = client.get(f"/api/tables/{table_id}").json()
    assert summary["status"] == "error" and summary["version"] == 0
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert any("bug" in note for note in record["notes"])


def test_a_failing_computer_player_puts_the_table_in_error(client: TestClient,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A computer player whose observation cannot be built stops the table in ERROR (not a stuck table)."""
    created = create(client, "durak", ["bot", "bot"])
    table_id = created["table_id"]
    game = _manager(client).tables[table_id].game

    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("cannot observe")

    monkeypatch.setattr(game, "observe", broken)
    start(client, table_id, created["token"])
    _wait_for(lambda: client.get(f"/api/tables/{table_id}").json()["status"] == "error")
    assert "cannot observe" in client.get(f"/api/tables/{table_id}").json()["error"]


def test_the_host_pauses_and_resumes(client: TestClient) -> None:
    """Pause stops actions (409) until resume; only the host may do either; both over REST and socket."""
    table_id, tokens = human_table(client, "durak", 2, seed=9)
    _refused(client.post(f"/api/tables/{table_id}/pause", json={"token": tokens[0]}), 409, "not playing")
    start(client, table_id, tokens[0])
    _refused(client.post(f"/api/tables/{table_id}/pause", json={"token": tokens[1]}), 403, "host")
    assert client.post(f"/api/tables/{table_id}/pause", json={"token": tokens[0]}).json()["status"] == "paused"
    actor = client.get(f"/api/tables/{table_id}").json()["to_act"]
    with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[actor]}") as ws:
        view = receive(ws)
        assert view["status"] == "paused" and view["legal_actions"] == []
        ws.send_json({"type": "action", "version": 0, "action": {"type": "take"}})
        assert "paused" in receive(ws)["message"]
    assert client.post(f"/api/tables/{table_id}/resume", json={"token": tokens[0]}).json()["status"] == "playing"
    with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[1]}") as guest, \
            client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[0]}") as host:
        receive(guest)
        receive(host)
        guest.send_json({"type": "pause"})
        assert "only the host" in _next_error(guest)
        host.send_json({"type": "pause"})
        while (seen := receive(host))["type"] != "view" or seen["status"] != "paused":
            pass
        host.send_json({"type": "resume"})
        while (seen := receive(host))["type"] != "view" or seen["status"] != "playing":
            pass


def test_computer_players_wait_while_paused(client: TestClient) -> None:
    """A paused table of computer players does not move; resumed, it finishes."""
    created = create(client, "durak", ["bot", "bot"])
    table_id, token = created["table_id"], created["token"]
    manager = _manager(client)
    manager.bot_delay = 0.05
    with client.websocket_connect(f"/ws/tables/{table_id}"):  # watched: the computer players keep that pace
        start(client, table_id, token)
        assert client.post(f"/api/tables/{table_id}/pause", json={"token": token}).status_code == 200
        frozen = client.get(f"/api/tables/{table_id}").json()["version"]
        time.sleep(0.3)
        assert client.get(f"/api/tables/{table_id}").json()["version"] == frozen
    manager.bot_delay = 0
    client.post(f"/api/tables/{table_id}/resume", json={"token": token})
    _wait_for(lambda: client.get(f"/api/tables/{table_id}").json()["status"] == "finished")


def test_a_pause_holds_a_table_of_computer_players_at_full_speed(client: TestClient) -> None:
    """Nobody watches: the computer players decide ahead at full speed; a pause still stops them where it is."""
    held = 0
    for _ in range(5):
        # Six-player Wizard, all ten rounds: over a hundred moves, each one committed, so the pause comes long
        # before the end.
        created = create(client, "wizard", ["bot"] * 6, options={}, bot="heuristic")
        table_id, token = created["table_id"], created["token"]
        start(client, table_id, token)
        paused = client.post(f"/api/tables/{table_id}/pause", json={"token": token})
        if paused.status_code != 200:
            assert paused.json()["code"] == "table_is_not"  # over before the pause came: try another
            continue
        frozen = client.get(f"/api/tables/{table_id}").json()
        assert frozen["status"] == "paused"
        time.sleep(0.3)
        assert client.get(f"/api/tables/{table_id}").json()["version"] == frozen["version"]
        held += 1
    assert held >= 1, "every game ended before its pause: the test checked nothing"


# Atomic changes: a store failure changes nothing, anywhere.


def _break(monkeypatch: pytest.MonkeyPatch, store: Any, *names: str) -> None:
    def broken(*_args: Any, **_kwargs: Any) -> None:
        raise OSError(28, "No space left on device")

    for name in names:
        monkeypatch.setattr(store, name, broken)


def test_a_failed_create_leaves_no_table(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """503 with one line; nothing listed; it works once the store does."""
    _break(monkeypatch, _manager(client).store, "create_table")
    _refused(client.post("/api/tables", json={"game": "durak"}), 503, "nothing changed")
    monkeypatch.undo()
    assert client.get("/api/tables").json() == []
    assert client.post("/api/tables", json={"game": "durak"}).status_code == 201


def test_a_failed_join_leaves_the_seat_free(client: TestClient, db_url: str,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The seat stays free in memory and in the database; the same join then succeeds."""
    table_id = create(client, "durak", ["human", "human"])["table_id"]
    _break(monkeypatch, _manager(client).store, "save_seats")
    _refused(client.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Morty"}), 503, "nothing changed")
    monkeypatch.undo()
    assert client.get(f"/api/tables/{table_id}").json()["seats"][1]["taken"] is False
    joined = client.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Morty"})
    assert joined.status_code == 200
    with TestClient(create_app(db_url, bot_delay=0)) as other:  # what the database says, read afresh
        assert other.get(f"/api/tables/{table_id}").json()["seats"][1]["name"] == "Morty"


def test_a_failed_start_leaves_the_table_waiting(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Start answers 503 and the table is still waiting, seats unchanged; a second start works."""
    created = create(client, "durak", ["human", "human"])
    table_id = created["table_id"]
    _break(monkeypatch, _manager(client).store, "save_seats")
    _refused(client.post(f"/api/tables/{table_id}/start", json={"token": created["token"]}), 503, "nothing changed")
    monkeypatch.undo()
    summary = client.get(f"/api/tables/{table_id}").json()
    assert summary["status"] == "waiting" and summary["seats"][1]["kind"] == "human"
    assert start(client, table_id, created["token"])["status"] == "playing"


def test_a_computer_move_that_cannot_be_stored_is_retried(client: TestClient,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """While the store refuses, computer players wait; when it works again, the game carries on to the end."""
    created = create(client, "durak", ["bot", "bot"])
    table_id = created["table_id"]
    store = _manager(client).store
    _break(monkeypatch, store, "append_actions")
    start(client, table_id, created["token"])
    time.sleep(0.5)
    assert client.get(f"/api/tables/{table_id}").json()[("status")] == "playing"
    assert client.get(f"/api/tables/{table_id}").json()["version"] == 0
    monkeypatch.undo()
    _wait_for(lambda: client.get(f"/api/tables/{table_id}").json()["status"] == "finished")


def test_a_person_who_joined_is_still_there_after_a_restart(db_url: str) -> None:
    """A waiting table comes back from the database with every joined name."""
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        table_id, tokens = human_table(client, "durak", 3)
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        seats = client.get(f"/api/tables/{table_id}").json()["seats"]
        assert [s["name"] for s in seats] == ["Host", "P1", "P2"]
        with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[0]}") as ws:
            receive(ws)
            start(client, table_id, tokens[0])
            client.post(f"/api/tables/{table_id}/leave", json={"token": tokens[1]})
            client.post(f"/api/tables/{table_id}/leave", json={"token": tokens[2]})
            assert play_alone(ws)[-1]["status"] == "finished"


def test_a_process_that_lost_a_table_never_writes_to_it(client: TestClient, db_url: str) -> None:
    """Another process took the lease: this one's next write is refused in its own transaction, nothing stored."""
    from sqlalchemy import create_engine, text

    table_id, tokens = human_table(client, "durak", 2, seed=6)
    start(client, table_id, tokens[0])
    actor = client.get(f"/api/tables/{table_id}").json()["to_act"]
    engine = create_engine(db_url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE leases SET owner = 'another-process' WHERE table_id = :t"), {"t": table_id})
    with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[actor]}") as ws:
        view = receive(ws)
        ws.send_json({"type": "action", "version": 0, "action": view["legal_actions"][0]["action"]})
        assert "another server process" in _next_error(ws)
    with engine.connect() as connection:
        stored = connection.execute(text("SELECT COUNT(*) FROM actions WHERE table_id = :t"), {"t": table_id})
        assert stored.scalar() == 0
    engine.dispose()
    assert _manager(client).tables[table_id].owned is False


def test_a_table_created_while_the_leases_are_renewed_stays_driven_here(client: TestClient) -> None:
    """A renewal that started before a table existed does not list it; that is no reason to give the table up
    (it would stay leased to this process and driven by nobody: joins refused as "changing hands" for ever)."""
    manager = _manager(client)
    renew = manager.store.renew
    made: list[str] = []

    def renew_then_create(owner: str, ttl: float, connection: Any = None) -> set[str]:
        held: set[str] = renew(owner, ttl, connection)
        made.append(create(client, "durak", ["human", "human"])["table_id"])  # while the renewal is in flight
        return held

    manager.store.renew = renew_then_create
    try:
        client.portal.call(manager.housekeeping)  # type: ignore[attr-defined]
    finally:
        manager.store.renew = renew
    (table_id,) = made
    assert manager.tables[table_id].owned
    joined = client.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Morty"})
    assert joined.status_code == 200, joined.text
    client.portal.call(manager.housekeeping)  # type: ignore[attr-defined]
    assert manager.tables[table_id].owned
