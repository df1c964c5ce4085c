"""The agent interface shared by bots and people: an observation and the legal actions in, an action out."""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from typing import Any, Protocol, TypeVar, runtime_checkable

from cardtable.core.observation import Observation


@runtime_checkable
class Ranker(Protocol):
    """Ranks a seat's legal actions, the favourite first: what a search takes as its prior (a learned net's
    ranking in ``cardtable.bots.guided``; players never import ``cardtable.bots``)."""

    def ranking(self, observation: Observation, legal_actions: Sequence[Any]) -> list[int]:
        """Indices of ``legal_actions``, the favourite first."""
        ...

    def check_options(self, options: Any) -> None:
        """Raise ``ValueError`` naming what it was made for unless it plays a table with ``options``."""
        ...


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
        out[key] = option_number(kinds[key], raw, f"{bot} option {key}")
    return cls(**out)


def check_budget(sims: int, ms: float) -> None:
    """The checks every search budget shares: ``sims`` (playouts or deals a decision) at least 1, ``ms`` (a time
    cap) 0 for none or positive; ``ValueError`` in one line."""
    if sims < 1:
        raise ValueError(f"search option sims must be at least 1, not {sims}")
    if ms < 0:
        raise ValueError(f"search option ms must be 0 (no cap) or positive, not {ms}")


def option_number(kind: type[int] | type[float], raw: object, what: str) -> int | float:
    """``raw`` (a number, or its text) as an ``int`` or a finite ``float``, exactly; ``ValueError`` in one line.

    Nothing is rounded or coerced: ``1.5`` or ``"1.5"`` is not a whole number, ``True`` is not a number,
    ``nan`` and ``inf`` are not budgets.
    """
    whole = kind is int
    wanted = "a whole number" if whole else "a number"
    value: int | float | None = None
    if isinstance(raw, bool):
        value = None
    elif isinstance(raw, int):
        value = raw if whole else float(raw)
    elif isinstance(raw, float):
        value = None if whole else raw
    elif isinstance(raw, str):
        text = raw.strip()
        try:
            value = int(text) if whole else float(text)
        except ValueError:
            value = None
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        raise ValueError(f"{what} must be {wanted}, not {raw!r}")
    return value


#: Each game's players, as ``"package.module:NAME"`` until first asked for, then the mapping itself.
_GAME_BOTS: dict[str, str | Mapping[str, BotFactory]] = {}


def register_bots(game: str, where: str | Mapping[str, BotFactory]) -> None:
    """Name the bots of ``game``: a mapping of name to factory, or where it lives (``"pkg.players:BOTS"``).

    A game's rules never import its players; the game's package registers them here and
    :meth:`cardtable.core.game.Game.bots` finds them.
    """
    if isinstance(where, str) and ":" not in where:
        raise ValueError(f"bots of {game} must be named as 'module:NAME', not {where!r}")
    _GAME_BOTS[game] = where


def registered_bots(game: str) -> Mapping[str, BotFactory]:
    """The bots registered for ``game`` by name (empty if none); imports their module on first use."""
    where = _GAME_BOTS.get(game)
    if where is None:
        return {}
    if isinstance(where, str):
        module, _, name = where.partition(":")
        where = dict(getattr(importlib.import_module(module), name))
        _GAME_BOTS[game] = where
    return where
