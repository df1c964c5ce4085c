"""The registry of games by short name; each game package registers itself in one line."""

from __future__ import annotations

from typing import Any

from cardtable.core.game import Game

AnyGame = Game[Any, Any, Any, Any]
_GAMES: dict[str, AnyGame] = {}


def register(game: AnyGame) -> AnyGame:
    """Register ``game`` under ``game.info.name``; returns it."""
    name = game.info.name
    if name in _GAMES and type(_GAMES[name]) is not type(game):
        raise ValueError(f"a different game is already registered as {name!r}")
    _GAMES[name] = game
    return game


def registered() -> dict[str, AnyGame]:
    """The games registered so far, by name."""
    return dict(_GAMES)
