"""REST API tests: every endpoint, and every kind of bad input answered with a 4xx and one line."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

import cardtable
from cardtable.core import GameRecord, replay
from tests.server.conftest import GAMES, create, human_table, play_alone, receive, start


def _refused(response: Any, status: int, words: str) -> None:
    """A refusal: the status, a one-line JSON detail containing ``words``."""
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and "\n" not in detail and "Traceback" not in detail
    assert words in detail, detail


# The catalogue and pages.


def test_the_catalogue_lists_every_game_from_its_metadata(client: TestClient) -> None:
    """GET /api/games: every registered game with seats, option specs, presets, bots and cards."""
    entries = {entry["name"]: entry for entry in client.get("/api/games").json()}
    assert sorted(entries) == GAMES
    for name, entry in entries.items():
        info = cardtable.load_game(name).info
        assert (entry["title"], entry["min_players"], entry["max_players"]) == (
            info.title, info.min_players, info.max_players)
        assert [o["name"] for o in entry["options"]] == [s.name for s in info.option_specs]
        assert set(entry["presets"]) == set(info.presets)
        assert "random" in entry["bots"] and entry["default_bot"] in entry["bots"]
        deck = info.deck
        assert len(entry["cards"]) == (0 if deck is None else len(deck))
        if deck is not None:
            assert entry["cards"][3]["words"] == deck.cards[3].words()


@pytest.mark.parametrize("path", ["/", "/table/anything"])
def test_the_pages_are_served(client: TestClient, path: str) -> None:
    """The lobby and the table page are HTML."""
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")


# Creating tables.


def test_creating_a_table_gives_the_host_the_first_human_seat(client: TestClient) -> None:
    """The host sits in the first human seat; bot seats are taken by named computer players."""
    created = create(client, "durak", ["bot", "human", "human"], name="Rick")
    assert created["seat"] == 1 and len(created["token"]) >= 20
    table = client.get(f"/api/tables/{created['table_id']}").json()
    assert table["status"] == "waiting" and table["options"]["players"] == 3
    seats = table["seats"]
    assert [s["kind"] for s in seats] == ["bot", "human", "human"]
    assert seats[1] | {"connected": None} == {"seat": 1, "kind": "human", "bot": None, "name": "Rick",
                                             "taken": True, "connected": None, "host": True}
    assert seats[0]["bot"] == cardtable.server.views.default_bot(cardtable.load_game("durak"))
    assert seats[2]["taken"] is False


def test_without_seats_the_options_say_how_many_play(client: TestClient) -> None:
    """No seat list: ``players`` (or the default) seats, the host first, computer players after."""
    response = client.post("/api/tables", json={"game": "durak", "options": {"players": 3}, "name": "Rick"})
    assert response.status_code == 201
    seats = client.get(f"/api/tables/{response.json()['table_id']}").json()["seats"]
    assert [s["kind"] for s in seats] == ["human", "bot", "bot"]


def test_a_preset_and_options_are_applied(client: TestClient) -> None:
    """A preset sets its options; explicit options come on top."""
    created = create(client, "durak", ["human", "bot"], preset="reference", options={"bout_limit": 500})
    options = client.get(f"/api/tables/{created['table_id']}").json()["options"]
    assert options["shuffle"] == "reference" and options["bout_limit"] == 500


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"game": "chess", "seats": [{"kind": "human"}]}, 400, "unknown game"),
    ({"game": "durak", "options": {"bout_limit": "lots"}, "seats": [{"kind": "human"}] * 2}, 400,
     "invalid options"),
    ({"game": "durak", "options": {"colour": "red"}, "seats": [{"kind": "human"}] * 2}, 400, "unknown option"),
    ({"game": "durak", "options": {"shuffle": "riffle"}, "seats": [{"kind": "human"}] * 2}, 400, "must be one of"),
    ({"game": "durak", "preset": "nonsense", "seats": [{"kind": "human"}] * 2}, 400, "unknown preset"),
    ({"game": "durak", "options": {"players": 3}, "seats": [{"kind": "human"}] * 2}, 400, "3 players but 2 seats"),
    ({"game": "durak", "seats": [{"kind": "human"}] * 9}, 400, "not 9"),
    ({"game": "durak", "seats": [{"kind": "human"}]}, 400, "not 1"),
    ({"game": "durak", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "deep-blue"}]}, 400,
     "no computer player 'deep-blue'"),
    ({"game": "durak", "seats": []}, 422, "seats"),
    ({"game": "durak", "seats": [{"kind": "alien"}] * 2}, 422, "kind"),
    ({"game": "durak", "seats": [{"kind": "human"}] * 17}, 422, "seats"),
    ({"seats": [{"kind": "human"}] * 2}, 422, "game"),
    ({"game": "durak", "name": "x" * 41}, 422, "name"),
    ({"game": "durak", "name": "   "}, 422, "name"),
    ({"game": "durak", "seed": -1}, 422, "seed"),
    ({"game": "durak", "options": [1, 2]}, 422, "options"),
    ({"game": "durak", "colour": "red"}, 422, "colour"),
    ({"game": 7}, 422, "game"),
])
def test_bad_tables_are_refused(client: TestClient, body: dict[str, Any], status: int, words: str) -> None:
    """Unknown games, invalid options or presets, wrong seat counts, unknown bots, malformed bodies."""
    _refused(client.post("/api/tables", json=body), status, words)
    assert client.get("/api/tables").json() == []


@pytest.mark.parametrize("raw", [b"{not json", b"[]", b"null", b"\xff\xfe"])
def test_a_body_that_is_not_a_json_object_is_refused(client: TestClient, raw: bytes) -> None:
    """Malformed request bodies give 422 with one line, never a 500."""
    response = client.post("/api/tables", content=raw, headers={"content-type": "application/json"})
    assert response.status_code == 422
    assert isinstance(response.json()["detail"], str)


# Listing and reading tables.


def test_the_list_shows_open_and_running_tables_only(client: TestClient) -> None:
    """Waiting and playing tables are listed (newest first); finished and abandoned ones are not."""
    waiting = create(client, "durak", ["human", "human"])
    playing = create(client, "durak", ["human", "bot"])
    start(client, playing["table_id"], playing["token"])
    finished = create(client, "durak", ["human", "bot"])
    start(client, finished["table_id"], finished["token"])
    with client.websocket_connect(f"/ws/tables/{finished['table_id']}?token={finished['token']}") as ws:
        play_alone(ws)
    abandoned = create(client, "durak", ["human", "human"])
    client.post(f"/api/tables/{abandoned['table_id']}/leave", json={"token": abandoned["token"]})
    listed = client.get("/api/tables").json()
    assert [t["table_id"] for t in listed] == [playing["table_id"], waiting["table_id"]]
    assert [t["status"] for t in listed] == ["playing", "waiting"]


@pytest.mark.parametrize("table_id", ["nope", "x" * 300, "%00"])
def test_unknown_tables_are_404(client: TestClient, table_id: str) -> None:
    """Every table endpoint answers 404 with a detail for a table that does not exist."""
    _refused(client.get(f"/api/tables/{table_id}"), 404, "no table")
    _refused(client.get(f"/api/tables/{table_id}/record"), 404, "no table")
    _refused(client.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "A"}), 404, "no table")
    _refused(client.post(f"/api/tables/{table_id}/start", json={"token": "t"}), 404, "no table")
    _refused(client.post(f"/api/tables/{table_id}/leave", json={"token": "t"}), 404, "no table")


# Joining.


def test_joining_takes_a_free_human_seat(client: TestClient) -> None:
    """A person takes a free seat and gets a token that the WebSocket recognises."""
    created = create(client, "durak", ["human", "human"])
    table_id = created["table_id"]
    joined = client.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": " Summer "})
    assert joined.status_code == 200
    assert joined.json()["seat"] == 1 and joined.json()["token"] != created["token"]
    assert client.get(f"/api/tables/{table_id}").json()["seats"][1]["name"] == "Summer"
    with client.websocket_connect(f"/ws/tables/{table_id}?token={joined.json()['token']}") as ws:
        view = receive(ws)
    assert view["seat"] == 1 and view["seats"][1]["connected"] is True


@pytest.mark.parametrize(("seat", "status", "words"), [
    (0, 409, "taken"), (1, 409, "computer player"), (3, 400, "no seat 3"), (-1, 400, "no seat -1"),
])
def test_bad_joins_are_refused(client: TestClient, seat: int, status: int, words: str) -> None:
    """Taken seats, computer seats and seats out of range cannot be joined."""
    created = create(client, "durak", ["human", "bot", "human"])
    _refused(client.post(f"/api/tables/{created['table_id']}/join", json={"seat": seat, "name": "Morty"}),
             status, words)


@pytest.mark.parametrize("body", [{"seat": 2}, {"seat": "two", "name": "M"}, {"seat": 2, "name": ""},
                                  {"seat": 2, "name": "Mor\u0000ty"}, {"seat": 2, "name": "tab\there"},
                                  {"name": "M"}, {"seat": 2, "name": "M", "token": "x"}])
def test_malformed_joins_are_422(client: TestClient, body: dict[str, Any]) -> None:
    """Join bodies must have an integer seat and a non-empty name."""
    created = create(client, "durak", ["human", "bot", "human"])
    response = client.post(f"/api/tables/{created['table_id']}/join", json=body)
    assert response.status_code == 422 and isinstance(response.json()["detail"], str)


def test_no_one_joins_after_the_start(client: TestClient) -> None:
    """Seats are handed out before the start only."""
    created = create(client, "durak", ["human", "human"])
    start(client, created["table_id"], created["token"])
    _refused(client.post(f"/api/tables/{created['table_id']}/join", json={"seat": 1, "name": "M"}),
             409, "before the start")


# Starting.


def test_only_the_host_starts_and_only_once(client: TestClient) -> None:
    """A wrong token or a guest's token is 403; a second start is 409; free seats become computers."""
    created = create(client, "durak", ["human", "human", "human"])
    table_id = created["table_id"]
    guest = client.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "M"}).json()["token"]
    _refused(client.post(f"/api/tables/{table_id}/start", json={"token": guest}), 403, "only the host")
    _refused(client.post(f"/api/tables/{table_id}/start", json={"token": "forged"}), 403, "only the host")
    _refused(client.post(f"/api/tables/{table_id}/start", json={}), 422, "token")
    table = start(client, table_id, created["token"])
    assert table["status"] == "playing" and table["to_act"] is not None
    assert [s["kind"] for s in table["seats"]] == ["human", "human", "bot"]
    _refused(client.post(f"/api/tables/{table_id}/start", json={"token": created["token"]}), 409, "not waiting")


