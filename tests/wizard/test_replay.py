"""Loading a stored Wizard game fast: the compiled record decoder and ``WizardGame.replay`` give exactly
what decoding with ``GameRecord.from_json`` and replaying through ``apply`` give, and refuse the same
records with the same reasons, naming the step."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

import cardtable
from cardtable.core import (
    DecodeError,
    GameRecord,
    IllegalAction,
    load_record,
    load_state,
    parse_json,
    replay,
    replay_state,
)
from cardtable.core.game import Game
from cardtable.games.wizard.actions import Bid, ChooseTrump, Play
from cardtable.games.wizard.game import WizardGame

GAME: WizardGame = cardtable.load_game("wizard")  # type: ignore[assignment]

OPTIONS: list[dict[str, Any]] = [
    {"players": 4},
    {"players": 3, "rounds": 5, "hidden_bids": True},
    {"players": 5, "rounds": 10, "bids_may_not_equal_tricks": True, "wizard_trump": "no_trump"},
    {"players": 6, "bids_may_not_equal_tricks": True, "hidden_bids": True},
]


def random_record(options: dict[str, Any], seed: int) -> tuple[GameRecord, Any]:
    """A random game's record and its final state."""
    rng = random.Random(seed)
    state, _ = GAME.new(GAME.options(options), seed)
    actions = []
    while (seat := GAME.to_act(state)) is not None:
        legal = GAME.legal_actions(state, seat)
        action = legal[rng.randrange(len(legal))]
        actions.append((seat, action))
        state, _ = GAME.apply(state, seat, action)
    return GameRecord("wizard", options, seed, tuple(actions)), state


def text_of(record: GameRecord) -> str:
    return json.dumps(record.to_json())


@pytest.mark.parametrize("options", OPTIONS)
def test_the_fast_load_gives_the_record_and_every_state_of_the_slow_one(options: dict[str, Any]) -> None:
    for seed in range(3):
        record, final = random_record(options, seed)
        loaded = load_record(text_of(record), GAME)
        assert loaded == record == GameRecord.from_json(parse_json(text_of(record)), GAME)
        assert all(a is b for (_, a), (_, b) in zip(loaded.actions, record.actions, strict=True))  # the cached actions
        assert replay_state(GAME, loaded).__getstate__() == final.__getstate__()
        assert load_state(text_of(record), GAME).__getstate__() == final.__getstate__()
        for upto in sorted(random.Random(seed).sample(range(len(record.actions)), 12)):
            slow, _ = replay(GAME, record, upto)
            assert replay_state(GAME, loaded, upto).__getstate__() == slow.__getstate__(), upto


def test_a_decoded_record_of_new_action_objects_replays_the_same() -> None:
    record, final = random_record({"players": 4, "rounds": 5}, 8)
    fresh = GameRecord("wizard", record.options, record.seed,
                       tuple((seat, dataclasses.replace(a)) for seat, a in record.actions))
    assert not any(a is b for (_, a), (_, b) in zip(fresh.actions, record.actions, strict=True))
    assert replay_state(GAME, fresh).__getstate__() == final.__getstate__()


def _wrongs(state: Any, seat: int) -> list[tuple[int, Any]]:
    """Actions the rules (mostly) refuse in ``state``: out of turn, a card not held, a wrong suit, ..."""
    others = [s for s in range(GAME.players(state)) if s != seat]
    legal = GAME.legal_actions(state, seat)
    out: list[tuple[int, Any]] = [(others[0], legal[0]), (True if seat == 1 else seat, legal[0])]
    held = [c for c in range(60) if state.hands[seat] >> c & 1]
    out += [(seat, Play(c)) for c in range(60) if Play(c) not in legal][:3]
    out += [(seat, Bid(state.round + 1)), (seat, ChooseTrump("red")), (seat, Bid(20))]
    if GAME.forbidden_bid(state) is not None:
        out.append((seat, Bid(GAME.forbidden_bid(state))))
    out += [(seat, Play(c)) for c in held if Play(c) not in legal]  # not following suit
    return out


