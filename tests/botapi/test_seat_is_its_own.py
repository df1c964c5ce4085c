"""A bot's seat is its own, connected or away: take, join and invite refuse it with a clear message, before the
deal and during play; the host frees it explicitly (Remove the bot), which the table is told and the record
notes. A person's seat held while they are away is refused the same way."""

from __future__ import annotations

import time
from typing import Any

from tests.botapi.helpers import account, bot_app, play, seat_bot, start, stream, table


def _refused(response: Any, code: str, *words: str) -> None:
    assert response.status_code == 409, response.text
    answer = response.json()
    assert answer["code"] == code, answer
    for word in words:
        assert word in answer["detail"], answer


def _seats(client: Any, table_id: str) -> list[dict[str, Any]]:
    return list(client.get(f"/api/tables/{table_id}").json()["seats"])


def test_take_join_and_invite_refuse_a_bots_seat_connected_or_away_and_the_host_removes_it(db_url: str) -> None:
    robo, ghost = account(db_url, "Robo"), account(db_url, "Ghost")
    with bot_app(db_url) as client, stream(client, robo) as ws:
        created = table(client, "crazy_eights", 3, options={"rounds": 1})
        table_id, host = created["table_id"], created["token"]
        seat_bot(client, ws, created, 1, "Robo")
        with stream(client, ghost) as gone:
            seat_bot(client, gone, created, 2, "Ghost")
        # Ghost's connection is closed: it is away; Robo is connected.
        assert client.post(f"/api/tables/{table_id}/settings", json={"token": host, "allow_takeover": True}).is_success
        for seat, name in ((1, "Robo"), (2, "Ghost")):  # before the deal
            _refused(client.post(f"/api/tables/{table_id}/take", json={"seat": seat, "name": "Probe"}),
                     "seat_is_bot", name)
            _refused(client.post(f"/api/tables/{table_id}/join", json={"seat": seat, "name": "Probe"}),
                     "seat_is_bot", name)
        _refused(client.post(f"/api/tables/{table_id}/invite", json={"token": host, "seat": 1, "bot": "Ghost"}),
                 "seat_is_bot", "Robo")
        start(client, created)
        for seat, name in ((1, "Robo"), (2, "Ghost")):  # during play
            _refused(client.post(f"/api/tables/{table_id}/take", json={"seat": seat, "name": "Mallory"}),
                     "seat_is_bot", name, "Remove the bot")
            _refused(client.post(f"/api/tables/{table_id}/invite", json={"token": host, "seat": seat, "bot": "Robo"}),
                     "seat_is_bot", name)
        # The host's own seat: the host is away (never connected), the computer covers it; still the host's.
        _refused(client.post(f"/api/tables/{table_id}/take", json={"seat": 0, "name": "Mallory"}), "seat_held", "Host")
        seats = _seats(client, table_id)
        assert [(s["kind"], s["name"]) for s in seats[1:]] == [("remote", "Robo"), ("remote", "Ghost")]
        assert seats[2]["away"] and not seats[1]["away"]

        other = client.post(f"/api/tables/{table_id}/remove_bot", json={"token": "not-the-host", "seat": 2})
        assert other.status_code == 403
        removed = client.post(f"/api/tables/{table_id}/remove_bot", json={"token": host, "seat": 2})
        assert removed.status_code == 200 and removed.json()["removed"] == "Ghost", removed.text
        _refused(client.post(f"/api/tables/{table_id}/remove_bot", json={"token": host, "seat": 2}), "not_a_bot_seat")
        assert _seats(client, table_id)[2]["kind"] == "bot"
        notes = [line.get("note") for line in client.get(f"/api/tables/{table_id}/social").json()["chat"]]
        assert "bot_removed" in notes
        play(ws, seed=3)  # Robo plays its seat to the end
        deadline = time.monotonic() + 60
        while client.get(f"/api/tables/{table_id}").json()["status"] == "playing":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        record = client.get(f"/api/tables/{table_id}/record").json()
    assert any("the host removed the bot Ghost at decision" in note for note in record["notes"]), record["notes"]
