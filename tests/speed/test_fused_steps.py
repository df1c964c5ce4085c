"""Crazy Eights and Durak check and step their own actions in one go (``apply``): the answers and
the states must be those of the full edge check followed by the general step."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardtable
from cardtable.core.codec import dumps
from cardtable.core.errors import IllegalAction
from cardtable.core.game import Game
from cardtable.core.state import SlotState, updater
from cardtable.games.crazy_eights import game as c8
from cardtable.games.crazy_eights.actions import DRAW, PASS, PLAYS_OF_CARD
from cardtable.games.durak.actions import ATTACKS, BEATS, STOP, TAKE, Attack

ALL_ACTIONS: dict[str, tuple[Any, ...]] = {
    "crazy_eights": (*(a for plays in PLAYS_OF_CARD for a in plays), DRAW, PASS),
    "durak": (*ATTACKS, *BEATS, STOP, TAKE),
}
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "crazy_eights": [{"players": 4, "rounds": 1}, {"players": 2, "draw_until_playable": False, "rounds": 3}],
    "durak": [{"players": 3}, {"players": 2, "attack_cap": "defender_hand"}, {"players": 5, "bout_limit": 9}],
}


def _fields(state: SlotState) -> list[Any]:
    """The state's slots, sets as sorted lists (equal sets may be built in different orders)."""
    return [sorted(v) if isinstance(v, frozenset) else
            [sorted(x) if isinstance(x, frozenset) else x for x in v] if isinstance(v, tuple) else v
            for v in state.__getstate__()]


def _positions(name: str, games: int = 2) -> list[Any]:
    game = cardtable.load_game(name)
    rng = random.Random(11)
    out = []
    for values in OPTIONS[name]:
        options = game.options(values)
        for seed in range(games):
            state, _ = game.new(options, seed)
            while (seat := game.to_act(state)) is not None:
                out.append(state)
                legal = game.legal_actions(state, seat)
                state, _ = game.apply_unchecked(state, seat, legal[rng.randrange(len(legal))])
    return out


@pytest.mark.parametrize("name", ["crazy_eights", "durak"])
def test_apply_accepts_and_refuses_exactly_what_the_full_check_does(name: str) -> None:
    game = cardtable.load_game(name)
    positions = _positions(name)
    assert len(positions) > 100
    for state in positions[::7]:
        before = _fields(state)
        turn = game.to_act(state)
        for seat in {turn, (turn + 1) % game.players(state), 7}:
            for action in ALL_ACTIONS[name]:
                reason = Game.why_illegal(game, state, seat, action)
                if reason is None:
                    new, events = game.apply(state, seat, action)
                    ref_new, ref_events = Game.apply(game, state, seat, action)
                    assert _fields(new) == _fields(ref_new) and dumps(events) == dumps(ref_events)
                else:
                    with pytest.raises(IllegalAction) as info:
                        game.apply(state, seat, action)
                    assert reason in str(info.value)
        assert _fields(state) == before  # nothing changed the position


def test_durak_apply_refuses_a_card_of_a_well_formed_but_foreign_action_object() -> None:
    game = cardtable.load_game("durak")
    state, _ = game.new(game.options({"players": 3}), 4)
    seat = game.to_act(state)
    card = next(c for c in range(36) if c not in state.hands[seat])
    with pytest.raises(IllegalAction, match="not in seat"):
        game.apply(state, seat, Attack(card))  # a decoded action, not the engine's own instance


def test_crazy_eights_fast_steps_match_the_general_step() -> None:
    game = cardtable.load_game("crazy_eights")
    rng = random.Random(3)
    for state in _positions("crazy_eights", games=3)[::3]:
        seat = game.to_act(state)
        legal = game.legal_actions(state, seat)
        action = legal[rng.randrange(len(legal))]
        new, events = game.apply_unchecked(state, seat, action)
        ref_new, ref_events = c8._step(state, seat, action)
        assert _fields(new) == _fields(ref_new) and dumps(events) == dumps(ref_events)


def test_updater_writes_a_changed_copy_and_shares_the_rest() -> None:
    class Sample(SlotState):
        __slots__ = ("a", "b", "c")

    old = Sample()
    old.a, old.b, old.c = (1,), "x", 3
    change = updater(Sample, "c", "a")
    new = change(old, 4, (5,))
    assert (new.a, new.b, new.c) == ((5,), "x", 4) and new.b is old.b
    assert (old.a, old.b, old.c) == ((1,), "x", 3)
    for bad in (("d",), ("a", "a")):
        with pytest.raises(ValueError):
            updater(Sample, *bad)
