"""Wizard's inlined ``apply`` (a legal card or bid straight to the move) gives exactly what the general
path gives: the base class's check followed by ``apply_unchecked``, state and events alike."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardtable
from cardtable.core import dumps
from cardtable.core.game import Game

GAME = cardtable.load_game("wizard")


@pytest.mark.parametrize("options", [
    {"players": 4, "rounds": 10},
    {"players": 3, "rounds": 5, "hidden_bids": True},
    {"players": 5, "rounds": 5, "bids_may_not_equal_tricks": True, "wizard_trump": "no_trump"},
    {"players": 6, "bids_may_not_equal_tricks": True, "hidden_bids": True},
])
def test_the_inlined_apply_equals_the_general_path(options: dict[str, Any]) -> None:
    rng = random.Random(3)
    for seed in range(2):
        state, _ = GAME.new(GAME.options(options), seed)
        while (seat := GAME.to_act(state)) is not None:
            legal = GAME.legal_actions(state, seat)
            assert legal == [a for a in legal if GAME.is_legal(state, seat, a)] and legal
            action = legal[rng.randrange(len(legal))]
            fast, events = GAME.apply(state, seat, action)
            general, general_events = Game.apply(GAME, state, seat, action)
            assert fast.__getstate__() == general.__getstate__()
            assert [dumps(e) for e in events] == [dumps(e) for e in general_events]
            state = fast
