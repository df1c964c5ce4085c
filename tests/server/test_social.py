"""The table's extras: settings, chat and reactions, taking over computer seats, rematch, turn timer,
replays and rules."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

import cardtable
from cardtable.core import GameRecord, events_for, options_to_dict, to_json
from cardtable.server import create_app
from cardtable.server.replay import replay_frames
from cardtable.server.social import DEFAULT_PACE_MS
from tests.server.conftest import create, play_alone, receive, start


def _refused(response: Any, status: int, words: str) -> None:
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and "\n" not in detail and words in detail, detail


def _finished_durak(client: TestClient) -> dict[str, Any]:
    created = create(client, "durak", ["human", "bot"])
    start(client, created["table_id"], created["token"])
    with client.websocket_connect(f"/ws/tables/{created['table_id']}?token={created['token']}") as ws:
        play_alone(ws)
    return created


# Chat and reactions.


def test_chat_reaches_spectators_as_text_data(client: TestClient) -> None:
    """A seated person's line goes to every connection, spectators included, exactly as typed."""
    created = create(client, "durak", ["human", "bot"])
    table_id = created["table_id"]
    with client.websocket_connect(f"/ws/tables/{table_id}") as spectator:
        assert receive(spectator)["type"] == "view"
        said = client.post(f"/api/tables/{table_id}/chat", json={"token": created["token"], "text": "<b>hi</b>  there"})
        assert said.status_code == 200, said.text
        message = receive(spectator)
        assert message["type"] == "chat"
        assert message["line"]["text"] == "<b>hi</b> there" and message["line"]["name"] == "Host"
    history = client.get(f"/api/tables/{table_id}/social").json()["chat"]
    assert [line["text"] for line in history] == ["<b>hi</b> there"]


def test_chat_is_refused_without_a_seat_too_long_empty_or_too_fast(client: TestClient) -> None:
    """Spectators cannot post; long, empty and rapid-fire lines are refused with one line each."""
    created = create(client, "durak", ["human", "bot"])
    url = f"/api/tables/{created['table_id']}/chat"
    _refused(client.post(url, json={"token": "nope", "text": "hi"}), 403, "no seat")
    _refused(client.post(url, json={"token": created["token"], "text": "x" * 201}), 400, "at most 200")
    _refused(client.post(url, json={"token": created["token"], "text": "   "}), 400, "empty")
    _refused(client.post(url, json={"token": created["token"], "reaction": "boo"}), 400, "unknown reaction")
    _refused(client.post(url, json={"token": created["token"]}), 400, "either")
    for i in range(5):
        assert client.post(url, json={"token": created["token"], "text": f"line {i}"}).status_code == 200
    _refused(client.post(url, json={"token": created["token"], "reaction": "oops"}), 429, "slow down")
    assert len(client.get(f"/api/tables/{created['table_id']}/social").json()["chat"]) == 5


# Settings.


def test_only_the_host_changes_settings_and_bad_values_change_nothing(client: TestClient) -> None:
    """Pace, timer and takeover are the host's; an invalid field leaves every setting as it was."""
    created = create(client, "durak", ["human", "human"])
    url = f"/api/tables/{created['table_id']}/settings"
    joined = client.post(f"/api/tables/{created['table_id']}/join", json={"seat": 1, "name": "Guest"}).json()
    _refused(client.post(url, json={"token": joined["token"], "pace_ms": 100}), 403, "only the host")
    ok = client.post(url, json={"token": created["token"], "pace_ms": 300, "turn_seconds": 5, "allow_takeover": True})
    assert ok.json()["settings"] == {"pace_ms": 300, "turn_seconds": 5, "allow_takeover": True}
    bad = {"token": created["token"], "pace_ms": 200, "turn_seconds": 0.01}
    _refused(client.post(url, json=bad), 400, "turn_seconds")
    assert client.get(f"/api/tables/{created['table_id']}/social").json()["settings"]["pace_ms"] == 300
    off = client.post(url, json={"token": created["token"], "turn_seconds": None})
    assert off.json()["settings"]["turn_seconds"] is None


