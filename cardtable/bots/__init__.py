"""Bots that work for every game, and name resolution: the generic bots, plugins' bots, each game's own.

Other packages add bots through the ``cardtable.bots`` entry-point group: the entry's name is
the bot's name and its object a factory (``seed -> bot``); a factory with a ``games`` attribute
(game names) is offered for those games only.
"""

from __future__ import annotations

import warnings
from importlib.metadata import entry_points
from typing import Any

from cardtable.bots.random import RandomBot
from cardtable.core.bot import Bot, BotFactory
from cardtable.core.game import Game

GENERIC_BOTS: dict[str, BotFactory] = {"random": RandomBot}
BOTS_GROUP = "cardtable.bots"
_PLUGIN_BOTS: dict[str, BotFactory] = {}
_LOADED: set[str] = set()


def plugin_bots(*, refresh: bool = False) -> dict[str, BotFactory]:
    """The bots of installed plugins by name; a broken entry point is warned about and recorded.

    Installed packages are scanned once per process; ``refresh`` scans again.
    """
    from cardtable.core.registry import PLUGIN_ERRORS

    if _LOADED and not refresh:
        return dict(_PLUGIN_BOTS)
    _LOADED.add("")
    for ep in entry_points(group=BOTS_GROUP):
        key = f"{ep.name}={ep.value}"
        if key in _LOADED:
            continue
        _LOADED.add(key)
        try:
            factory = ep.load()
            if not callable(factory):
                raise TypeError(f"{ep.value} is not a bot factory (seed -> bot)")
            _PLUGIN_BOTS[ep.name] = factory
        except Exception as exc:  # a plugin's bug must not take the whole platform down
            message = f"{BOTS_GROUP}:{ep.name}: {type(exc).__name__}: {exc}"
            PLUGIN_ERRORS.append(message)
            warnings.warn(f"cardtable could not load the bot plugin {message}", RuntimeWarning, stacklevel=2)
    return dict(_PLUGIN_BOTS)


def bot_factories(game: Game[Any, Any, Any, Any]) -> dict[str, BotFactory]:
    """Every bot usable in ``game`` by name: the generic ones, plugins' bots for it, then the game's own."""
    plugins = {name: f for name, f in plugin_bots().items()
               if game.info.name in getattr(f, "games", (game.info.name,))}
    return {**GENERIC_BOTS, **plugins, **game.bots()}


def bot_names(game: Game[Any, Any, Any, Any]) -> list[str]:
    """The names of every bot usable in ``game``."""
    return list(bot_factories(game))


def make_bot(game: Game[Any, Any, Any, Any], name: str, seed: int = 0) -> Bot:
    """A bot by name for ``game``; ``ValueError`` naming the known bots if there is none."""
    factories = bot_factories(game)
    if name not in factories:
        raise ValueError(f"no bot {name!r} for {game.info.name} (known: {', '.join(factories)})")
    return factories[name](seed)


__all__ = ["GENERIC_BOTS", "RandomBot", "bot_factories", "bot_names", "make_bot", "plugin_bots"]
