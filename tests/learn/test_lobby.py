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


def test_mus_s_default_is_the_learned_pair_on_the_rules_its_net_was_trained_for_and_reader_elsewhere(
        tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'cardtable.db'}", bot_delay=0)) as client:
        mus = {g["name"]: g for g in client.get("/api/games").json()}["mus"]
        assert mus["default_where_trained"] == "learned" and mus["default_bot"] == "reader"
        seats = [{"kind": "human"}] + [{"kind": "bot", "bot": None}] * 3
        trained = client.post("/api/tables", json={"game": "mus", "seats": seats})
        other = client.post("/api/tables", json={"game": "mus", "seats": seats, "options": {"scoring.target": 30}})
        assert trained.status_code == 201 and other.status_code == 201, (trained.text, other.text)
        bots = {name: [s["bot"] for s in client.get(f"/api/tables/{r.json()['table_id']}").json()["seats"][1:]]
                for name, r in (("trained", trained), ("other", other))}
        assert bots == {"trained": ["learned"] * 3, "other": ["reader"] * 3}
        kaiser_seats = [{"kind": "human"}] + [{"kind": "bot"}] * 3
        for options, bot in (({}, "learned_search"), ({"target": 62}, "search")):
            made = client.post("/api/tables", json={"game": "kaiser", "seats": kaiser_seats, "options": options})
            assert made.status_code == 201, made.text
            seats = client.get(f"/api/tables/{made.json()['table_id']}").json()["seats"][1:]
            assert [s["bot"] for s in seats] == [bot] * 3, options
        for game, seats, bot in (("durak", 2, "learned_search"), ("durak", 3, "endgame"),  # nets for 2 and 4 players
                                 ("wizard", 4, "learned_search"), ("wizard", 5, "search")):
            layout = [{"kind": "human"}] + [{"kind": "bot"}] * (seats - 1)
            made = client.post("/api/tables", json={"game": game, "seats": layout})
            assert made.status_code == 201, made.text
            seated = {s["bot"] for s in client.get(f"/api/tables/{made.json()['table_id']}").json()["seats"][1:]}
            assert seated == {bot}, (game, seats)
        # A game with no learned default keeps its catalogue default whatever the options.
        layout = [{"kind": "human"}, {"kind": "bot"}] * 2
        eights = client.post("/api/tables", json={"game": "crazy_eights", "seats": layout})
        seat = client.get(f"/api/tables/{eights.json()['table_id']}").json()["seats"][1]
        catalogue = {g["name"]: g for g in client.get("/api/games").json()}["crazy_eights"]
        assert catalogue["default_where_trained"] is None and seat["bot"] == catalogue["default_bot"] == "search"
