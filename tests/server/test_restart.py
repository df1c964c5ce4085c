"""Restarts, storage and takeovers: nothing accepted is lost, tables resume, absent people are covered."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

import cardtable
from cardtable.core import GameRecord, replay
from cardtable.server import create_app
from cardtable.store import DATABASE_URL_ENV, DEFAULT_DATABASE_URL, Store, hash_token, resolve_database_url
from tests.server.conftest import create, human_table, play_alone, receive, start


def _play_moves(client: TestClient, table_id: str, tokens: list[str], moves: int) -> list[dict[str, object]]:
    """Play ``moves`` actions (each seat's first legal action) over two sockets; the actions sent."""
    sent: list[dict[str, object]] = []
    with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[0]}") as ws0:
        views = {0: receive(ws0)}
        with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[1]}") as ws1:
            sockets = {0: ws0, 1: ws1}
            views = {1: receive(ws1), 0: receive(ws0)}
            for _ in range(moves):
                actor = views[0]["to_act"]
                action = views[actor]["legal_actions"][-1]["action"]
                sockets[actor].send_json({"type": "action", "version": views[0]["version"], "action": action})
                sent.append(action)
                views = {seat: receive(ws) for seat, ws in sockets.items()}
    return sent


def test_a_restarted_server_finishes_the_game_with_the_same_record(db_url: str) -> None:
    """Start a table, play some moves, stop; a new app on the same database resumes and finishes it."""
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        table_id, tokens = human_table(client, "durak", 2, seed=21)
        start(client, table_id, tokens[0])
        before = _play_moves(client, table_id, tokens, 6)
        with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[0]}") as ws:
            last_view = receive(ws)
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        table = client.get(f"/api/tables/{table_id}").json()
        assert (table["status"], table["version"]) == ("playing", 6)
        assert [t["table_id"] for t in client.get("/api/tables").json()] == [table_id]
        with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[0]}") as ws:
            resumed = receive(ws)
            assert resumed["seat"] == 0
            assert (resumed["observation"], resumed["events"]) == (last_view["observation"], last_view["events"])
        _finish_both(client, table_id, tokens)
        data = client.get(f"/api/tables/{table_id}/record").json()
    game = cardtable.load_game("durak")
    record = GameRecord.from_json(data, game)
    assert [a["action"] for a in data["actions"][:6]] == before
    assert record.seed == 21 and game.outcome(replay(game, record)[0]) is not None


def _finish_both(client: TestClient, table_id: str, tokens: list[str]) -> None:
    """Play both seats to the end (seat 1 by leaving it to the computer once seat 0 is connected)."""
    client.post(f"/api/tables/{table_id}/leave", json={"token": tokens[1]})
    with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[0]}") as ws:
        assert play_alone(ws)[-1]["status"] == "finished"


def test_computer_players_resume_after_a_restart(db_url: str) -> None:
    """A table with a computer player resumes it: the stored prefix stays, the game ends."""
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        created = create(client, "crazy_eights", ["human", "bot", "bot"], seed=4)
        table_id = created["table_id"]
        with client.websocket_connect(f"/ws/tables/{table_id}?token={created['token']}") as ws:
            receive(ws)
            start(client, table_id, created["token"])
            acted_on = -1
            while (view := receive(ws))["version"] < 3:
                if view["legal_actions"] and view["version"] != acted_on:
                    acted_on = view["version"]
                    ws.send_json({"type": "action", "version": view["version"],
                                  "action": view["legal_actions"][0]["action"]})
    stored = Store(db_url).load(table_id)
    assert stored is not None and stored.status == "playing" and len(stored.actions) >= 3
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        with client.websocket_connect(f"/ws/tables/{table_id}?token={created['token']}") as ws:
            assert play_alone(ws)[-1]["status"] == "finished"
        data = client.get(f"/api/tables/{table_id}/record").json()
    prefix = [{"seat": seat, "action": action} for seat, action in stored.actions]
    assert data["actions"][:len(prefix)] == prefix
    assert {a["seat"] for a in data["actions"][len(prefix):]} >= {1, 2}


def _play_first_legal(client: TestClient, table_id: str, token: str, turns: int | None = None) -> int:
    """Seat 0 plays its first legal action at each of its turns: ``turns`` of them, or to the end (``None``);
    the table's version when it stops."""
    played, acted_on = 0, -1
    with client.websocket_connect(f"/ws/tables/{table_id}?token={token}") as ws:
        while True:
            view = receive(ws)
            if view["type"] != "view" or view["version"] == acted_on or not view["legal_actions"]:
                if view["type"] == "view" and view["status"] == "finished":
                    return int(view["version"])
                continue
            if played == turns:
                return int(view["version"])
            acted_on, played = view["version"], played + 1
            ws.send_json({"type": "action", "version": view["version"], "action": view["legal_actions"][0]["action"]})


def _bots_table(client: TestClient) -> tuple[str, str]:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot"}]
    body = {"game": "wizard", "options": {"players": 3, "rounds": 5}, "seats": seats, "seed": 12}
    created = client.post("/api/tables", json=body).json()
    start(client, created["table_id"], created["token"])
    return created["table_id"], created["token"]


