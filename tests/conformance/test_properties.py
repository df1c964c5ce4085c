"""Property tests (hypothesis) over every game: determinism and replay from any seed and any play."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.core import dumps
from cardtable.core.record import new_record, replay
from tests.conformance.test_conformance import build_options, cases_of

GAMES = cardtable.games()


def play(game: Any, options: Any, seed: int, rng: random.Random) -> tuple[Any, list[Any], Any]:
    """A random game; its final state, events and record."""
    state, events = game.new(options, seed)
    record = new_record(game, options, seed)
    while (seat := game.to_act(state)) is not None:
        legal = game.legal_actions(state, seat)
        action = legal[rng.randrange(len(legal))]
        state, more = game.apply(state, seat, action)
        events += more
        record = record.with_action(seat, action)
    return state, events, record


@pytest.mark.parametrize("name", list(GAMES))
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**40), play_seed=st.integers(min_value=0, max_value=2**32))
def test_same_seed_and_actions_give_the_same_game(name: str, seed: int, play_seed: int) -> None:
    """Dealing is a function of the seed; replaying the actions reproduces every event byte for byte."""
    game = GAMES[name]
    options = build_options(game, cases_of(name)[0])
    _, first_events = game.new(options, seed)
    _, again = game.new(options, seed)
    assert [dumps(e) for e in first_events] == [dumps(e) for e in again]
    state, events, record = play(game, options, seed, random.Random(play_seed))
    replayed_state, replayed = replay(game, record)
    assert [dumps(e) for e in replayed] == [dumps(e) for e in events]
    assert game.outcome(replayed_state) == game.outcome(state)
