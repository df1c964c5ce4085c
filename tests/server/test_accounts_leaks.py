"""Hidden information with accounts signed in: a rated game of signed-in people leaks nothing (issue 35).

The same checks as ``test_websocket``'s leak test, at a rated table whose every seat is a person's account:
each seat's views are ``observe(state, seat)`` with no card hidden from it, its legal actions only when it is
to act, and only the events it may see; and the game's end rates every seat.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

import cardtable
from cardtable.core import GameRecord, events_for, to_json
from tests.server.conftest import GAMES, Follower, receive, short_options
from tests.server.test_accounts_api import csrf, fast, sign_up
from tests.server.test_websocket import _sockets, _states


def _rated_table_of_people(client: TestClient, game_name: str, players: int) -> tuple[str, list[str]]:
    """A rated table made by ``seat0`` and joined by ``seat1``… (each signed in with a client of its own)."""
    fast(client)
    sign_up(client, "seat0")
    options = dict(short_options(game_name), players=players)
    made = client.post("/api/tables", json={"game": game_name, "options": options, "seed": 5, "rated": True,
                                            "seats": [{"kind": "human"}] * players}, headers=csrf(client))
    assert made.status_code == 201, made.text
    table_id, tokens = made.json()["table_id"], [made.json()["token"]]
    for seat in range(1, players):
        other = TestClient(client.app)
        sign_up(other, f"seat{seat}")
        joined = other.post(f"/api/tables/{table_id}/join", json={"seat": seat, "name": "ignored"},
                            headers=csrf(other))
        assert joined.status_code == 200, joined.text
        tokens.append(joined.json()["token"])
    return table_id, tokens


@pytest.mark.parametrize("game_name", GAMES)
def test_signed_in_people_at_a_rated_table_see_only_what_they_may(client: TestClient, game_name: str) -> None:
    """Every view of a whole rated game of signed-in people: no hidden card, own events only; all rated."""
    game = cardtable.load_game(game_name)
    players = int(game.options(short_options(game_name), players=game.info.min_players).players)
    table_id, tokens = _rated_table_of_people(client, game_name, players)
    keys: list[Any] = [*range(players), None]
    urls = [f"/ws/tables/{table_id}?token={t}&patches=1" for t in tokens] + [f"/ws/tables/{table_id}?patches=1"]
    received: dict[Any, list[dict[str, Any]]] = {key: [] for key in keys}
    followers = {key: Follower() for key in keys}
    rng = random.Random(3)
    with _sockets(client, urls) as sockets:
        for key, ws in zip(keys, sockets, strict=True):
            while True:
                received[key].append(followers[key].follow(receive(ws)))
                if all(s["connected"] for s in received[key][-1]["seats"]):
                    break
        assert client.post(f"/api/tables/{table_id}/start", json={"token": tokens[0]}).status_code == 200
        while True:
            views = {key: followers[key].follow(receive(ws)) for key, ws in zip(keys, sockets, strict=True)}
            for key, view in views.items():
                received[key].append(view)
            latest = views[None]
            if latest["status"] == "finished":
                break
            actor = latest["to_act"]
            choice = rng.choice(views[actor]["legal_actions"])
            sockets[actor].send_json({"type": "action", "version": latest["version"], "action": choice["action"]})
    record = GameRecord.from_json(client.get(f"/api/tables/{table_id}/record").json(), game)
    states, events_at = _states(game, record)
    for seat, messages in received.items():
        views = [m for m in messages if m["type"] == "view" and m["observation"] is not None]
        assert views
        for view in views:
            state = states[view["version"]]
            observation = game.observation_codec.decode(view["observation"])
            assert observation.cards_shown().isdisjoint(game.hidden_cards(state, seat))
            assert view["observation"] == to_json(game.observe(state, seat))
        sent = [e["event"] for m in messages if m["type"] == "view" for e in m["events"]]
        assert sent == [to_json(e) for e in events_for(events_at[-1], seat)]
    board = client.get(f"/api/leaderboard/{game_name}").json()["players"]
    assert sorted(p["name"] for p in board) == [f"seat{s}" for s in range(players)]
    assert all(p["games"] == 1 for p in board)
