"""Everything a bot may send wrong is refused with a clear message and changes nothing; the connection stays."""

from __future__ import annotations

import contextlib
import time
from typing import Any

import pytest
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from cardtable.store import BotAccounts, Store
from tests.botapi.helpers import account, bot_app, receive, seat_bot, start, stream, table, until


def _refused(client: Any, url: str, headers: dict[str, str]) -> None:
    """The upgrade is refused: no message ever comes."""
    with pytest.raises((WebSocketDenialResponse, WebSocketDisconnect)), \
            client.websocket_connect(url, headers=headers) as ws:
        ws.receive_json()


def _turn(ws: Any) -> dict[str, Any]:
    return until(ws, "act")


@pytest.mark.parametrize("headers", [
    {}, {"Authorization": "Bearer"}, {"Authorization": "Basic abc"}, {"Authorization": "Bearer ctb_wrong"},
    {"Authorization": "Bearer not-even-a-token"},
])
def test_a_missing_or_wrong_token_is_refused_before_the_upgrade(db_url: str, headers: dict[str, str]) -> None:
    account(db_url, "robo")
    with bot_app(db_url) as client:
        _refused(client, "/api/bot/stream", headers)


def test_a_token_in_the_url_is_not_accepted_and_a_revoked_one_is_refused(db_url: str) -> None:
    token = account(db_url, "robo")
    with bot_app(db_url) as client:
        _refused(client, f"/api/bot/stream?token={token}", {})
        BotAccounts(Store(db_url).engine).revoke("robo")
        _refused(client, "/api/bot/stream", {"Authorization": f"Bearer {token}"})


JUNK: list[tuple[Any, str]] = [
    ("not json", "not valid JSON"), ("[1, 2]", "JSON object"), ('{"no": "type"}', "unknown message type"),
    ('{"type": "shout"}', "unknown message type 'shout'"), ('{"type": "action"}', 'needs the "table"'),
    ('{"type": "action", "table": 7}', 'needs the "table"'),
    ('{"type": "action", "table": "nope1234", "id": 0, "index": 0}', "no seat at table 'nope1234'"),
    ('{"type": "accept", "invitation": "1"}', 'integer "invitation"'),
    ('{"type": "accept", "invitation": 999}', "no invitation 999"),
    ('{"type": "accept", "invitation": true}', 'integer "invitation"'),
    ('{"type": "ping", "x": NaN}', "not valid JSON"), ('"\\ud800"', "not valid JSON"),
    ("x" * 70_000, "too large"),
]


def test_junk_is_refused_in_one_line_and_the_connection_stays(db_url: str) -> None:
    token = account(db_url, "robo")
    with bot_app(db_url) as client, stream(client, token) as ws:
        for text, reason in JUNK:
            ws.send_text(text)
            answer = receive(ws)
            assert answer["type"] == "error" and reason in answer["message"], (text[:40], answer)
        ws.send_bytes(b'{"type": "ping"}')
        assert "binary messages" in receive(ws)["message"]
        ws.send_json({"type": "ping"})
        assert receive(ws)["type"] == "pong"


def test_bad_answers_to_a_decision_change_nothing_or_cost_only_that_decision(db_url: str) -> None:
    token = account(db_url, "robo")
    other = account(db_url, "other")
    with bot_app(db_url, decision=30) as client, stream(client, token) as ws:
        created = table(client, "crazy_eights", 2, options={"rounds": 1})
        seat_bot(client, ws, created, 1, "robo")
        second = table(client, "crazy_eights", 2, options={"rounds": 1}, seed=8)
        seat_bot(client, ws, second, 1, "robo")
        start(client, created)
        act = _turn(ws)
        table_id, version = act["table"], act["id"]

        def version_now() -> int:
            return int(client.get(f"/api/tables/{table_id}").json()["version"])

        refusals = [
            ({"type": "action", "table": table_id, "index": 0}, 'integer "id"'),
            ({"type": "action", "table": table_id, "id": True, "index": 0}, 'integer "id"'),
            ({"type": "action", "table": table_id, "id": version + 5, "index": 0}, "stale decision id"),
            ({"type": "action", "table": table_id, "id": version - 1, "index": 0}, "stale decision id"),
            ({"type": "action", "table": second["table_id"], "id": version, "index": 0}, "table is waiting"),
            ({"type": "failure", "table": table_id, "id": version, "kind": "nonsense"}, "a failure's kind"),
        ]
        for message, reason in refusals:
            ws.send_json(message)
            answer = until(ws, "error")
            assert reason in answer["message"], (message, answer)
            assert version_now() == version
        # A second bot cannot act at a seat that is not its own.
        with stream(client, other) as intruder:
            intruder.send_json({"type": "action", "table": table_id, "id": version, "index": 0})
            assert "no seat at table" in until(intruder, "error")["message"]
        assert version_now() == version
        # Malformed answers cost the decision (the computer plays it) and are counted.
        for bad in ({"index": 10_000}, {"index": True}, {"index": 1.0}, {"action": {"type": "fly"}}):
            ws.send_json({"type": "action", "table": table_id, "id": act["id"], **bad})
            answer = until(ws, "error")
            assert "malformed" in answer["message"], (bad, answer)
            act = _turn(ws)
        # An action of the game that is not legal now: refused with the engine's reason, counted, played for.
        illegal = {"type": "draw"} if any(a["type"] != "draw" for a in act["legal"]) else {"type": "pass"}
        if illegal in act["legal"]:
            illegal = {"type": "play", "card": next(c for c in range(52) if {"type": "play", "card": c}
                                                    not in act["legal"] and c not in act["observation"]["hand"])}
        ws.send_json({"type": "action", "table": table_id, "id": act["id"], "action": illegal})
        refused = until(ws, "refused")
        assert refused["id"] == act["id"] and refused["action"] == illegal and refused["reason"]
        seats = client.get(f"/api/tables/{table_id}/record")
        assert seats.status_code == 409  # the game is still on: no record yet
        chat = [line.get("note") for line in client.get(f"/api/tables/{table_id}/social").json()["chat"]]
        assert chat.count("bot_malformed") == 4 and chat.count("bot_illegal") == 1


def test_a_flood_is_dropped_with_a_warning_then_closed(db_url: str) -> None:
    token = account(db_url, "robo")
    # A burst of five and next to no refill (one message in 1000 s): the sixth is dropped however slowly the
    # test sends (at 5 a second, a busy machine's 0.2 s between the first pings refilled one and it passed).
    with bot_app(db_url, messages_per_second=0.001, burst=5, flood_seconds=0.5) as client, \
            stream(client, token) as ws:
        for _ in range(5):
            ws.send_json({"type": "ping"})
            assert receive(ws)["type"] == "pong"
        ws.send_json({"type": "ping"})
        assert "too many messages" in receive(ws)["message"]
        deadline = time.monotonic() + 120  # a hang guard: the close comes half a second into the flood
        with pytest.raises(WebSocketDisconnect) as closed:
            while time.monotonic() < deadline:  # keep flooding; read what comes (pongs, one warning a second)
                for _ in range(20):
                    ws.send_json({"type": "ping"})
                with contextlib.suppress(TimeoutError):
                    receive(ws, timeout=0.2)
        assert closed.value.code == 1008
