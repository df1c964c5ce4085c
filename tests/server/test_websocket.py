"""WebSocket tests: each seat and spectator sees only what it may know; bad messages change nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

import cardtable
from cardtable.core import GameRecord, events_for, to_json
from tests.server.conftest import GAMES, Follower, create, human_table, play_alone, receive, short_options, start


def _states(game: Any, record: GameRecord) -> tuple[list[Any], list[list[Any]]]:
    """The engine state after each number of actions, and the events up to each version."""
    state, events = game.new(game.options(record.options), record.seed)
    states, events_at = [state], [list(events)]
    for seat, action in record.actions:
        state, more = game.apply(state, seat, action)
        events = events + more
        states.append(state)
        events_at.append(list(events))
    return states, events_at


def _play_all_humans(client: TestClient, game_name: str) -> tuple[str, dict[Any, list[dict[str, Any]]]]:
    """Play a whole game with every seat a person plus one spectator; every message each socket got."""
    game = cardtable.load_game(game_name)
    players = int(game.options(short_options(game_name), players=game.info.min_players).players)
    table_id, tokens = human_table(client, game_name, players)
    rng = random.Random(3)
    keys: list[Any] = [*range(players), None]
    # Every socket applies patches (the first message is a full view): what each seat holds is checked.
    urls = [f"/ws/tables/{table_id}?token={t}&patches=1" for t in tokens] + [f"/ws/tables/{table_id}?patches=1"]
    received: dict[Any, list[dict[str, Any]]] = {key: [] for key in keys}
    followers = {key: Follower() for key in keys}
    with _sockets(client, urls) as sockets:
        # A seat connecting changes the seat list: open sockets get the latest view (several changes may
        # come as one view); the spectator, connecting last, changes nothing for the others.
        for key, ws in zip(keys, sockets):
            while True:
                received[key].append(followers[key].follow(receive(ws)))
                if all(s["connected"] for s in received[key][-1]["seats"]):
                    break
        start(client, table_id, tokens[0])
        while True:
            views = {key: followers[key].follow(receive(ws)) for key, ws in zip(keys, sockets)}
            for key, view in views.items():
                received[key].append(view)
            latest = views[None]
            if latest["status"] == "finished":
                break
            actor = latest["to_act"]
            choice = rng.choice(views[actor]["legal_actions"])
            sockets[actor].send_json({"type": "action", "version": latest["version"], "action": choice["action"]})
    assert all(f.patches > 0 for f in followers.values())
    return table_id, received


class _sockets:
    """Open several WebSocket sessions at once and close them all."""

    def __init__(self, client: TestClient, urls: list[str]) -> None:
        self.client, self.urls, self.open = client, urls, []

    def __enter__(self) -> list[WebSocketTestSession]:
        for url in self.urls:
            self.open.append(self.client.websocket_connect(url).__enter__())
        return self.open

    def __exit__(self, *exc: object) -> None:
        for ws in reversed(self.open):
            ws.__exit__(None, None, None)


@pytest.mark.parametrize("game_name", GAMES)
def test_no_message_shows_a_card_hidden_from_its_receiver(client: TestClient, game_name: str) -> None:
    """Every view of a whole game: the observation is observe(state, seat), no hidden card, own events only."""
    game = cardtable.load_game(game_name)
    table_id, received = _play_all_humans(client, game_name)
    record = GameRecord.from_json(client.get(f"/api/tables/{table_id}/record").json(), game)
    states, events_at = _states(game, record)
    assert game.outcome(states[-1]) is not None
    for seat, messages in received.items():
        views = [m for m in messages if m["type"] == "view" and m["observation"] is not None]
        assert views, f"seat {seat} saw no game"
        for view in views:
            state = states[view["version"]]
            assert view["seat"] == seat
            observation = game.observation_codec.decode(view["observation"])
            assert observation.cards_shown().isdisjoint(game.hidden_cards(state, seat))
            assert view["observation"] == to_json(game.observe(state, seat))
            mine = seat is not None and seat == game.to_act(state)
            expected_legal = [to_json(a) for a in game.legal_actions(state, seat)] if mine else []
            assert [a["action"] for a in view["legal_actions"]] == expected_legal
        sent = [e["event"] for m in messages if m["type"] == "view" for e in m["events"]]
        assert sent == [to_json(e) for e in events_for(events_at[-1], seat)]


@pytest.mark.parametrize("game_name", GAMES)
def test_a_person_plays_a_whole_game_against_computer_players(client: TestClient, game_name: str) -> None:
    """One person and computer players for every other seat: the computer acts server-side to the end."""
    game = cardtable.load_game(game_name)
    players = game.info.min_players
    # Kaiser's default computer player, the search, takes about 100 s of CPU for a game to 32.
    bot = "heuristic" if game_name == "kaiser" else None
    created = create(client, game_name, ["human"] + ["bot"] * (players - 1), bot=bot)
    table_id = created["table_id"]
    with client.websocket_connect(f"/ws/tables/{table_id}?token={created['token']}") as ws:
        assert receive(ws)["status"] == "waiting"
        start(client, table_id, created["token"])
        messages = play_alone(ws)
    assert not [m for m in messages if m["type"] == "error"]
    summary = client.get(f"/api/tables/{table_id}").json()
    record = GameRecord.from_json(client.get(f"/api/tables/{table_id}/record").json(), game)
    assert {seat for seat, _ in record.actions} - {0}, "the computer players never acted"
    state, _ = cardtable.core.replay(game, record)
    assert summary["outcome"]["winners"] == list(game.outcome(state).winners)
    assert messages[-1]["outcome"] == summary["outcome"]


def test_a_spectator_sees_public_information_only(client: TestClient) -> None:
    """A socket without a token gets observe(state, None), public events and no legal actions."""
    game = cardtable.load_game("durak")
    created = create(client, "durak", ["bot", "bot"])
    assert created["seat"] is None
    table_id = created["table_id"]
    follower = Follower()
    with client.websocket_connect(f"/ws/tables/{table_id}?token=not-a-token&patches=1") as ws:
        follower.follow(receive(ws))
        start(client, table_id, created["token"])
        messages = play_alone(ws, follower=follower)
    assert follower.patches > 0
    record = GameRecord.from_json(client.get(f"/api/tables/{table_id}/record").json(), game)
    states, events_at = _states(game, record)
    views = [m for m in messages if m["observation"] is not None]
    for view in views:
        assert view["seat"] is None and view["legal_actions"] == []
        state = states[view["version"]]
        shown = game.observation_codec.decode(view["observation"]).cards_shown()
        assert shown.isdisjoint(game.hidden_cards(state, None))
        assert view["observation"] == to_json(game.observe(state, None))
    sent = [e["event"] for m in messages for e in m["events"]]
    assert sent == [to_json(e) for e in events_for(events_at[-1], None)]
    assert len(sent) < len(events_at[-1]), "private events (dealt hands) must be held back"


# Refused messages.


def _illegal_action(game_name: str, seed: int, players: int) -> dict[str, Any]:
    """An action that decodes but is not legal for the first seat to act (taken from a later point)."""
    game = cardtable.load_game(game_name)
    state, _ = game.new(game.options(short_options(game_name), players=players), seed)
    seat = game.to_act(state)
    legal_now = set(game.legal_actions(state, seat))
    rng = random.Random(1)
    later = state
    while game.to_act(later) is not None:
        for action in game.legal_actions(later, game.to_act(later)):
            if action not in legal_now:
                return dict(to_json(action))
        actor = game.to_act(later)
        later, _ = game.apply(later, actor, rng.choice(game.legal_actions(later, actor)))
    raise AssertionError("no illegal action found")


def _refused(client: TestClient, ws: WebSocketTestSession, table_id: str, send: Any) -> str:
    """Send something bad: an error comes back, no view, the version stays, and the socket still answers."""
    before = client.get(f"/api/tables/{table_id}").json()
    if isinstance(send, bytes):
        ws.send_bytes(send)
    elif isinstance(send, str):
        ws.send_text(send)
    else:
        ws.send_json(send)
    reply = receive(ws)
    assert reply["type"] == "error", reply
    ws.send_json({"type": "ping"})
    assert receive(ws) == {"type": "pong"}
    after = client.get(f"/api/tables/{table_id}").json()
    assert (after["version"], after["to_act"], after["status"]) == (before["version"], before["to_act"], "playing")
    return str(reply["message"])


@pytest.fixture
def two_people(client: TestClient) -> Any:
    """A started two-person Durak table; yields (table id, sockets by seat, first view by seat, tokens)."""
    table_id, tokens = human_table(client, "durak", 2, seed=11)
    start(client, table_id, tokens[0])
    with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[0]}") as ws0:
        first0 = receive(ws0)
        with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[1]}") as ws1:
            first1 = receive(ws1)
            receive(ws0)  # seat 1 connected
            yield table_id, {0: ws0, 1: ws1}, {0: first0, 1: first1}, tokens


def test_bad_messages_are_refused_and_change_nothing(client: TestClient, two_people: Any) -> None:
    """Stale, illegal, wrong seat, malformed, oversized, binary and unknown messages: error, socket open."""
    table_id, sockets, views, _tokens = two_people
    actor = views[0]["to_act"]
    other = 1 - actor
    ws, version = sockets[actor], views[actor]["version"]
    legal = views[actor]["legal_actions"][0]["action"]
    illegal = _illegal_action("durak", 11, 2)
    assert illegal not in [a["action"] for a in views[actor]["legal_actions"]]
    cases: list[tuple[Any, str]] = [
        ({"type": "action", "version": version + 5, "action": legal}, "stale"),
        ({"type": "action", "version": version, "action": illegal}, "illegal"),
        ({"type": "action", "version": version, "action": {"type": "no-such-action"}}, "bad action"),
        ({"type": "action", "version": version, "action": "attack"}, "bad action"),
        ({"type": "action", "action": legal}, "version"),
        ({"type": "action", "version": True, "action": legal}, "version"),
        ({"type": "dance"}, "unknown message type"),
        ({"no": "type"}, "unknown message type"),
        ("{not json", "not valid JSON"),
        ("[1, 2, 3]", "JSON object"),
        ("[" * 70_000 + "]" * 70_000, "too large"),
        ("[" * 30_000, "not valid JSON"),
        ({"type": "ping", "pad": "x" * 70_000}, "too large"),
        (b'{"type": "ping"}', "binary"),
    ]
    for send, words in cases:
        assert words in _refused(client, ws, table_id, send)
    assert "not your turn" in _refused(client, sockets[other], table_id,
                                        {"type": "action", "version": version, "action": legal})
    # After all that, the legal action on the current version is accepted.
    ws.send_json({"type": "action", "version": version, "action": legal})
    assert receive(ws)["version"] == version + 1
    assert receive(sockets[other])["version"] == version + 1


def test_a_spectator_cannot_act(client: TestClient, two_people: Any) -> None:
    """A spectator's action is refused and changes nothing."""
    table_id, _sockets, views, _tokens = two_people
    legal = views[views[0]["to_act"]]["legal_actions"][0]["action"]
    with client.websocket_connect(f"/ws/tables/{table_id}") as spectator:
        receive(spectator)
        message = _refused(client, spectator, table_id, {"type": "action", "version": 0, "action": legal})
    assert "spectators cannot act" in message


