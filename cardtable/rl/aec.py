"""PettingZoo AEC environments for every cardtable game: ``cardtable.rl.env("wizard", players=4)``."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from cardtable.core.events import Event, events_for
from cardtable.rl import rewards as rw
from cardtable.rl.spaces import action_space, encoding_for, game_and_options, observation_space


class EpisodeBookkeeping:
    """The per-agent dictionaries of a PettingZoo AEC environment, set anew together at each ``reset``."""

    possible_agents: list[str]
    agents: list[str]
    rewards: dict[str, float]
    _cumulative_rewards: dict[str, float]
    terminations: dict[str, bool]
    truncations: dict[str, bool]
    infos: dict[str, dict[str, Any]]

    def begin_episode(self) -> None:
        """Every agent in play, no reward yet, nothing ended, empty infos."""
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}


class CardtableEnv(EpisodeBookkeeping, AECEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    """One cardtable game as a PettingZoo AEC environment; agents are ``seat_0`` … ``seat_{n-1}``.

    Observations are ``{"observation": uint8 array, "action_mask": int8 array}`` from the game's
    encoding (what ``observe(state, seat)`` shows, nothing more); actions are action ids.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "cardtable_v0", "is_parallelizable": False}

    def __init__(self, game: str, *, render_mode: str | None = None, rewards: str = "game",
                 **options: Any) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.game, self.options = game_and_options(game, options)
        self.name = self.game.info.name
        self.reward_mode = rw.check_mode(self.name, rewards)
        self.encoding = encoding_for(self.game)
        self.metadata = {**self.metadata, "name": f"cardtable_{self.name}_v0"}
        self.render_mode = render_mode
        self.players: int = self.options.players
        self.possible_agents = [f"seat_{s}" for s in range(self.players)]
        self._obs_space = observation_space(self.encoding, self.options)
        self._act_space = action_space(self.encoding, self.options)
        self._size = self.encoding.num_actions(self.options)
        # One incremental encoder per seat: each rewrites only what changed since that seat's last observation.
        self._encoders = [self.encoding.encoder(self.options, seat) for seat in range(self.players)]
        self.game_state: Any = None
        self.seed_used = 0
        self._last_events: list[Event] = []  # put in words only when rendered

    # Spaces.

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same ``Dict`` space for every agent."""
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(num_actions)`` for every agent."""
        return self._act_space

    # The loop.

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game from ``seed`` (a random one if ``None``)."""
        self.seed_used = random.randrange(2**31) if seed is None else int(seed)
        self.game_state, events = self.game.new(self.options, self.seed_used)
        self.begin_episode()
        self._last_events = events
        self._select()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's encoded information state and its action mask (all zero when not its turn).

        Fresh arrays, the caller's to keep or change (copies of the seat's encoder buffers).
        """
        encoder = self._encoders[self.possible_agents.index(agent)]
        return {"observation": encoder.encode(self.game_state).copy(),
                "action_mask": encoder.action_mask(self.game_state).copy()}

    def legal_ids(self, agent: str | None = None) -> list[int]:
        """The legal action ids of ``agent`` (default: the agent to act)."""
        seat = self.possible_agents.index(agent or self.agent_selection)
        return self._encoders[seat].legal_ids(self.game_state)

    def step(self, action: int | None) -> None:
        """Play action id ``action`` for the agent to act; ``ValueError`` naming an id outside the space
        or not legal now (nothing changes)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        i = self.encoding.check_id(action, self.options)
        encoder = self._encoders[seat]
        if not encoder.legal_bits(self.game_state) >> i & 1:
            raise ValueError(f"action id {i} ({self._name_of(i)}) is not legal for {agent} now "
                             f"(legal: {self.legal_ids(agent)})")
        before = self.game_state
        self.game_state, events = self.game.apply(before, seat, encoder.action(i, before))
        self._last_events = events
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if self.reward_mode == "round":
            for a, r in zip(self.possible_agents, rw.round_rewards(self.name, before, self.game_state)):
                self.rewards[a] = r
        outcome = self.game.outcome(self.game_state)
        if outcome is not None:
            if self.reward_mode == "game":
                for a, r in zip(self.possible_agents, rw.final_rewards(tuple(outcome.winners), self.players)):
                    self.rewards[a] = r
            self.terminations = dict.fromkeys(self.agents, True)
            for a in self.agents:
                self.infos[a] = {"outcome": outcome}
        self._accumulate_rewards()
        self._select()

    def _select(self) -> None:
        """The agent to act next (the first agent once the game is over, for the dead steps)."""
        seat = self.game.to_act(self.game_state)
        self.agent_selection = self.possible_agents[0 if seat is None else seat]

    def _name_of(self, i: int) -> str:
        try:
            return str(self.game.describe_action(self.encoding.action_from_id(i, self.game_state)))
        except ValueError:
            return "unused id"

    # Words.

    def _describe(self, events: list[Event]) -> list[str]:
        """What a spectator may read of ``events``: nothing private."""
        return [e.text() for e in events_for(events, None)]

    def render(self) -> str | None:
        """``ansi``: the last step in words as a spectator saw it, and who acts now; hides every hand."""
        if self.render_mode is None:
            return None
        lines = [f"{self.game.info.title}, seed {self.seed_used}", *self._describe(self._last_events)]
        outcome = self.game.outcome(self.game_state)
        if outcome is not None:
            lines.append(f"Game over: {outcome.reason}")
        else:
            lines.append(f"{self.agent_selection} to act")
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""


def env(game: str, *, render_mode: str | None = None, rewards: str = "game", **options: Any) -> CardtableEnv:
    """A PettingZoo AEC environment for ``game`` with these options (``ValueError`` for unknown ones)."""
    return CardtableEnv(game, render_mode=render_mode, rewards=rewards, **options)
