"""The Crazy Eights baseline (``first``): the first legal action, for measuring the others against."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class FirstBot:
    """A baseline: the first legal action (lowest card id; an eight names its first suit)."""

    name = "first"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """``legal_actions[0]``."""
        return legal_actions[0]