# Taking over computer seats (seed 004).


def test_anyone_with_the_link_takes_a_computer_seat_before_the_start(client: TestClient) -> None:
    """A computer seat becomes the person's; their token holds it."""
    created = create(client, "wizard", ["human", "bot", "bot"])
    table_id = created["table_id"]
    taken = client.post(f"/api/tables/{table_id}/take", json={"seat": 2, "name": "Summer"})
    assert taken.status_code == 200, taken.text
    seats = client.get(f"/api/tables/{table_id}").json()["seats"]
    assert seats[2]["kind"] == "human" and seats[2]["name"] == "Summer" and seats[2]["taken"]
    _refused(client.post(f"/api/tables/{table_id}/take", json={"seat": 2, "name": "Beth"}), 409, "taken")
    _refused(client.post(f"/api/tables/{table_id}/take", json={"seat": 9, "name": "Beth"}), 400, "no seat 9")


# Rematch.


def test_a_rematch_starts_with_the_same_seats_and_tokens_and_a_new_seed(client: TestClient) -> None:
    """One request: a new table, playing, same seats; the old token holds the same seat; asked twice, the same."""
    created = _finished_durak(client)
    table_id = created["table_id"]
    _refused(client.post(f"/api/tables/{table_id}/rematch", json={"token": "x"}), 403, "no seat")
    again = client.post(f"/api/tables/{table_id}/rematch", json={"token": created["token"]})
    assert again.status_code == 200, again.text
    new_id = again.json()["table_id"]
    assert new_id != table_id
    new = client.get(f"/api/tables/{new_id}").json()
    old = client.get(f"/api/tables/{table_id}").json()
    assert new["status"] == "playing"
    assert [(s["kind"], s["name"]) for s in new["seats"]] == [(s["kind"], s["name"]) for s in old["seats"]]
    with client.websocket_connect(f"/ws/tables/{new_id}?token={created['token']}") as ws:
        assert receive(ws)["seat"] == 0
    assert client.post(f"/api/tables/{table_id}/rematch", json={"token": created["token"]}).json()["table_id"] == new_id
    assert client.get(f"/api/tables/{table_id}/social").json()["rematch"] == new_id


def test_no_rematch_before_the_end(client: TestClient) -> None:
    """A game in progress has no rematch."""
    created = create(client, "durak", ["human", "bot"])
    _refused(client.post(f"/api/tables/{created['table_id']}/rematch", json={"token": created["token"]}), 409,
             "finished")


# The turn timer.


def test_the_timer_plays_for_an_idle_person_and_says_so(client: TestClient) -> None:
    """With a 0.3 s timer and nobody clicking, the computer moves for the person and the table is told."""
    created = create(client, "durak", ["human", "bot"])
    table_id = created["table_id"]
    client.post(f"/api/tables/{table_id}/settings", json={"token": created["token"], "turn_seconds": 0.3})
    start(client, table_id, created["token"])
    with client.websocket_connect(f"/ws/tables/{table_id}?token={created['token']}") as ws:
        deadline = time.monotonic() + 120  # a hang guard
        notes: list[dict[str, Any]] = []
        version = 0
        while not notes and time.monotonic() < deadline:
            message = receive(ws)
            if message["type"] == "chat" and message["line"]["kind"] == "note":
                notes.append(message["line"])
            if message["type"] == "view":
                version = max(version, message["version"])
        assert notes and notes[0]["note"] == "timeout" and notes[0]["seat"] == 0
        view = receive(ws)
        while view["type"] != "view":
            view = receive(ws)
        assert view["version"] > 0


# Replays.