@pytest.mark.parametrize("options", OPTIONS[:3])
def test_an_illegal_action_is_refused_with_apply_s_reason_naming_its_step(options: dict[str, Any]) -> None:
    record, _ = random_record(options, 5)
    rng = random.Random(1)
    checked = 0
    for step in sorted(rng.sample(range(len(record.actions)), 25)):
        state, _ = replay(GAME, record, step)
        for seat, wrong in _wrongs(state, GAME.to_act(state)):
            try:
                GAME.apply(state, seat, wrong)
            except IllegalAction as exc:
                expected = exc
            else:
                continue  # legal here after all (a trump choice by the dealer, say)
            bad = GameRecord("wizard", record.options, record.seed,
                             record.actions[:step] + ((seat, wrong),) + record.actions[step + 1:])
            loads = [lambda bad=bad: replay_state(GAME, bad)]
            if type(seat) is int:  # a record that JSON can hold: decoded into pairs, or straight into the state
                loads += [lambda bad=bad: replay_state(GAME, load_record(text_of(bad), GAME)),
                          lambda bad=bad: load_state(text_of(bad), GAME)]
            for load in loads:
                with pytest.raises(IllegalAction) as refused:
                    load()
                assert refused.value.step == step and refused.value.reason == expected.reason
                assert str(refused.value) == f"record action {step}: {expected}"
                checked += 1
    assert checked > 100


def test_an_action_after_the_end_is_refused_naming_its_step() -> None:
    record, _ = random_record({"players": 3, "rounds": 5}, 2)
    longer = GameRecord("wizard", record.options, record.seed, record.actions + (record.actions[-1],))
    with pytest.raises(IllegalAction, match=f"record action {len(record.actions)}: .*the game is over"):
        replay_state(GAME, load_record(text_of(longer), GAME))
    with pytest.raises(IllegalAction, match=f"record action {len(record.actions)}: .*the game is over"):
        load_state(text_of(longer), GAME)


def _mangled(change: Any) -> str:
    data = a_small_record().to_json()
    change(data)
    return json.dumps(data)


def a_small_record() -> GameRecord:
    return random_record({"players": 3, "rounds": 5}, 4)[0]


@pytest.mark.parametrize("change", [
    lambda d: d["actions"][2].update(action={"type": "play", "card": 3.0}),
    lambda d: d["actions"][2].update(action={"type": "play", "card": 60}),
    lambda d: d["actions"][2].update(action={"type": "bid", "tricks": True}),
    lambda d: d["actions"][2].update(action={"type": "choose_trump", "suit": "purple"}),
    lambda d: d["actions"][2].update(seat=True),
    lambda d: d["actions"][2].update(extra=1),
    lambda d: d["actions"][2]["action"].update(type="nonsense"),
    lambda d: d["actions"][2].update(action={"type": "bid", "tricks": 61}),
    lambda d: d.update(format=True),
    lambda d: d.update(format=7),
    lambda d: d.update(game="durak"),
    lambda d: d.update(notes=[1]),
    lambda d: d.pop("actions"),
    lambda d: d.update(colour="red"),
])
def test_a_malformed_record_gets_from_json_s_exact_error(change: Any) -> None:
    text = _mangled(change)
    with pytest.raises(DecodeError) as expected:
        GameRecord.from_json(parse_json(text), GAME)
    with pytest.raises(DecodeError) as refused:
        load_record(text, GAME)
    assert str(refused.value) == str(expected.value)
    with pytest.raises(DecodeError) as refused:
        load_state(text, GAME)
    assert str(refused.value) == str(expected.value)


def test_load_state_leaves_what_the_compiled_decoder_cannot_convert_to_the_two_step_way(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from cardtable.core.record_decoder import decoder_for
    from cardtable.games.wizard import game as wizard_game

    def refuse(item: Any) -> Any:
        raise ValueError("refused")

    record, final = random_record({"players": 5, "rounds": 5}, 9)
    decoder = decoder_for(GAME.info.action_types)
    assert decoder is not None
    monkeypatch.setattr(decoder, "pairs", {})  # nothing seen yet, and no item converts: the slow path decodes
    monkeypatch.setattr(wizard_game._CODES, "by_item", {})
    for struct in decoder.convert:
        monkeypatch.setitem(decoder.convert, struct, refuse)
    assert decoder.decode(text_of(record)) is None
    assert load_state(text_of(record), GAME).__getstate__() == final.__getstate__()


def test_a_big_seed_and_a_rare_bid_go_the_slow_way_and_still_load() -> None:
    record = a_small_record()
    data = record.to_json()
    data["seed"] = 2**70
    assert load_record(json.dumps(data), GAME) == GameRecord.from_json(data, GAME)
    assert load_record(json.dumps(data), GAME).seed == 2**70


def test_the_generic_replay_names_the_step_too() -> None:
    durak = cardtable.load_game("durak")
    options = durak.options({})
    state, _ = durak.new(options, 3)
    seat = durak.to_act(state)
    first = durak.legal_actions(state, seat)[0]
    wrong = (seat + 1) % durak.players(state)
    with pytest.raises(IllegalAction) as refused:
        Game.replay(durak, options, 3, [(seat, first), (wrong, first)])
    assert refused.value.step == 1 and str(refused.value).startswith("record action 1: illegal action")
