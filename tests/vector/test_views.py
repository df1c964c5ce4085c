"""The Gymnasium VectorEnv and the PettingZoo AEC view of the core, checked with their libraries' own checks."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_space_limit
from gymnasium.vector import AutoresetMode, VectorEnv
from pettingzoo.test import api_test, seed_test

import cardtable.vector as vector
from tests.vector.helpers import assert_pettingzoo_is_cardtable_rl


def test_gymnasium_vector_env_spaces_steps_and_final_observations() -> None:
    env = vector.gymnasium_env("crazy_eights", num_envs=6, players=3, seed=4)
    assert isinstance(env, VectorEnv) and env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    check_space_limit(env.single_observation_space["observation"], "observation")
    obs, info = env.reset(seed=4)
    assert obs in env.observation_space
    assert info["player"].shape == (6,)
    ended = 0
    for _ in range(300):
        masks = obs["action_mask"]
        actions = np.array([np.flatnonzero(m)[0] for m in masks])
        assert actions in env.action_space
        acting = info["player"]
        obs, reward, terminated, truncated, info = env.step(actions)
        assert obs in env.observation_space
        assert reward.shape == (6,) and terminated.dtype == np.bool_ and not truncated.any()
        assert reward.tolist() == info["rewards"][np.arange(6), acting].tolist()
        if terminated.any():
            ended += int(terminated.sum())
            assert info["_final_obs"].tolist() == terminated.tolist()
            for i in np.flatnonzero(terminated):
                assert info["final_obs"][i] in env.single_observation_space["observation"]
    assert ended > 0
    with pytest.raises(ValueError, match="one seed"):
        env.reset(seed=[1, 2, 3, 4, 5, 6])


def test_gymnasium_reset_seed_restarts_the_same_games() -> None:
    env = vector.gymnasium_env("crazy_eights", num_envs=3, seed=0)
    first, _ = env.reset(seed=12)
    env.step(np.array([np.flatnonzero(m)[0] for m in first["action_mask"]]))
    again, _ = env.reset(seed=12)
    assert (first["observation"] == again["observation"]).all()


@pytest.mark.parametrize("rewards", ["game", "round"])
def test_pettingzoo_api_and_seed_tests_pass(rewards: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "observation is not a NumPy array": a dict, as cardtable.rl's
        api_test(vector.pettingzoo_env("crazy_eights", rewards=rewards, players=3, rounds=1), num_cycles=300)
        seed_test(lambda: vector.pettingzoo_env("crazy_eights", rewards=rewards, players=3, rounds=1),
                  num_cycles=300)


def test_the_pettingzoo_view_is_cardtable_rl_on_the_same_seed() -> None:
    # every seat's view, not only the one to act
    assert_pettingzoo_is_cardtable_rl("crazy_eights", (1, 2, 3), every_seat=True, to_the_end=True, rewards="round",
                                      players=4, rounds=3)


def test_pettingzoo_view_refuses_an_illegal_id_and_changes_nothing() -> None:
    env = vector.pettingzoo_env("crazy_eights", players=2)
    env.reset(seed=5)
    agent = env.agent_selection
    before = env.observe(agent)
    bad = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=f"env 0: illegal action {bad}"):
        env.step(bad)
    with pytest.raises(ValueError, match="not an integer"):
        env.step("draw")  # type: ignore[arg-type]
    assert env.agent_selection == agent
    assert (env.observe(agent)["observation"] == before["observation"]).all()
