"""Bots that work for every game, and name resolution: the generic bots plus each game's own."""

from __future__ import annotations

from typing import Any

from cardtable.bots.random import RandomBot
from cardtable.core.bot import Bot, BotFactory
from cardtable.core.game import Game

GENERIC_BOTS: dict[str, BotFactory] = {"random": RandomBot}


def bot_factories(game: Game[Any, Any, Any, Any]) -> dict[str, BotFactory]:
    """Every bot usable in ``game`` by name: the generic ones, then the game's own."""
    return {**GENERIC_BOTS, **game.bots()}


def bot_names(game: Game[Any, Any, Any, Any]) -> list[str]:
    """The names of every bot usable in ``game``."""
    return list(bot_factories(game))


def make_bot(game: Game[Any, Any, Any, Any], name: str, seed: int = 0) -> Bot:
    """A bot by name for ``game``; ``ValueError`` naming the known bots if there is none."""
    factories = bot_factories(game)
    if name not in factories:
        raise ValueError(f"no bot {name!r} for {game.info.name} (known: {', '.join(factories)})")
    return factories[name](seed)


__all__ = ["GENERIC_BOTS", "RandomBot", "bot_factories", "bot_names", "make_bot"]
