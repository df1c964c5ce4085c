"""The conformance suite (``cardtable.testing``) itself: the toy game passes it, and each check catches its fault."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardtable import testing as suite
from cardtable.testing import ConformanceError, check_game
from tests.core.toy import ToyGame, ToyObservation, ToyState


def test_toy_game_passes_check_game() -> None:
    check_game(ToyGame(), cases=[{"players": 3, "preset": "long"}, {"players": 2}], seeds=[1, 2, 3], junk_examples=40)


def test_check_game_fails_a_leaking_game_naming_the_leak() -> None:
    class Leaky(ToyGame):
        def observe(self, state: ToyState, seat: int | None) -> ToyObservation:
            return ToyObservation(seat, state.total, self.to_act(state), state.cards[-1])

    with pytest.raises(ConformanceError, match="shows hidden cards"):
        check_game(Leaky(), seeds=[1], junk_examples=0)


def test_check_game_fails_a_game_that_skips_the_seat_check_in_observe() -> None:
    class Careless(ToyGame):
        def observe(self, state: ToyState, seat: int | None) -> ToyObservation:
            card = None if seat is None else state.cards[seat]
            return ToyObservation(seat, state.total, self.to_act(state), card)

    with pytest.raises(ConformanceError, match="observe"):
        check_game(Careless(), seeds=[1], junk_examples=30)


def test_a_leaking_observation_is_caught() -> None:
    class Leaky(ToyGame):
        def observe(self, state: ToyState, seat: int | None) -> ToyObservation:
            return ToyObservation(seat, state.total, self.to_act(state), state.cards[-1])

    game = Leaky()
    state, _ = game.new(game.options(), 1)
    with pytest.raises(AssertionError, match="hidden cards"):
        suite.check_observations(game, state)


def test_a_mutating_apply_is_caught() -> None:
    class Mutating(ToyGame):
        def apply_unchecked(self, state: ToyState, seat: int, action: Any) -> Any:
            state.total += action.amount
            return super().apply_unchecked(state, seat, action)

    with pytest.raises(AssertionError, match="mutated"):
        suite.check_playout(Mutating(), {"players": 2}, 1)


def test_out_of_turn_actions_are_caught() -> None:
    class Generous(ToyGame):
        def legal_actions(self, state: ToyState, seat: int) -> list[Any]:
            return super().legal_actions(state, state.turn)

    game = Generous()
    state, _ = game.new(game.options(), 1)
    with pytest.raises(AssertionError, match="out of turn"):
        suite.check_step(game, state, random.Random(1), [])


def test_a_public_event_showing_a_hidden_card_is_caught() -> None:
    from dataclasses import dataclass

    from tests.core.toy import Secret

    @dataclass(frozen=True, slots=True)
    class Shouted(Secret):
        def audience(self) -> frozenset[int] | None:
            return None

    game = ToyGame()
    state, _ = game.new(game.options(), 1)
    with pytest.raises(AssertionError, match="hidden cards"):
        suite.check_event_leaks(game, None, state, None, [Shouted(0, state.cards[0])])
    suite.check_event_leaks(game, None, state, None, [Secret(0, state.cards[0])])
    assert Secret(0, state.cards[0]).cards_shown() == {state.cards[0]}


def test_information_reaching_a_seat_outside_its_events_is_caught() -> None:
    from dataclasses import dataclass

    from tests.core.toy import Added

    @dataclass(frozen=True, slots=True)
    class AddedInSecret(Added):
        def audience(self) -> frozenset[int] | None:
            return frozenset({self.seat})

    class Whispering(ToyGame):
        """The amount is told to the mover only, yet everyone's observation shows the total."""

        def apply_unchecked(self, state: ToyState, seat: int, action: Any) -> Any:
            new, events = super().apply_unchecked(state, seat, action)
            return new, [AddedInSecret(e.seat, e.amount, e.total) for e in events]

    game = Whispering()
    state, _ = game.new(game.options(), 1)
    with pytest.raises(AssertionError, match="observes different things"):
        suite.check_observations_follow_what_was_seen(game, state, 0, game.legal_actions(state, 0),
                                                      random.Random(1))
    honest = ToyGame()
    suite.check_observations_follow_what_was_seen(honest, state, 0, honest.legal_actions(state, 0), random.Random(1))
