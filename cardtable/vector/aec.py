"""A PettingZoo AEC view of one game played by the compiled core: ``cardtable.rl.env``'s agents, spaces and ids."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from cardtable.rl.aec import EpisodeBookkeeping
from cardtable.vector.batch import BatchEnv


class CoreAECEnv(EpisodeBookkeeping, AECEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    """``cardtable.rl.env(game, ...)``'s interface (agents ``seat_0`` …, Dict observations, action ids), on the core.

    Rewards follow ``rewards`` ("game": ±1 at the end; "round": minus the penalty points as scored).
    An illegal id raises ``ValueError`` naming it; nothing changes.
    """

    metadata: dict[str, Any] = {"render_modes": [], "name": "cardtable_vector_v0", "is_parallelizable": False}

    def __init__(self, game: str, *, rewards: str = "game", **options: Any) -> None:
        super().__init__()
        self._game, self._rewards, self._options = game, rewards, options
        self.batch = BatchEnv(game, 1, seed=0, rewards=rewards, autoreset=False, **options)
        self.players = self.batch.players
        self.possible_agents = [f"seat_{s}" for s in range(self.players)]
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(0, 255, self.batch.obs_shape, np.uint8),
            "action_mask": spaces.Box(0, 1, (self.batch.num_actions,), np.int8),
        })
        self._act_space = spaces.Discrete(self.batch.num_actions)
        self._buffer = np.zeros(self.batch.obs_shape, np.uint8)
        self._action = np.zeros(1, np.int64)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same ``Dict`` space for every agent."""
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(num_actions)`` for every agent."""
        return self._act_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game from ``seed`` (a random one if ``None``): the Python engine's game of that seed."""
        seed_used = random.randrange(2**31) if seed is None else int(seed)
        self.batch = BatchEnv(self._game, 1, seed=seed_used, rewards=self._rewards, autoreset=False,
                              **self._options)
        self.batch.reset()
        self.seed_used = seed_used
        self.begin_episode()
        self._select()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's encoding and its mask (all zero when it is not its turn); fresh arrays."""
        seat = self.possible_agents.index(agent)
        self.batch.core.encode(0, seat, self._buffer)
        mask = self.batch.mask[0].copy() if seat == self.batch.player[0] else np.zeros(self.batch.num_actions,
                                                                                        np.int8)
        return {"observation": self._buffer.copy(), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play action id ``action`` for the agent to act; ``ValueError`` if it is not legal now."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise ValueError(f"action id {action!r} is not an integer")
        self._action[0] = int(action)
        _, _, rewards, done, _ = self.batch.step(self._action)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        for a, r in zip(self.possible_agents, rewards[0].tolist()):
            self.rewards[a] = r
        if done[0]:
            self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self._select()

    def _select(self) -> None:
        seat = int(self.batch.player[0])
        self.agent_selection = self.possible_agents[0 if seat < 0 else seat]

    def render(self) -> None:
        """No rendering: the core keeps no events (use the Python engine's ``cardtable.rl.env``)."""

    def close(self) -> None:
        """Nothing to release."""