def test_replay_frames_show_a_seat_only_what_it_saw() -> None:
    """Each frame's events and observation are the seat's own; the last frame is the finished game."""
    game = cardtable.load_game("durak")
    options = game.options({})
    state, _ = game.new(options, 3)
    actions = []
    while (seat := game.to_act(state)) is not None:
        action = game.legal_actions(state, seat)[0]
        actions.append((seat, action))
        state, _ = game.apply(state, seat, action)
    record = GameRecord("durak", options_to_dict(options), 3, tuple(actions))
    frames = replay_frames(game, record, 1)
    assert len(frames) == len(actions) + 1
    assert frames[-1]["view"]["status"] == "finished" and frames[0]["view"]["status"] == "playing"
    replayed, events = game.new(options, 3)
    assert frames[0]["view"]["observation"] == to_json(game.observe(replayed, 1))
    assert [e["event"] for e in frames[0]["events"]] == [to_json(e) for e in events_for(events, 1)]
    spectator = replay_frames(game, record, None)
    assert spectator[0]["view"]["observation"]["hand"] == [] != frames[0]["view"]["observation"]["hand"]
    private = {"dealt_hand", "drew_cards"}  # Durak's events that show a seat its own cards
    assert not [e for f in spectator for e in f["events"] if e["event"]["type"] in private]
    assert all(e["event"]["seat"] == 1 for f in frames for e in f["events"] if e["event"]["type"] in private)


def test_the_replay_endpoint_serves_finished_games_for_a_seat_or_spectators(client: TestClient) -> None:
    """409 while playing; afterwards frames for spectators, or from the seat the token held."""
    created = create(client, "durak", ["human", "bot"])
    table_id = created["table_id"]
    _refused(client.get(f"/api/tables/{table_id}/replay"), 409, "finished")
    start(client, table_id, created["token"])
    with client.websocket_connect(f"/ws/tables/{table_id}?token={created['token']}") as ws:
        play_alone(ws)
    watched = client.get(f"/api/tables/{table_id}/replay").json()
    mine = client.get(f"/api/tables/{table_id}/replay", params={"token": created["token"]}).json()
    assert watched["seat"] is None and mine["seat"] == 0
    assert len(watched["frames"]) == client.get(f"/api/tables/{table_id}").json()["version"] + 1
    _refused(client.get(f"/api/tables/{table_id}/replay", params={"token": "nope"}), 403, "no seat")
    finished = client.get("/api/finished").json()
    assert table_id in [t["table_id"] for t in finished]
    assert client.get("/replay.html").status_code == 200
    favicon = client.get("/favicon.ico")
    assert favicon.status_code == 200 and favicon.headers["content-type"].startswith("image/svg+xml")


# Rules.


def test_rules_come_in_the_language_asked_when_written_in_it(client: TestClient) -> None:
    """Mus in Spanish, Durak and Wizard in Russian, a language without a text falls back to English; unknown
    games are refused."""
    mus = client.get("/api/games/mus/rules", params={"lang": "es"}).json()
    assert mus["lang"] == "es" and "<h1>El mus en un minuto</h1>" in mus["html"]
    assert client.get("/api/games/durak/rules", params={"lang": "ru"}).json()["lang"] == "ru"
    wizard = client.get("/api/games/wizard/rules", params={"lang": "ru"}).json()
    assert wizard["lang"] == "ru" and "<h1>Wizard за минуту</h1>" in wizard["html"]
    assert client.get("/api/games/wizard/rules", params={"lang": "de"}).json()["lang"] == "en"
    _refused(client.get("/api/games/chess/rules"), 400, "unknown game")
    for game in cardtable.games():
        assert client.get(f"/api/games/{game}/rules").json()["html"].startswith("<h1>")


# Round summaries.


def test_the_computer_waits_until_every_person_has_read_the_round_summary(client: TestClient) -> None:
    """After a Wizard round ends, the computer players hold until the connected person whose page shows
    summaries presses Continue (a client that never said it shows them is not waited for)."""
    created = create(client, "wizard", ["human", "bot", "bot"], options={"rounds": 5, "first_dealer": 0})
    table_id = created["table_id"]
    start(client, table_id, created["token"])
    assert client.post(f"/api/tables/{table_id}/reader", json={"token": created["token"]}).status_code == 200
    with client.websocket_connect(f"/ws/tables/{table_id}?token={created['token']}") as ws:
        ended = None
        while ended is None:
            message = receive(ws)
            if message["type"] != "view":
                continue
            if any(e["event"]["type"] == "round_scored" for e in message["events"]):
                ended = message
            elif message["legal_actions"]:
                ws.send_json({"type": "action", "version": message["version"],
                              "action": message["legal_actions"][0]["action"]})
        assert ended["to_act"] != 0  # a computer player opens round 2
        time.sleep(0.3)
        assert client.get(f"/api/tables/{table_id}").json()["version"] == ended["version"]
        assert client.post(f"/api/tables/{table_id}/continue", json={"token": created["token"]}).status_code == 200
        deadline = time.monotonic() + 60
        while client.get(f"/api/tables/{table_id}").json()["version"] == ended["version"]:
            assert time.monotonic() < deadline, "the computer players did not go on after Continue"
            time.sleep(0.05)