# Leaving.


def test_leaving_before_the_start_frees_the_seat(client: TestClient) -> None:
    """A guest who leaves frees the seat; the old token no longer works."""
    created = create(client, "durak", ["human", "human"])
    table_id = created["table_id"]
    guest = client.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "M"}).json()["token"]
    left = client.post(f"/api/tables/{table_id}/leave", json={"token": guest})
    assert left.status_code == 200 and left.json()["seats"][1]["taken"] is False
    _refused(client.post(f"/api/tables/{table_id}/leave", json={"token": guest}), 403, "holds no seat")
    assert client.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "N"}).status_code == 200


def test_the_host_leaving_before_the_start_abandons_the_table(client: TestClient) -> None:
    """The table disappears: 404 and not listed."""
    created = create(client, "durak", ["human", "human"])
    assert client.post(f"/api/tables/{created['table_id']}/leave", json={"token": created["token"]}).status_code == 200
    _refused(client.get(f"/api/tables/{created['table_id']}"), 404, "no table")
    assert client.get("/api/tables").json() == []


def test_leaving_during_play_hands_the_seat_to_the_computer(client: TestClient) -> None:
    """The computer finishes the game for a person who left; the socket becomes a spectator's."""
    table_id, tokens = human_table(client, "durak", 2)
    start(client, table_id, tokens[0])
    with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[1]}") as ws:
        assert receive(ws)["seat"] == 1
        left = client.post(f"/api/tables/{table_id}/leave", json={"token": tokens[1]}).json()
        assert left["seats"][1]["kind"] == "bot"
        assert receive(ws)["seat"] is None
    with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[0]}") as ws:
        messages = play_alone(ws)
    assert messages[-1]["status"] == "finished"
    _refused(client.post(f"/api/tables/{table_id}/leave", json={"token": tokens[0]}), 409, "finished")


# The record.


def test_the_record_is_refused_until_the_game_is_over_then_replays_it(client: TestClient) -> None:
    """409 while playing (it would reveal the hands); afterwards it replays to the same outcome."""
    created = create(client, "durak", ["human", "bot"])
    table_id = created["table_id"]
    _refused(client.get(f"/api/tables/{table_id}/record"), 409, "once the game is finished")
    start(client, table_id, created["token"])
    _refused(client.get(f"/api/tables/{table_id}/record"), 409, "once the game is finished")
    with client.websocket_connect(f"/ws/tables/{table_id}?token={created['token']}") as ws:
        play_alone(ws)
    data = client.get(f"/api/tables/{table_id}/record").json()
    game = cardtable.load_game("durak")
    record = GameRecord.from_json(data, game)
    assert record.seed == 7 and len(record.actions) == client.get(f"/api/tables/{table_id}").json()["version"]
    state, _ = replay(game, record)
    outcome = game.outcome(state)
    assert client.get(f"/api/tables/{table_id}").json()["outcome"]["winners"] == list(outcome.winners)
    assert data["notes"][1] == "seat 0: Host (human)"
