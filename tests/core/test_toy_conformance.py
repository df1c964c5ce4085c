"""The conformance checks themselves, run on the toy game (and shown to catch a leaking game)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.conformance import test_conformance as suite
from tests.core.toy import ToyGame, ToyObservation, ToyState


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_toy_game_passes_the_conformance_checks(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    game = ToyGame()
    monkeypatch.setitem(suite.GAMES, "toy", game)
    suite.test_info_is_consistent("toy")
    suite.test_random_playout_keeps_every_invariant("toy", {"players": 3, "preset": "long"}, seed)
    suite.test_malformed_actions_raise_decode_error("toy")


def test_a_leaking_observation_is_caught() -> None:
    class Leaky(ToyGame):
        def observe(self, state: ToyState, seat: int | None) -> ToyObservation:
            return ToyObservation(seat, state.total, self.to_act(state), state.cards[-1])

    game = Leaky()
    state, _ = game.new(game.options(), 1)
    with pytest.raises(AssertionError, match="hidden cards"):
        suite.check_observations(game, state)


def test_a_mutating_apply_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    class Mutating(ToyGame):
        def apply_unchecked(self, state: ToyState, seat: int, action: Any) -> Any:
            state.total += action.amount
            return super().apply_unchecked(state, seat, action)

    monkeypatch.setitem(suite.GAMES, "toy", Mutating())
    with pytest.raises(AssertionError, match="mutated"):
        suite.test_random_playout_keeps_every_invariant("toy", {"players": 2}, 1)


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
