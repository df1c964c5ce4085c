"""Encodings: ids round-trip, the mask is the legal actions, and nothing hidden reaches the tensor."""

from __future__ import annotations

import importlib
import random
from typing import Any

import numpy as np
import pytest

import cardtable
from tests.rl.cases import CASES, redeal

PARAMS = [(name, opts) for name, sets in CASES.items() for opts in sets]
IDS = [f"{name}-{i}" for name, sets in CASES.items() for i in range(len(sets))]


def encoding_of(name: str) -> Any:
    return importlib.import_module(f"cardtable.games.{name}.encoding").ENCODING


def playout(name: str, opts: dict[str, Any], seed: int, limit: int = 400) -> Any:
    """The states of one random game (at most ``limit`` decisions), each with the seat to act."""
    game = cardtable.load_game(name)
    rng = random.Random(seed)
    state, _ = game.new(game.options(**opts), seed)
    for _ in range(limit):
        seat = game.to_act(state)
        if seat is None:
            return
        yield state, seat
        legal = game.legal_actions(state, seat)
        state, _ = game.apply(state, seat, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(("name", "opts"), PARAMS, ids=IDS)
def test_mask_is_exactly_the_legal_actions_and_ids_round_trip(name: str, opts: dict[str, Any]) -> None:
    game, enc = cardtable.load_game(name), encoding_of(name)
    options = game.options(**opts)
    size = enc.num_actions(options)
    mask = np.zeros(size, np.int8)
    for seed in range(8):
        for state, seat in playout(name, opts, seed):
            legal = game.legal_actions(state, seat)
            ids = [enc.action_id(a, state) for a in legal]
            assert len(set(ids)) == len(ids), "two legal actions share an id"
            assert all(0 <= i < size for i in ids)
            enc.action_mask(state, seat, mask)
            assert sorted(ids) == np.flatnonzero(mask).tolist()
            assert [enc.action_from_id(i, state) for i in ids] == legal
            other = (seat + 1) % game.players(state)
            assert not enc.action_mask(state, other).any(), "a seat not to act has a legal id"


@pytest.mark.parametrize(("name", "opts"), PARAMS, ids=IDS)
def test_encoding_fills_the_declared_shape_with_bytes(name: str, opts: dict[str, Any]) -> None:
    game, enc = cardtable.load_game(name), encoding_of(name)
    options = game.options(**opts)
    out = np.full(enc.shape(options), 7, np.uint8)
    floats = np.zeros(enc.shape(options), np.float32)
    for state, seat in playout(name, opts, 5, limit=60):
        enc.encode(state, seat, out)
        enc.encode(state, seat, floats)  # any dtype: converted on the way in
        assert (out == floats).all()
    assert out.any() and (out != 7).any()
    with pytest.raises(ValueError, match="buffer holds"):
        enc.encode(state, seat, np.zeros(enc.shape(options)[0] + 1, np.uint8))


@pytest.mark.parametrize(("name", "opts"), PARAMS, ids=IDS)
def test_states_a_seat_cannot_tell_apart_encode_identically(name: str, opts: dict[str, Any]) -> None:
    """Re-deal every card hidden from the seat: same observation, so the encoding must not change."""
    game, enc = cardtable.load_game(name), encoding_of(name)
    rng = random.Random(3)
    changed = 0
    for seed in range(4):
        for step, (state, _) in enumerate(playout(name, opts, seed, limit=200)):
            if step % 3:
                continue
            for seat in range(game.players(state)):
                other = redeal(game, state, seat, rng)
                assert game.observe(other, seat) == game.observe(state, seat), "the re-deal showed the seat something"
                changed += other.hands != state.hands
                assert enc.features(other, seat) == enc.features(state, seat)
    assert changed, "no re-deal changed any hand: the test proved nothing"


def test_the_leak_test_catches_an_encoding_that_reads_hidden_cards() -> None:
    """An encoder that also writes the next seat's hand fails the comparison above."""
    game, enc = cardtable.load_game("crazy_eights"), encoding_of("crazy_eights")
    state, seat = next(iter(playout("crazy_eights", {"players": 3, "rounds": 1}, 1)))
    other = redeal(game, state, seat, random.Random(0))

    def leaky(s: Any) -> bytes:
        return enc.features(s, seat) + s.hands[(seat + 1) % 3].to_bytes(7, "little")

    assert other.hands[(seat + 1) % 3] != state.hands[(seat + 1) % 3]
    assert enc.features(other, seat) == enc.features(state, seat)
    assert leaky(other) != leaky(state)


@pytest.mark.parametrize("name", sorted(CASES))
def test_ids_outside_the_space_are_refused_by_name(name: str) -> None:
    game, enc = cardtable.load_game(name), encoding_of(name)
    options = game.options(**CASES[name][0])
    size = enc.num_actions(options)
    state, _ = game.new(options, 1)
    for bad in (-1, size, 10**6):
        with pytest.raises(ValueError, match=str(bad)):
            enc.action_from_id(bad, state)
    with pytest.raises(ValueError, match="not an integer"):
        enc.action_from_id("3", state)
    with pytest.raises(ValueError, match="action space"):
        enc.action_id(object(), state)


def test_every_game_has_an_encoding() -> None:
    assert sorted(cardtable.all_games()) == sorted(CASES)
    for name in CASES:
        assert encoding_of(name).game == name


@pytest.mark.parametrize("opts", [{"scoring.target": 10}, {"scoring.target": 10, "betting.max_bet": 4},
                                  {"scoring.target": 10, "betting.min_bet": 3, "betting.raise_rule": "double"}])
def test_mus_legal_bits_without_the_actions_are_their_ids_in_every_betting_case(opts: dict[str, Any]) -> None:
    """Mus finds its legal ids without building the actions: the same ids, whichever branch of the betting."""
    from cardtable.games.mus.fsm import BetStatus

    game, enc = cardtable.load_game("mus"), encoding_of("mus")
    seen: set[str] = set()
    for seed in range(12):
        for state, seat in playout("mus", opts, seed, limit=300):
            legal = game.legal_actions(state, seat)
            assert enc.legal_bits(state, seat) == sum(1 << enc.action_id(a, state) for a in legal)
            b = state.betting
            if b is None or state.turn != seat or state.phase.name in ("MUS_DECISION", "DISCARD"):
                continue
            if b.status is BetStatus.OPEN:
                seen.add("open")
            elif b.ordago:
                seen.add("answer to an órdago")
            elif any(type(a).__name__ == "Raise" for a in legal):
                seen.add("answer with raises")
            else:
                seen.add("answer without raises")
    assert {"open", "answer with raises", "answer to an órdago"} <= seen, seen
