"""Refusals carry a code and parameters (the page translates them) besides the English line."""

from __future__ import annotations

from fastapi.testclient import TestClient

from cardtable.server.messages import coded
from tests.server.conftest import create, receive, start


def test_known_lines_get_their_codes_and_unknown_lines_keep_their_words() -> None:
    """Seat numbers become integers (the page names the seat); a line no pattern knows is ``refused``."""
    assert coded("it is not your turn (seat 2 is to act)") == {"code": "not_your_turn", "params": {"seat": 2}}
    assert coded("table abc_D-1 is playing, not waiting") == {
        "code": "table_is_not", "params": {"status": "playing", "wanted": "waiting"}}
    assert coded("table abc is finished")["code"] == "table_status"
    assert coded("seat 3 is promised to Rick at its next turn") == {
        "code": "seat_promised", "params": {"seat": 3, "name": "Rick"}}
    assert coded("only the host (or, once the host has left, a player) can start a rematch")["code"] == "rematch_host"
    assert coded("only the host can pause the table")["code"] == "host_only"
    assert coded("The table stopped: the computer player at seat 1 failed: boom") == {
        "code": "table_stopped", "params": {"reason": "the computer player at seat 1 failed: boom"}}
    assert coded("something new") == {"code": "refused", "params": {"detail": "something new"}}
    assert coded("you must follow suit", "illegal") == {"code": "illegal", "params": {"detail": "you must follow suit"}}


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
