"""The Bot API's stream: a bot plays whole games at live tables and sees only what its seat may see."""

from __future__ import annotations

from typing import Any

import pytest

import cardtable
from cardtable.core import GameRecord, to_json
from tests.botapi.helpers import account, bot_app, play, seat_bot, start, stream, table
from tests.server.conftest import short_options

GAMES = sorted(cardtable.games())


def _states(game: Any, record: GameRecord) -> list[Any]:
    state, _ = game.new(game.options(record.options), record.seed)
    states = [state]
    for seat, action in record.actions:
        state, _ = game.apply(state, seat, action)
        states.append(state)
    return states


@pytest.mark.parametrize("game_name", GAMES)
def test_a_bot_plays_a_whole_game_and_sees_only_its_seat(db_url: str, game_name: str) -> None:
    """Every act is observe(state, seat) at its decision, with exactly the legal actions; no hidden card
    reaches the bot in any message; its moves are the table's record."""
    game = cardtable.load_game(game_name)
    players = game.info.min_players
    token = account(db_url, "robo")
    with bot_app(db_url) as client, stream(client, token) as ws:
        created = table(client, game_name, players, options=short_options(game_name))
        seats = list(range(1, players))
        for seat in seats:
            seat_bot(client, ws, created, seat, "robo")
        start(client, created)
        messages = play(ws, seed=3)
        data = client.get(f"/api/tables/{created['table_id']}/record").json()
    record = GameRecord.from_json(data, game)
    states = _states(game, record)
    acts = [m for m in messages if m["type"] == "act"]
    assert acts, "the bot was never asked"
    for act in acts:
        state = states[act["id"]]
        seat = game.to_act(state)
        assert seat in seats and act["table"] == created["table_id"]
        assert act["observation"] == to_json(game.observe(state, seat))
        assert act["legal"] == [to_json(a) for a in game.legal_actions(state, seat)]
        shown = game.observation_codec.decode(act["observation"]).cards_shown()
        assert shown.isdisjoint(game.hidden_cards(state, seat))
    for version in {a["id"] for a in acts}:
        assert record.actions[version][0] in seats  # the bot's answer is what the table played
    assert not [m for m in messages if m["type"] == "error"], [m for m in messages if m["type"] == "error"]
    end = messages[-1]
    assert end["outcome"] == to_json(game.outcome(states[-1]))
    assert "lost decisions: none" in " ".join(data["notes"])
