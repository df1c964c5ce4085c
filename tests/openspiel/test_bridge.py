"""The OpenSpiel bridge: every game loads in pyspiel, passes random_sim_test with serialization,
hides what it must, and runs an OpenSpiel algorithm end to end."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pyspiel
import pytest

import cardtable.openspiel as bridge

SMALL = {
    "crazy_eights": {"players": 2, "rounds": 1},
    "durak": {"players": 2},
    "kaiser": {"target": 32},
    "mus": {"scoring.target": 10},
    "wizard": {"players": 3, "rounds": 5},
}


def test_every_game_is_registered() -> None:
    assert sorted(bridge.REGISTERED) == sorted(f"cardtable_{name}" for name in SMALL)
    names = {t.short_name for t in pyspiel.registered_games()}
    assert set(bridge.REGISTERED) <= names


@pytest.mark.parametrize(("name", "params"), [*sorted(SMALL.items()),
                                              ("mus", {"scoring.target": 10, "signals.enabled": True,
                                                       "signals.interception_p": 0.5})])
def test_random_sim_test_with_serialization(name: str, params: dict[str, object]) -> None:
    game = pyspiel.load_game(f"cardtable_{name}", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_an_event_of_some_probability_is_a_two_outcome_chance_node() -> None:
    """A seña seen by a rival with probability p: outcomes 1 (p) and 0 (1 - p)."""
    game = pyspiel.load_game("cardtable_mus", {"scoring.target": 10, "signals.enabled": True,
                                               "signals.interception_p": 0.25})
    rng = random.Random(0)
    for seed in range(40):
        rng.seed(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                if state.need[0] == "chance":
                    assert sorted(outcomes) == [(0, 0.75), (1, 0.25)]
                    return
                state.apply_action(rng.choice([o for o, _ in outcomes]))
            else:
                legal = state.legal_actions()
                signals = [a for a in legal if 22 <= a <= 35]  # señas first, to reach the interception draw
                state.apply_action(signals[0] if signals else rng.choice(legal))
    pytest.fail("no seña was ever made in 40 games")


def random_state(game: pyspiel.Game, steps: int, seed: int) -> pyspiel.State:
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_the_deal_is_made_of_explicit_chance_nodes_and_replays_from_the_history() -> None:
    game = pyspiel.load_game("cardtable_crazy_eights", SMALL["crazy_eights"])
    state = game.new_initial_state()
    assert state.is_chance_node()
    first = state.chance_outcomes()
    assert len(first) > 1 and sum(p for _, p in first) == pytest.approx(1.0)
    state = random_state(game, 120, seed=4)
    again = game.new_initial_state()
    for action in state.history():
        again.apply_action(action)
    assert str(again) == str(state) and again.history() == state.history()
    copy = pickle.loads(pickle.dumps(state))
    assert str(copy) == str(state)
    text = pyspiel.serialize_game_and_state(game, state)
    _, restored = pyspiel.deserialize_game_and_state(text)
    assert restored.history() == state.history()


def decision_state(game: pyspiel.Game, steps: int, seed: int) -> pyspiel.State:
    """A random state after at least ``steps`` actions where a player (not chance) acts."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while len(state.history()) < steps or state.is_chance_node():
        if state.is_terminal():
            state = game.new_initial_state()
        elif state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_observation_tensor_is_the_encoding_and_strings_hide_other_hands() -> None:
    from cardtable.cards import STANDARD_52

    game = pyspiel.load_game("cardtable_crazy_eights", SMALL["crazy_eights"])
    for seed in range(3):
        state = decision_state(game, 60, seed)
        seat = state.current_player()
        encoded = np.zeros(game.observation_tensor_shape(), np.uint8)
        game.encoding.encode(state.ct_state, seat, encoded)
        assert np.array_equal(np.array(state.observation_tensor(seat)), encoded.astype(np.float32))
        other_hand = [c for c in range(52) if state.ct_state.hands[1 - seat] >> c & 1]
        names = [name for c in other_hand for name in (STANDARD_52.card(c).words(), STANDARD_52.text(c))]
        seen = state.information_state_string(seat) + "\n" + state.observation_string(seat)
        assert other_hand and not any(name in seen for name in names)
        assert any(name in state.information_state_string(1 - seat) for name in names)  # the owner saw them


def test_unknown_parameters_are_refused_by_name() -> None:
    with pytest.raises(Exception, match="colour"):
        pyspiel.load_game("cardtable_wizard", {"colour": "red"})


def test_outcome_sampling_mccfr_runs_end_to_end() -> None:
    """OpenSpiel's MCCFR learns on a small Crazy Eights, then its average policy plays whole games."""
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = pyspiel.load_game("cardtable_crazy_eights", {"players": 2, "rounds": 1, "hand_size": 5})
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    np.random.seed(0)
    for _ in range(30):
        solver.iteration()
    policy = solver.average_policy()
    rng = random.Random(0)
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            probs = policy.action_probabilities(state)
            assert set(probs) == set(state.legal_actions())
            assert sum(probs.values()) == pytest.approx(1.0)
            actions, weights = zip(*probs.items())
            state.apply_action(rng.choices(actions, weights)[0])
        assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])
