"""A Gymnasium ``VectorEnv`` over the batched core: each env's seat to act plays the action given for it."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from cardtable.vector.batch import BatchEnv


class GymVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` self-play games; ``reward[i]`` is what the seat that acted in env ``i`` earned.

    Observations are ``{"observation": uint8, "action_mask": int8}`` batched (the seat to act's);
    ``infos["player"]`` is the seat to act, ``infos["rewards"]`` every seat's reward ``(num_envs,
    players)``. Autoreset is ``SAME_STEP``: a game that ended is replaced in the same step, its
    last view in ``infos["final_obs"]`` (where ``infos["_final_obs"]`` is set). Returned arrays are
    copies.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, game: str, num_envs: int, *, seed: int = 0, **kwargs: Any) -> None:
        self._kwargs = kwargs
        self._name = game
        self.batch = BatchEnv(game, num_envs, seed=seed, **kwargs)
        self.num_envs = num_envs
        obs_shape, n = self.batch.obs_shape, self.batch.num_actions
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(0, 255, obs_shape, np.uint8),
            "action_mask": spaces.Box(0, 1, (n,), np.int8),
        })
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.single_action_space = spaces.Discrete(n)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._final = np.zeros((num_envs, *obs_shape), np.uint8)

    def _obs(self) -> dict[str, np.ndarray]:
        return {"observation": self.batch.obs.copy(), "action_mask": self.batch.mask.copy()}

    def reset(self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deal every env's first game (env i: seed + i); ``seed`` (an int) restarts the batch from that seed.

        Without a seed the batch's own seed is dealt again: the same first games.
        """
        if isinstance(seed, list):
            raise ValueError("the batch takes one seed (env i plays seed + i), not one per env")
        if seed is not None:
            self.batch = BatchEnv(self._name, self.num_envs, seed=seed, **self._kwargs)
        self.batch.reset()
        return self._obs(), {"player": self.batch.player.copy()}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """Step every env; see the class docstring for what comes back."""
        acting = self.batch.player.copy()
        _, _, rewards, done, player = self.batch.step(actions, final_obs=self._final)
        reward = rewards[np.arange(self.num_envs), acting].astype(np.float64)
        infos: dict[str, Any] = {"player": player.copy(), "rewards": rewards.copy()}
        if done.any():
            infos["final_obs"] = self._final.copy()
            infos["_final_obs"] = done.copy()
        return self._obs(), reward, done.copy(), np.zeros(self.num_envs, np.bool_), infos
