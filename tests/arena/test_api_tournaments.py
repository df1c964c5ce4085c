"""The tournament API and pages: list, one tournament's standings and games, a game's record."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

import cardtable
from cardtable.arena.entries import Entry
from cardtable.arena.tournament import define, run_tournament
from cardtable.core import GameRecord, replay
from cardtable.server import create_app
from cardtable.store import Store
from cardtable.store.tournaments import TournamentStore
from tests.server.conftest import db_url

__all__ = ["db_url"]  # the server tests' database fixture


@pytest.fixture
def played(db_url: str) -> Iterator[tuple[TestClient, dict[str, object]]]:
    """An app on a database holding one finished tournament, and that tournament's results.

    The database is the server tests' (SQLite, or PostgreSQL with ``CARDTABLE_TEST_POSTGRES_URL``).
    """
    url = db_url
    game = cardtable.load_game("crazy_eights")
    tournament = define(game, [Entry("heuristic", "heuristic"), Entry("random", "random")],
                        values={"rounds": 1}, games=4, seed=2)
    store = Store(url)
    results = run_tournament(tournament, TournamentStore(store.engine))
    store.close()
    with TestClient(create_app(url, bot_delay=0)) as client:
        yield client, results


def test_the_list_and_one_tournament_with_standings_ratings_and_games(
        played: tuple[TestClient, dict[str, object]]) -> None:
    client, results = played
    listed = client.get("/api/tournaments")
    assert listed.status_code == 200
    [brief] = listed.json()
    assert brief["id"] == results["tournament"] and brief["stored_games"] == 4 and brief["status"] == "finished"
    one = client.get(f"/api/tournaments/{brief['id']}").json()
    assert one["results"] == results
    assert [g["index"] for g in one["stored"]] == [0, 1, 2, 3] and "record" not in one["stored"][0]
    assert len(one["rating_history"]) == 4 and set(one["rating_history"][-1]["ordinal"]) == {"heuristic", "random"}


def test_a_game_record_replays_to_the_stored_outcome(played: tuple[TestClient, dict[str, object]]) -> None:
    client, results = played
    response = client.get(f"/api/tournaments/{results['tournament']}/games/1/record")
    assert response.status_code == 200
    game = cardtable.load_game("crazy_eights")
    state, _ = replay(game, GameRecord.from_json(response.json(), game))
    one = client.get(f"/api/tournaments/{results['tournament']}").json()
    assert list(game.outcome(state).scores) == one["stored"][1]["scores"]  # type: ignore[union-attr]


@pytest.mark.parametrize("path", ["/api/tournaments/nope", "/api/tournaments/" + "0" * 64,
                                  "/api/tournaments/" + "0" * 64 + "/games/0/record"])
def test_unknown_tournaments_are_a_404_with_one_line(played: tuple[TestClient, dict[str, object]], path: str) -> None:
    client, _ = played
    response = client.get(path)
    assert response.status_code == 404 and "no tournament" in response.json()["detail"]


def test_a_missing_game_is_a_404(played: tuple[TestClient, dict[str, object]]) -> None:
    client, results = played
    response = client.get(f"/api/tournaments/{results['tournament']}/games/99/record")
    assert response.status_code == 404 and "no stored game 99" in response.json()["detail"]


def test_the_pages_are_served(played: tuple[TestClient, dict[str, object]]) -> None:
    client, results = played
    for path in ("/tournaments", f"/tournaments/{results['tournament']}"):
        page = client.get(path)
        assert page.status_code == 200 and "/static/js/tournament.js" in page.text
    assert client.get("/static/js/tournament.js").status_code == 200


def test_a_game_replays_step_by_step_as_a_seat_saw_it(played: tuple[TestClient, dict[str, object]]) -> None:
    client, results = played
    base = f"/api/tournaments/{results['tournament']}/games/2"
    record = client.get(f"{base}/record").json()
    game = cardtable.load_game("crazy_eights")
    for seat in (None, 0, 1):
        query = "" if seat is None else f"?seat={seat}"
        body = client.get(f"{base}/replay{query}").json()
        assert body["game"] == "crazy_eights" and body["seat"] == seat
        assert [s["name"] for s in body["seats"]] == client.get(
            f"/api/tournaments/{results['tournament']}").json()["stored"][2]["seating"]
        assert len(body["frames"]) == len(record["actions"]) + 1
        # Each frame shows exactly what observe() gives that seat after that many actions.
        parsed = GameRecord.from_json(record, game)
        for step in (0, len(parsed.actions) // 2, len(parsed.actions)):
            state, _ = replay(game, parsed, upto=step)
            assert body["frames"][step]["view"]["observation"] == cardtable.core.to_json(game.observe(state, seat))


def test_a_replay_from_a_seat_off_the_table_is_refused(played: tuple[TestClient, dict[str, object]]) -> None:
    client, results = played
    response = client.get(f"/api/tournaments/{results['tournament']}/games/0/replay?seat=2")
    assert response.status_code == 422 and "seat must be 0–1" in response.json()["detail"]


def test_the_lobby_links_to_the_tournaments(played: tuple[TestClient, dict[str, object]]) -> None:
    client, _ = played
    lobby = client.get("/")
    assert lobby.status_code == 200 and 'href="/tournaments"' in lobby.text
    for lang in ("en", "es", "ru"):
        assert client.get(f"/static/i18n/{lang}.json").json()["lobby.tournaments"]
