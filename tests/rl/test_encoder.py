"""Incremental encoders: byte for byte the stateless encoding, whatever order the states come in."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import cardtable
from cardtable.core.encoding import Encoder
from tests.rl.cases import CASES, redeal
from tests.rl.test_encoding import IDS, PARAMS, encoding_of, playout


def assert_same(encoder: Any, enc: Any, state: Any, seat: int, full: np.ndarray, mask: np.ndarray) -> None:
    """The encoder's buffers hold what the stateless calls write."""
    enc.encode(state, seat, full)
    assert encoder.encode(state) is encoder.obs
    assert np.array_equal(encoder.obs, full), np.flatnonzero(encoder.obs != full)
    enc.action_mask(state, seat, mask)
    assert encoder.action_mask(state) is encoder.mask
    assert np.array_equal(encoder.mask, mask)


@pytest.mark.parametrize(("name", "opts"), PARAMS, ids=IDS)
def test_encoders_match_the_stateless_encoding_at_every_decision(name: str, opts: dict[str, Any]) -> None:
    """Every seat's encoder follows whole random games (the seat to act and the others)."""
    game, enc = cardtable.load_game(name), encoding_of(name)
    options = game.options(**opts)
    full, mask = np.zeros(enc.shape(options), np.uint8), np.zeros(enc.num_actions(options), np.int8)
    encoders = [enc.encoder(options, seat) for seat in range(options.players)]
    assert all(type(e) is not Encoder for e in encoders), "every game has its own incremental encoder"
    decisions = 0
    for seed in range(60):  # the encoders carry over from one game to the next
        if decisions > 600:
            break
        for state, to_act in playout(name, opts, seed, limit=300):
            decisions += 1
            seats = range(options.players) if seed % 2 else [to_act]
            for seat in seats:
                assert_same(encoders[seat], enc, state, seat, full, mask)
            encoder = encoders[to_act]
            ids = encoder.legal_ids(state)
            assert ids == enc.legal_ids(state, to_act) and ids
            assert [encoder.action(i, state) for i in ids] == [enc.action_from_id(i, state) for i in ids]
    assert decisions > 100


@pytest.mark.parametrize(("name", "opts"), PARAMS, ids=IDS)
def test_encoders_need_no_successor_states(name: str, opts: dict[str, Any]) -> None:
    """States of several games in a random order (rewinds, jumps, repeats) still encode exactly."""
    game, enc = cardtable.load_game(name), encoding_of(name)
    options = game.options(**opts)
    states = [state for seed in range(11, 21) for state, _ in playout(name, opts, seed, limit=40)]
    random.Random(4).shuffle(states)
    full, mask = np.zeros(enc.shape(options), np.uint8), np.zeros(enc.num_actions(options), np.int8)
    encoders = [enc.encoder(options, seat) for seat in range(options.players)]
    for i, state in enumerate(states):
        seat = i % options.players
        assert_same(encoders[seat], enc, state, seat, full, mask)


@pytest.mark.parametrize("name", sorted(CASES))
def test_reset_repairs_a_buffer_written_from_outside(name: str) -> None:
    """The buffers belong to the encoder; after a caller scribbles on them, ``reset`` makes them right again."""
    game, enc = cardtable.load_game(name), encoding_of(name)
    opts = CASES[name][0]
    options = game.options(**opts)
    state, seat = next(iter(playout(name, opts, 3)))
    encoder = enc.encoder(options, seat)
    expected = enc.encode(state, seat, np.zeros(enc.shape(options), np.uint8)).copy()
    encoder.encode(state)
    encoder.obs[:] = 7
    assert not np.array_equal(encoder.encode(state), expected), "the encoder trusts what it wrote"
    encoder.reset()
    assert np.array_equal(encoder.encode(state), expected)


