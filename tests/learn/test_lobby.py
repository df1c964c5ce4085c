"""The lobby offers the learned player in every game and refuses, by name, a table its nets were not trained for."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from cardtable.server.app import create_app

from .helpers import GAMES


def test_the_lobby_offers_the_learned_player_and_refuses_a_table_it_was_not_trained_for(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'cardtable.db'}", bot_delay=0)) as client:
        games = {g["name"]: g for g in client.get("/api/games").json()}
        for name in GAMES:
            assert "learned" in games[name]["bots"], name
            assert games[name]["bot_info"]["learned"]["label"].startswith("Learned")
        refused = client.post("/api/tables", json={"game": "durak", "seats": [
            {"kind": "human"}, {"kind": "bot", "bot": "learned"}, {"kind": "bot", "bot": "learned"}]})
        assert refused.status_code == 400, refused.text
        detail = refused.json()["detail"]
        assert "no learned player for durak with" in detail and "players=3" in detail and "players=2" in detail
        assert client.get("/api/tables").json() == []
        created = client.post("/api/tables", json={"game": "durak", "seats": [
            {"kind": "human"}, {"kind": "bot", "bot": "learned"}]})
        assert created.status_code == 201, created.text
