"""A Gymnasium single-agent view of a game: one seat learns, cardtable bots play the others."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from cardtable.bots import make_bot
from cardtable.core.bot import Bot
from cardtable.rl import rewards as rw
from cardtable.rl.spaces import action_space, encoding_for, game_and_options, observation_space


class SingleAgentEnv(gymnasium.Env[Any, Any]):
    """Seat ``seat`` is the agent; every other seat is a bot named in ``opponents``.

    Observations and actions are those of the PettingZoo environment; the episode is one game.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}

    def __init__(self, game: str, *, opponents: str | Sequence[str] = "random", seat: int = 0,
                 rewards: str = "game", render_mode: str | None = None, **options: Any) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.game, self.options = game_and_options(game, options)
        self.name = self.game.info.name
        self.reward_mode = rw.check_mode(self.name, rewards)
        self.encoding = encoding_for(self.game)
        self.players: int = self.options.players
        if not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0–{self.players - 1}, not {seat}")
        names = [opponents] * (self.players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != self.players - 1:
            raise ValueError(f"{self.players - 1} opponents needed, not {len(names)}")
        for name in names:
            make_bot(self.game, name, options=self.options)  # ValueError naming the known bots or the misfit
        self.opponent_names = names
        self.seat = seat
        self.render_mode = render_mode
        self.observation_space = observation_space(self.encoding, self.options)
        self.action_space = action_space(self.encoding, self.options)
        self.game_state: Any = None
        self.encoder = self.encoding.encoder(self.options, seat)  # incremental: rewrites only what changed
        self.bots: dict[int, Bot] = {}

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deal a game from ``seed`` and let the bots play up to the agent's first decision."""
        super().reset(seed=seed)
        deal = int(self.np_random.integers(2**31)) if seed is None else int(seed)
        others = [s for s in range(self.players) if s != self.seat]
        self.bots = {s: make_bot(self.game, n, deal * 7 + s) for s, n in zip(others, self.opponent_names)}
        self.game_state, _ = self.game.new(self.options, deal)
        self._start = self.game_state
        reward = self._play_bots()
        return self._observe(), {"seed": deal, "reward_before_first_decision": reward}

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Play the agent's action id, then the bots until the agent's turn or the end of the game."""
        if self.game.outcome(self.game_state) is not None:
            raise ValueError("the game is over: call reset()")
        i = self.encoding.check_id(action, self.options)
        if not self.encoder.legal_bits(self.game_state) >> i & 1:
            raise ValueError(f"action id {i} is not legal now (legal: {self.encoder.legal_ids(self.game_state)})")
        before = self.game_state
        self.game_state, _ = self.game.apply(before, self.seat, self.encoder.action(i, before))
        reward = self._reward(before) + self._play_bots()
        outcome = self.game.outcome(self.game_state)
        info: dict[str, Any] = {} if outcome is None else {"outcome": outcome}
        return self._observe(), reward, outcome is not None, False, info

    def _play_bots(self) -> float:
        """Let the bots act until it is the agent's turn or the game is over; the agent's reward meanwhile."""
        reward = 0.0
        while (seat := self.game.to_act(self.game_state)) is not None and seat != self.seat:
            before = self.game_state
            legal = self.game.legal_actions(before, seat)
            action = self.bots[seat].act(self.game.observe(before, seat), legal)
            self.game_state, _ = self.game.apply(before, seat, action)
            reward += self._reward(before)
        return reward

    def _reward(self, before: Any) -> float:
        """The agent's reward for the step from ``before`` to the current state."""
        if self.reward_mode == "round":
            return rw.round_rewards(self.name, before, self.game_state)[self.seat]
        outcome = self.game.outcome(self.game_state)
        if outcome is None or self.game.outcome(before) is not None:
            return 0.0
        return rw.final_rewards(tuple(outcome.winners), self.players)[self.seat]

    def _observe(self) -> dict[str, np.ndarray]:
        """Fresh arrays, the caller's to keep (copies of the encoder's buffers)."""
        return {"observation": self.encoder.encode(self.game_state).copy(),
                "action_mask": self.encoder.action_mask(self.game_state).copy()}

    def render(self) -> str | None:
        """``ansi``: the agent's own view in words (its observation), never another seat's cards."""
        if self.render_mode is None:
            return None
        return repr(self.game.observe(self.game_state, self.seat))


def single_agent_env(game: str, *, opponents: str | Sequence[str] = "random", seat: int = 0,
                     rewards: str = "game", render_mode: str | None = None, **options: Any) -> SingleAgentEnv:
    """A Gymnasium environment: ``seat`` learns against bots (``ValueError`` for unknown names)."""
    return SingleAgentEnv(game, opponents=opponents, seat=seat, rewards=rewards, render_mode=render_mode,
                          **options)
