"""The agent interface shared by bots and people: an observation and the legal actions in, an action out."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from cardtable.core.observation import Observation


@runtime_checkable
class Bot(Protocol):
    """Anything that chooses an action from what its seat may know. It never sees a state."""

    name: str

    def act(self, observation: Observation, legal_actions: Sequence[Any]) -> Any:
        """One of ``legal_actions``."""
        ...


BotFactory = Callable[[int], Bot]
"""Builds a bot from a seed (bots that draw random numbers take them from it)."""
