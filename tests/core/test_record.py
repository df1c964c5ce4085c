"""Game records: a format version and the cardtable version, old records still read, bad ones refused by name."""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import pytest

import cardtable
from cardtable.core import DecodeError, GameRecord, load_record, load_state, parse_json, replay, replay_state
from cardtable.core.record import RECORD_FORMAT, new_record
from cardtable.games.wizard.actions import Bid

GAME = cardtable.load_game("wizard")


def a_record() -> GameRecord:
    options = GAME.options(players=3, first_dealer=0)
    record = new_record(GAME, options, 4)
    state, _ = GAME.new(options, 4)
    for _ in range(3):
        seat = GAME.to_act(state)
        action = GAME.legal_actions(state, seat)[0]
        state, _ = GAME.apply(state, seat, action)
        record = record.with_action(seat, action)
    return record


def test_a_record_carries_its_format_and_the_cardtable_version() -> None:
    data = a_record().to_json()
    assert data["format"] == RECORD_FORMAT == 1
    assert data["cardtable"] == cardtable.__version__
    assert GameRecord.from_json(json.loads(json.dumps(data)), GAME) == a_record()


def test_a_record_without_a_format_is_read_as_before() -> None:
    data = a_record().to_json()
    del data["format"], data["cardtable"]
    record = GameRecord.from_json(data, GAME)
    assert record == a_record()
    replay(GAME, record)


def mangled(**changes: Any) -> dict[str, Any]:
    data = a_record().to_json()
    for key, value in changes.items():
        if value is ...:
            del data[key]
        else:
            data[key] = value
    return data


@pytest.mark.parametrize(("data", "message"), [
    (mangled(format=2, cardtable="9.0"), "record format 2 is not one this cardtable reads .* cardtable '9.0'"),
    (mangled(format="1"), "record format '1'"),
    (mangled(format=True), "record format True"),
    (mangled(game="durak"), "a record of 'durak', not of wizard"),
    (mangled(seed="4"), "seed must be an int, not a string"),
    (mangled(seed=True), "seed must be an int, not a bool"),
    (mangled(options=[]), "options must be an object"),
    (mangled(actions=[{"seat": "0", "action": {"type": "bid", "tricks": 0}}]), "seat must be an int, not a string"),
    (mangled(actions=[{"seat": True, "action": {"type": "bid", "tricks": 0}}]), "seat must be an int, not a bool"),
    (mangled(actions=[{"seat": 0, "action": {"type": "bid", "tricks": 0.0}}]), r"record action 0: bid\.tricks"),
    (mangled(actions={}), "actions must be a list"),
    (mangled(notes=[1]), "notes must be a list of strings"),
    (mangled(extra=1), "unknown field"),
    (mangled(seed=...), "seed must be an int, not None"),
    ([], "a game record is a JSON object"),
])
def test_a_malformed_record_is_refused_naming_the_problem(data: Any, message: str) -> None:
    with pytest.raises(DecodeError, match=message):
        GameRecord.from_json(data, GAME)


def test_a_record_keeps_its_api() -> None:
    record = a_record()
    longer = record.with_action(0, Bid(1))
    assert longer.actions[-1] == (0, Bid(1)) and longer.game == "wizard" and longer.seed == 4


@pytest.mark.parametrize("name", sorted(cardtable.all_games()))
def test_load_record_and_replay_state_agree_with_the_general_path_for_every_game(name: str) -> None:
    game = cardtable.load_game(name)
    options = game.options({})
    rng = random.Random(6)
    state, _ = game.new(options, 6)
    record = new_record(game, options, 6)
    while (seat := game.to_act(state)) is not None and len(record.actions) < 400:
        legal = game.legal_actions(state, seat)
        action = legal[rng.randrange(len(legal))]
        state, _ = game.apply(state, seat, action)
        record = record.with_action(seat, action)
    text = json.dumps(record.to_json())
    loaded = load_record(text, game)
    assert loaded == GameRecord.from_json(parse_json(text), game) == record
    assert pickle.dumps(replay_state(game, loaded)) == pickle.dumps(replay(game, record)[0]) == pickle.dumps(state)
    assert pickle.dumps(load_state(text, game)) == pickle.dumps(state)
