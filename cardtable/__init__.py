"""cardtable: card games with exact rules, computer opponents, a runner and a web table."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from cardtable.core.game import Game
from cardtable.core.registry import registered

__version__ = "0.1.0"

# The games package is imported before ``games()`` is defined so that the function, not the
# package, is what ``cardtable.games`` names; ``from cardtable.games.wizard import ...`` still works.
_GAMES_PACKAGE = importlib.import_module("cardtable.games")


def _discover() -> None:
    """Import every package under ``cardtable.games``; each registers its game."""
    package = _GAMES_PACKAGE
    for module in pkgutil.iter_modules(package.__path__):
        if module.ispkg:
            importlib.import_module(f"{package.__name__}.{module.name}")


def games() -> dict[str, Game[Any, Any, Any, Any]]:
    """Every registered game by short name, in name order."""
    _discover()
    return dict(sorted(registered().items()))


def load_game(name: str) -> Game[Any, Any, Any, Any]:
    """The game registered as ``name``; ``KeyError`` with the known names if there is none."""
    known = games()
    try:
        return known[name]
    except KeyError:
        raise KeyError(f"no game named {name!r} (known: {', '.join(known)})") from None


__all__ = ["games", "load_game", "__version__"]
