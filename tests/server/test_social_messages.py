"""Refusals carry a code and parameters (the page translates them) besides the English line."""

from __future__ import annotations

from fastapi.testclient import TestClient

from cardtable.server.messages import coded
from tests.server.conftest import create, receive, start


def test_a_refusal_without_code_keeps_its_words_and_one_without_params_gives_its_line() -> None:
    """No code: ``refused`` with the English line; a code and no params: the line as ``detail``."""
    assert coded("something new") == {"code": "refused", "params": {"detail": "something new"}}
    assert coded("you must follow suit", "illegal") == {"code": "illegal", "params": {"detail": "you must follow suit"}}
    assert coded("it is not your turn (seat 2 is to act)", "not_your_turn", {"seat": 2}) == {
        "code": "not_your_turn", "params": {"seat": 2}}


def test_refusals_name_their_code_where_they_are_raised(client: TestClient) -> None:
    """A taken seat and a seat off the table: the code and the seat number come from the place that refused."""
    created = create(client, "durak", ["human", "human"])
    table_id = created["table_id"]
    client.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Morty"})
    taken = client.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Summer"})
    assert taken.status_code == 409
    assert taken.json() == {"detail": "seat 1 is taken", "code": "seat_taken", "params": {"seat": 1}}
    off = client.post(f"/api/tables/{table_id}/join", json={"seat": 7, "name": "Summer"})
    assert off.status_code == 400
    assert off.json() == {"detail": "no seat 7: the table has seats 0–1", "code": "no_seat", "params": {"seat": 7}}


def test_rest_and_socket_refusals_carry_code_params_and_the_english_line(client: TestClient) -> None:
    """A too-long chat line (REST) and an action out of turn (socket): code, params and the English text."""
    created = create(client, "durak", ["human", "human"])
    table_id = created["table_id"]
    refused = client.post(f"/api/tables/{table_id}/chat", json={"token": created["token"], "text": "x" * 201})
    assert refused.status_code == 400
    assert refused.json() == {"detail": "a message may have at most 200 characters (this one has 201)",
                              "code": "chat_too_long", "params": {"max": "200", "n": "201"}}
    joined = client.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Morty"}).json()
    start(client, table_id, created["token"])
    with client.websocket_connect(f"/ws/tables/{table_id}?token={created['token']}") as first, \
            client.websocket_connect(f"/ws/tables/{table_id}?token={joined['token']}") as second:
        views = [receive(first), receive(second)]
        idle = next(i for i, v in enumerate(views) if v["to_act"] != v["seat"])
        actor = views[1 - idle]
        socket = (first, second)[idle]
        socket.send_json({"type": "action", "version": actor["version"],
                          "action": actor["legal_actions"][0]["action"]})
        error = receive(socket)
        while error["type"] != "error":
            error = receive(socket)
    assert error["code"] == "not_your_turn" and error["params"] == {"seat": actor["seat"]}
    assert error["message"] == f"it is not your turn (seat {actor['seat']} is to act)"
