"""The random bot: a uniformly random legal action, for every game."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from cardtable.core.observation import Observation


class RandomBot:
    """Chooses uniformly among the legal actions with its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: Observation, legal_actions: Sequence[Any]) -> Any:
        """A uniformly random legal action."""
        return legal_actions[self.rng.randrange(len(legal_actions))]
