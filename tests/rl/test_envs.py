"""PettingZoo and Gymnasium environments: the official API and seed tests, rewards, bad input."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import cardtable
import cardtable.rl as rl
from tests.rl.cases import CASES

SMALL = {name: sets[0] for name, sets in CASES.items()}


@pytest.mark.parametrize(("name", "rewards"), [*((n, "game") for n in sorted(SMALL)), ("wizard", "round"),
                                               ("mus", "round")])
def test_pettingzoo_api_and_seed_tests_pass(name: str, rewards: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "observation is not a NumPy array": it is a dict, by design
        api_test(rl.env(name, render_mode="ansi", rewards=rewards, **SMALL[name]), num_cycles=200)
        seed_test(lambda: rl.env(name, rewards=rewards, **SMALL[name]), num_cycles=200)


def play_random(env: Any, seed: int) -> dict[str, float]:
    """One whole game with random legal ids; the cumulative reward of every agent."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    return totals


@pytest.mark.parametrize("name", sorted(SMALL))
def test_game_rewards_are_plus_one_for_winners_minus_one_for_the_others(name: str) -> None:
    env = rl.env(name, **SMALL[name])
    totals = play_random(env, 4)
    outcome = cardtable.load_game(name).outcome(env.game_state)
    winners = {f"seat_{s}" for s in outcome.winners}
    if len(winners) == env.players:
        assert set(totals.values()) == {0.0}
    else:
        assert all(totals[a] == (1.0 if a in winners else -1.0) for a in totals)


@pytest.mark.parametrize("name", ["wizard", "crazy_eights", "kaiser"])
def test_round_rewards_add_up_to_the_final_score(name: str) -> None:
    env = rl.env(name, rewards="round", **SMALL[name])
    totals = play_random(env, 2)
    outcome = cardtable.load_game(name).outcome(env.game_state)
    sign = -1.0 if name == "crazy_eights" else 1.0  # Crazy Eights scores penalty points
    expected = [sign * s for s in outcome.scores]  # Kaiser: each seat has its side's score
    assert [totals[f"seat_{s}"] for s in range(env.players)] == pytest.approx(expected)


def test_render_shows_the_game_in_words_and_no_hand() -> None:
    env = rl.env("crazy_eights", render_mode="ansi", players=2, rounds=1)
    env.reset(seed=5)
    text = env.render()
    assert "Crazy Eights" in text and "to act" in text
    hands = [cardtable.cards.STANDARD_52.text(c) for c in cardtable.cards.cards_of(env.game_state.hands[0])]
    assert not any(card in text.split() for card in hands)
    env.step(env.legal_ids()[0])
    assert env.render() != text


def test_observe_is_the_encoding_of_the_seat() -> None:
    env = rl.env("wizard", players=3, rounds=5)
    env.reset(seed=2)
    for agent in env.possible_agents:
        obs = env.observe(agent)
        assert env.observation_space(agent).contains(obs)
        assert bool(obs["action_mask"].any()) == (agent == env.agent_selection)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"game": "chess"}, "no game named 'chess'"),
    ({"game": "wizard", "colour": "red"}, "unknown option 'colour'"),
    ({"game": "wizard", "players": 9}, "3–6 players"),
    ({"game": "durak", "rewards": "round"}, "durak scores no rounds"),
    ({"game": "wizard", "rewards": "money"}, "rewards must be"),
])
def test_unknown_games_and_options_are_refused_by_name(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        rl.env(**kwargs)
    with pytest.raises(ValueError, match=message):
        rl.single_agent_env(**kwargs)


def test_bad_action_ids_are_refused_and_change_nothing() -> None:
    env = rl.env("wizard", players=3, rounds=5)
    env.reset(seed=1)
    state, agent = env.game_state, env.agent_selection
    illegal = next(i for i in range(85) if i not in env.legal_ids())
    for bad, message in ((85, "outside the wizard action space"), (-1, "outside"), ("2", "not an integer"),
                         (illegal, f"action id {illegal} .* is not legal for {agent}")):
        with pytest.raises(ValueError, match=message):
            env.step(bad)
        assert env.game_state is state and env.agent_selection == agent


def test_single_agent_env_plays_whole_games_against_bots() -> None:
    env = rl.single_agent_env("crazy_eights", opponents="heuristic", players=2, rounds=1)
    rewards = []
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        done = False
        rng = np.random.default_rng(seed)
        while not done:
            assert env.game.to_act(env.game_state) == 0
            assert env.observation_space.contains(obs)
            obs, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        rewards.append(reward)
        assert reward == (1.0 if 0 in info["outcome"].winners else -1.0)
    with pytest.raises(ValueError, match="game is over"):
        env.step(0)
    with pytest.raises(ValueError, match="no bot 'nobody'"):
        rl.single_agent_env("wizard", opponents="nobody")
    with pytest.raises(ValueError, match="2 opponents needed"):
        rl.single_agent_env("wizard", opponents=["random"], players=3)


def test_single_agent_env_is_reproducible_from_its_seed() -> None:
    def run() -> list[bytes]:
        env = rl.single_agent_env("kaiser", opponents="heuristic", target=32)
        obs, _ = env.reset(seed=11)
        seen = [obs["observation"].tobytes()]
        done = False
        while not done:
            obs, _, done, _, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
            seen.append(obs["observation"].tobytes())
        return seen

    assert run() == run()