def test_computer_players_resumed_mid_game_choose_as_if_left_alone(tmp_path: Path) -> None:
    """Bots made anew after a restart first catch up with their seats' earlier decisions (their random streams,
    a search bot's beliefs), so the resumed table ends with the record of the same table left alone."""
    alone_url, resumed_url = f"sqlite:///{tmp_path / 'alone.db'}", f"sqlite:///{tmp_path / 'resumed.db'}"
    with TestClient(create_app(alone_url, bot_delay=0)) as client:
        table_id, token = _bots_table(client)
        _play_first_legal(client, table_id, token)
        alone = client.get(f"/api/tables/{table_id}/record").json()["actions"]
    with TestClient(create_app(resumed_url, bot_delay=0)) as client:
        table_id, token = _bots_table(client)
        stopped_at = _play_first_legal(client, table_id, token, turns=3)
    assert 6 <= stopped_at < len(alone)  # stopped mid-game, after both bots had played
    with TestClient(create_app(resumed_url, bot_delay=0)) as client:
        _play_first_legal(client, table_id, token)
        resumed = client.get(f"/api/tables/{table_id}/record").json()["actions"]
    assert resumed == alone


def test_a_finished_table_stays_readable_after_a_restart(db_url: str) -> None:
    """Finished tables are not resumed but their summary and record are still served."""
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        created = create(client, "durak", ["bot", "bot"])
        table_id = created["table_id"]
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            receive(ws)
            start(client, table_id, created["token"])
            assert play_alone(ws)[-1]["status"] == "finished"
        record = client.get(f"/api/tables/{table_id}/record").json()
        summary = client.get(f"/api/tables/{table_id}").json()
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        assert client.get("/api/tables").json() == []
        assert client.get(f"/api/tables/{table_id}").json()["outcome"] == summary["outcome"]
        assert client.get(f"/api/tables/{table_id}/record").json() == record


def test_tokens_are_stored_only_as_hashes(db_url: str, tmp_path: Path) -> None:
    """The database holds SHA-256 digests of the seat tokens, never the tokens."""
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        created = create(client, "durak", ["human", "human"])
    engine = create_engine(db_url)
    with engine.connect() as connection:
        hashes = [row[0] for row in connection.execute(text("SELECT token_hash FROM seats WHERE taken"))]
        host = connection.execute(text("SELECT host_token_hash FROM tables")).scalar_one()
        every_text = [str(value) for table in ("seats", "tables")
                      for row in connection.execute(text(f"SELECT * FROM {table}")) for value in row]
    engine.dispose()
    assert hashes == [hash_token(created["token"])] and host == hashes[0]
    assert not any(created["token"] in value for value in every_text)


def test_the_database_url_comes_from_the_argument_then_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """--database-url wins over CARDTABLE_DATABASE_URL, which wins over SQLite in the working directory."""
    monkeypatch.delenv(DATABASE_URL_ENV, raising=False)
    assert resolve_database_url(None) == DEFAULT_DATABASE_URL == "sqlite:///cardtable.db"
    monkeypatch.setenv(DATABASE_URL_ENV, "sqlite:////tmp/elsewhere.db")
    assert resolve_database_url(None) == "sqlite:////tmp/elsewhere.db"
    assert resolve_database_url("sqlite:///given.db") == "sqlite:///given.db"


# Takeover of absent people.


def test_the_computer_plays_for_a_person_who_stays_away(db_url: str) -> None:
    """A seat whose person never connects is covered after the takeover time, and the view says so."""
    with TestClient(create_app(db_url, bot_delay=0, takeover_after=0.05)) as client:
        table_id, tokens = human_table(client, "durak", 2, seed=3)
        with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[0]}") as ws:
            receive(ws)
            start(client, table_id, tokens[0])
            messages = play_alone(ws)
        data = client.get(f"/api/tables/{table_id}/record").json()
    assert any(m.get("computer_playing_for") == [1] for m in messages)
    assert 1 in {a["seat"] for a in data["actions"]}
    assert messages[-1]["status"] == "finished" and messages[-1]["computer_playing_for"] == []


def test_a_returning_person_gets_the_seat_back(db_url: str) -> None:
    """Once the person reconnects, the computer stops playing for them and they get their legal actions."""
    with TestClient(create_app(db_url, bot_delay=0, takeover_after=0.05)) as client:
        table_id, tokens = human_table(client, "durak", 2, seed=3)
        with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[0]}") as ws0:
            receive(ws0)
            start(client, table_id, tokens[0])
            while receive(ws0)["computer_playing_for"] != [1]:
                pass
            assert client.get(f"/api/tables/{table_id}").json()["computer_playing_for"] == [1]
            with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[1]}") as ws1:
                back = receive(ws1)
                assert back["seat"] == 1 and back["computer_playing_for"] == []
                assert client.get(f"/api/tables/{table_id}").json()["computer_playing_for"] == []
                assert back["seats"][1]["connected"] is True


def _finished_record(client: TestClient, game: str, seed: int) -> dict[str, Any]:
    """Create a table of computer players with this seed, start it and wait for its record."""
    created = create(client, game, ["bot"] * cardtable.load_game(game).info.min_players, seed=seed)
    start(client, created["table_id"], created["token"])
    deadline = time.monotonic() + 60
    while client.get(f"/api/tables/{created['table_id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the computer players did not finish"
        time.sleep(0.01)
    return dict(client.get(f"/api/tables/{created['table_id']}/record").json())


@pytest.mark.parametrize("game", ["durak", "crazy_eights"])
def test_a_table_created_with_a_seed_plays_the_same_game_again(client: TestClient, game: str) -> None:
    """The deal and the computer players both follow the table's seed: same seed, same record."""
    first, again = _finished_record(client, game, 11), _finished_record(client, game, 11)
    assert first["actions"] == again["actions"] and first["seed"] == 11
    other = _finished_record(client, game, 12)
    assert other["actions"] != first["actions"]