@pytest.mark.parametrize("game_name", GAMES)
def test_an_illegal_action_is_refused_in_every_game(client: TestClient, game_name: str) -> None:
    """An action that is legal at some other point of the game is refused now, in every game."""
    players = cardtable.load_game(game_name).info.min_players
    table_id, tokens = human_table(client, game_name, players, seed=5)
    start(client, table_id, tokens[0])
    actor = client.get(f"/api/tables/{table_id}").json()["to_act"]
    with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[actor]}") as ws:
        view = receive(ws)
        illegal = _illegal_action(game_name, 5, players)
        message = _refused(client, ws, table_id, {"type": "action", "version": view["version"], "action": illegal})
    assert "illegal" in message


def test_an_unknown_table_closes_the_socket(client: TestClient) -> None:
    """A WebSocket to a table that does not exist gets an error and code 4404."""
    with client.websocket_connect("/ws/tables/nope") as ws:
        assert receive(ws)["type"] == "error"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 4404


def test_a_reconnecting_seat_gets_its_seat_and_every_event_again(client: TestClient, two_people: Any) -> None:
    """A second socket with the same token (a reloaded page) is the same seat and gets the whole visible log."""
    table_id, sockets, views, tokens = two_people
    actor = views[0]["to_act"]
    sockets[actor].send_json({"type": "action", "version": 0, "action": views[actor]["legal_actions"][0]["action"]})
    after = {seat: receive(sockets[seat]) for seat in (0, 1)}
    assert client.get(f"/api/tables/{table_id}").json()["version"] == 1
    seat = after[0]["to_act"]
    log = views[seat]["events"] + after[seat]["events"]
    assert after[seat]["events"], "the action's events reach the seat"
    with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[seat]}") as again:
        fresh = receive(again)
    assert fresh["seat"] == seat and fresh["version"] == 1
    assert fresh["events"] == log
    assert fresh["observation"] == after[seat]["observation"]
    assert fresh["legal_actions"] == after[seat]["legal_actions"] != []



def test_an_action_the_database_cannot_store_is_not_accepted(client: TestClient, two_people: Any,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The store commits before anyone hears of an action: if it fails, the action did not happen."""
    table_id, sockets, views, _tokens = two_people
    actor = views[0]["to_act"]
    legal = views[actor]["legal_actions"][0]["action"]
    manager = client.app.state.manager  # type: ignore[attr-defined]

    def broken(*_args: Any, **_kwargs: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(manager.store, "append_action", broken)
    message = _refused(client, sockets[actor], table_id, {"type": "action", "version": 0, "action": legal})
    assert "nothing changed" in message
    monkeypatch.undo()
    sockets[actor].send_json({"type": "action", "version": 0, "action": legal})
    assert receive(sockets[actor])["version"] == 1
