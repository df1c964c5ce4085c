"""A connected tournament entry is asked every decision of its seats, a game's first included; a decision the
computer makes for a bot that is away is counted (kind ``away``) and shown, never silent."""

from __future__ import annotations

import time
from typing import Any

import pytest

from cardtable.server.botapi import tournaments as director_module
from cardtable.server.botapi.tournaments import LiveTournamentDirector
from tests.botapi.helpers import account, bot_app, seat_bot, start, stream, table, until, wait_finished
from tests.server.conftest import receive

BODY = {"game": "crazy_eights", "entries": ["mine=remote:robo", "heuristic"], "options": {"rounds": 1},
        "games": 4, "seed": 11, "concurrency": 1}


def _post(client: Any, token: str, body: dict[str, Any]) -> str:
    made = client.post("/api/tournaments/live", json=body, headers={"Authorization": f"Bearer {token}"})
    assert made.status_code == 201, made.text
    return str(made.json()["tournament"])



def _seat_moves(record: dict[str, Any], seating: list[str], entry: str) -> list[int]:
    """The decision ids (versions) at which ``entry``'s seats acted in a record."""
    seats = {s for s, name in enumerate(seating) if name == entry}
    return [version for version, move in enumerate(record["actions"]) if move["seat"] in seats]


def test_a_connected_entry_is_asked_every_decision_of_its_seat_including_each_games_first(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The deals follow from the seed and the secret salt: a fixed salt makes them the same every run, with
    # games that open with robo's seat (otherwise a run could deal none, and the last check would fail).
    monkeypatch.setattr(director_module, "new_salt", lambda: "5a" * 32)
    admin = account(db_url, "boss", role="admin")
    robo = account(db_url, "robo")
    asked: dict[str, list[int]] = {}
    with bot_app(db_url, decision=60) as client, stream(client, robo) as ws:
        tournament = _post(client, admin, BODY)
        ended = 0
        while ended < BODY["games"]:
            message = receive(ws)
            if message["type"] == "act":
                asked.setdefault(message["table"], []).append(message["id"])
                ws.send_json({"type": "action", "table": message["table"], "id": message["id"], "index": 0})
            elif message["type"] == "end":
                ended += 1
        state = wait_finished(client, tournament, timeout=180)
        listed = client.get(f"/api/tournaments/{tournament}/tables").json()["tables"]
        tables = {t["game"]: t["table_id"] for t in listed}
        records = {i: client.get(f"/api/tournaments/{tournament}/games/{i}/record").json() for i in tables}
    first_moves = 0
    for row in state["stored"]:
        index = row["index"]
        moves = _seat_moves(records[index], row["seating"], "mine")
        assert moves and asked[tables[index]] == moves, (index, moves, asked.get(tables[index]))
        first_moves += moves[0] == 0
    assert first_moves > 0  # some game opened with robo's seat: that first decision was asked too
    assert state["results"]["standings"]["mine"]["failures"] == {}


def test_the_decisions_of_an_entry_that_is_away_are_counted_and_shown(db_url: str) -> None:
    admin = account(db_url, "boss", role="admin")
    account(db_url, "robo")  # never connects
    with bot_app(db_url) as client:
        director: LiveTournamentDirector = client.app.state.director  # type: ignore[attr-defined]
        director.seat_wait = 0.2
        tournament = _post(client, admin, {**BODY, "games": 2})
        state = wait_finished(client, tournament, timeout=180)
        table_id = client.get(f"/api/tournaments/{tournament}/tables").json()["tables"][0]["table_id"]
        seats = client.get(f"/api/tables/{table_id}").json()["seats"]
        notes = client.get(f"/api/tables/{table_id}/record").json()["notes"]
        records = {i: client.get(f"/api/tournaments/{tournament}/games/{i}/record").json() for i in range(2)}
    played = sum(len(_seat_moves(records[row["index"]], row["seating"], "mine")) for row in state["stored"])
    assert played > 0 and state["results"]["standings"]["mine"]["failures"] == {"away": played}
    assert sum(sum(kinds.values()) for row in state["stored"] for kinds in row["failures"].values()) == played
    robo_seat = next(s for s in seats if s["kind"] == "remote")
    assert robo_seat["failures"]["away"] > 0 and not robo_seat["forfeited"]
    assert any("lost decisions: away" in note for note in notes)


def test_a_tables_turn_timer_never_plays_a_bots_decision(db_url: str) -> None:
    robo = account(db_url, "robo")
    with bot_app(db_url, decision=60) as client, stream(client, robo) as ws:
        created = table(client, "crazy_eights", 2, options={"rounds": 1})
        seat_bot(client, ws, created, 1, "robo")
        timer = client.post(f"/api/tables/{created['table_id']}/settings",
                            json={"token": created["token"], "turn_seconds": 0.2})
        assert timer.status_code == 200, timer.text
        start(client, created)
        act = until(ws, "act")
        time.sleep(1.0)  # five times the people's turn timer; well within the bot's own 60 s
        ws.send_json({"type": "action", "table": act["table"], "id": act["id"], "index": 0})
        seen: list[dict[str, Any]] = []
        until(ws, "act", seen)  # robo's next decision: its answer was taken
        chat = client.get(f"/api/tables/{created['table_id']}/social").json()["chat"]
    assert not [m for m in seen if m["type"] in ("error", "refused")], seen
    assert "timeout" not in [line.get("note") for line in chat]  # the timer played no move for the bot