@pytest.mark.parametrize(("name", "opts"), PARAMS, ids=IDS)
def test_encoders_leak_nothing(name: str, opts: dict[str, Any]) -> None:
    """A state and its re-deal of every card hidden from the seat, one after the other: the same bytes."""
    game, enc = cardtable.load_game(name), encoding_of(name)
    options = game.options(**opts)
    rng = random.Random(8)
    encoders = [enc.encoder(options, seat) for seat in range(options.players)]
    changed = 0
    states = [state for seed in range(2, 6) for state, _ in playout(name, opts, seed, limit=100)]
    for step, state in enumerate(states):
        if step % 4:
            continue
        for seat, encoder in enumerate(encoders):
            other = redeal(game, state, seat, rng)
            changed += other.hands != state.hands
            first = encoder.encode(state).copy()
            assert np.array_equal(encoder.encode(other), first)
            assert np.array_equal(encoder.encode(state), first)
    assert changed, "no re-deal changed any hand: the test proved nothing"


def test_the_generic_encoder_rewrites_everything() -> None:
    """The base class (for a game with no incremental encoder of its own) is the stateless encoding."""
    game, enc = cardtable.load_game("durak"), encoding_of("durak")
    options = game.options(players=3)
    encoder = Encoder(enc, options, 1)
    full, mask = np.zeros(enc.shape(options), np.uint8), np.zeros(enc.num_actions(options), np.int8)
    for state, _ in playout("durak", {"players": 3}, 5, limit=60):
        assert_same(encoder, enc, state, 1, full, mask)


@pytest.mark.parametrize("name", sorted(CASES))
def test_encoder_actions_refuse_ids_by_name(name: str) -> None:
    game, enc = cardtable.load_game(name), encoding_of(name)
    options = game.options(**CASES[name][0])
    state, seat = next(iter(playout(name, CASES[name][0], 1)))
    encoder = enc.encoder(options, seat)
    size = enc.num_actions(options)
    for bad in (-1, size, 10**6):
        with pytest.raises(ValueError, match=str(bad)):
            encoder.action(bad, state)
    with pytest.raises(ValueError, match="not an integer"):
        encoder.action("3", state)


def test_mus_encoders_map_bets_with_the_cap_of_their_options() -> None:
    """Bet and raise ids depend on the options' cap: the encoder's table follows its own options."""
    game, enc = cardtable.load_game("mus"), encoding_of("mus")
    for opts in ({"scoring.target": 30, "betting.raise_rule": "double"}, {"betting.max_bet": 4}):
        options = game.options(**opts)
        state, seat = next(iter(playout("mus", opts, 1)))
        encoder = enc.encoder(options, seat)
        table = enc.action_table(options)
        assert len(table) == enc.num_actions(options)
        for i in range(enc.num_actions(options)):
            if table[i] is not None:
                assert encoder.action(i, state) == enc.action_from_id(i, state)
        assert encoder.action(enc.num_actions(options) - 1, state) == enc.action_from_id(
            enc.num_actions(options) - 1, state)


@pytest.mark.parametrize("name", ["crazy_eights", "durak", "wizard"])
def test_encoders_refuse_a_state_with_another_number_of_players(name: str) -> None:
    game, enc = cardtable.load_game(name), encoding_of(name)
    three, four = game.options(players=3), game.options(players=4)
    encoder = enc.encoder(three, 0)
    state, _ = game.new(four, 1)
    with pytest.raises(ValueError, match="3 players, the state has 4"):
        encoder.encode(state)


@pytest.mark.parametrize(("name", "first", "second"), [
    ("kaiser", *CASES["kaiser"]),
    ("mus", *CASES["mus"]),
    ("wizard", {"players": 3, "rounds": 5}, {"players": 3, "rounds": 10, "hidden_bids": True}),
    ("crazy_eights", {"players": 3, "rounds": 1}, {"players": 3, "rounds": 3, "draw_until_playable": False}),
])
def test_encoders_follow_states_dealt_with_other_options(name: str, first: dict[str, Any],
                                                         second: dict[str, Any]) -> None:
    """Options that keep the shape (rounds, targets, hidden bids …) may change between two states."""
    game, enc = cardtable.load_game(name), encoding_of(name)
    options = game.options(**first)
    assert enc.shape(options) == enc.shape(game.options(**second))
    states = [state for seed in range(30, 36) for opts in (first, second)
              for state, _ in playout(name, opts, seed, limit=40)]
    random.Random(5).shuffle(states)
    full, mask = np.zeros(enc.shape(options), np.uint8), np.zeros(enc.num_actions(options), np.int8)
    encoder = enc.encoder(options, 1)
    for state in states:
        assert_same(encoder, enc, state, 1, full, mask)