# The extras follow the server's atomic rule: a store failure changes nothing and answers 503.


def _break_store(monkeypatch: pytest.MonkeyPatch, client: TestClient, *names: str) -> None:
    store = client.app.state.manager.store  # type: ignore[attr-defined]

    def broken(*_args: Any, **_kwargs: Any) -> None:
        raise OSError(28, "No space left on device")

    for name in names:
        monkeypatch.setattr(store, name, broken)


def test_a_takeover_that_cannot_be_stored_leaves_the_computer_seated(client: TestClient,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """503 with one line; the seat is still the computer's; the same takeover then works."""
    created = create(client, "wizard", ["human", "bot", "bot"])
    table_id = created["table_id"]
    _break_store(monkeypatch, client, "save_seats")
    _refused(client.post(f"/api/tables/{table_id}/take", json={"seat": 2, "name": "Summer"}), 503, "nothing changed")
    monkeypatch.undo()
    assert client.get(f"/api/tables/{table_id}").json()["seats"][2]["kind"] == "bot"
    assert client.post(f"/api/tables/{table_id}/take", json={"seat": 2, "name": "Summer"}).status_code == 200


def test_settings_that_cannot_be_stored_stay_as_they_were(client: TestClient,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """503; the old settings still apply."""
    created = create(client, "durak", ["human", "bot"])
    url = f"/api/tables/{created['table_id']}/settings"
    _break_store(monkeypatch, client, "set_status")
    _refused(client.post(url, json={"token": created["token"], "pace_ms": 300}), 503, "nothing changed")
    monkeypatch.undo()
    assert client.get(f"/api/tables/{created['table_id']}/social").json()["settings"]["pace_ms"] == DEFAULT_PACE_MS


def test_a_rematch_that_cannot_be_stored_creates_nothing(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """503; no rematch recorded; asked again once the store works, it starts."""
    created = _finished_durak(client)
    url = f"/api/tables/{created['table_id']}/rematch"
    _break_store(monkeypatch, client, "create_table")
    _refused(client.post(url, json={"token": created["token"]}), 503, "nothing changed")
    monkeypatch.undo()
    assert client.get(f"/api/tables/{created['table_id']}/social").json()["rematch"] is None
    new_id = client.post(url, json={"token": created["token"]}).json()["table_id"]
    assert client.get(f"/api/tables/{new_id}").json()["status"] == "playing"


def test_settings_survive_a_restart_and_go_to_the_rematch(db_url: str) -> None:
    """Stored with the table: a new server on the same database has them; a rematch copies them."""
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        created = create(client, "durak", ["human", "bot"])
        table_id = created["table_id"]
        chosen = {"pace_ms": 250, "turn_seconds": 30, "allow_takeover": True}
        assert client.post(f"/api/tables/{table_id}/settings",
                           json={"token": created["token"], **chosen}).status_code == 200
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        assert client.get(f"/api/tables/{table_id}/social").json()["settings"] == chosen
        start(client, table_id, created["token"])
        with client.websocket_connect(f"/ws/tables/{table_id}?token={created['token']}") as ws:
            play_alone(ws)
        new_id = client.post(f"/api/tables/{table_id}/rematch", json={"token": created["token"]}).json()["table_id"]
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        assert client.get(f"/api/tables/{new_id}/social").json()["settings"] == chosen
