"""The agent interface shared by bots and people: an observation and the legal actions in, an action out."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from typing import Any, Protocol, TypeVar, runtime_checkable

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


O = TypeVar("O")


def parse_bot_options(cls: type[O], values: Mapping[str, Any], *, bot: str = "search") -> O:
    """``cls`` (a dataclass of int and float fields) from ``key=value`` data; ``ValueError`` in one line if wrong.

    Strings are converted to each field's type; an unknown key names the known ones; the dataclass's own
    ``__post_init__`` checks the ranges.
    """
    kinds = {f.name: float if f.type in ("float", float) else int for f in fields(cls)}  # type: ignore[arg-type]
    out: dict[str, Any] = {}
    for key, raw in values.items():
        if key not in kinds:
            raise ValueError(f"{bot} has no option {key!r} (known: {', '.join(kinds)})")
        try:
            out[key] = kinds[key](raw)
        except (TypeError, ValueError):
            raise ValueError(f"{bot} option {key} must be a number, not {raw!r}") from None
    return cls(**out)
