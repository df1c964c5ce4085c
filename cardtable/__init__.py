"""cardtable: card games with exact rules, computer opponents, a runner and a web table.

    >>> import cardtable
    >>> sorted(cardtable.games())          # every registered game by short name
    ['crazy_eights', 'durak', 'kaiser', 'mus', 'wizard']
    >>> game = cardtable.load_game("durak")
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from cardtable.core.game import Game
from cardtable.core.registry import registered

__version__ = "0.1.0"


def all_games() -> dict[str, Game[Any, Any, Any, Any]]:
    """Every registered game by short name, in name order (also spelled ``cardtable.games()``)."""
    package = importlib.import_module("cardtable.games")
    for module in pkgutil.iter_modules(package.__path__):
        if module.ispkg:
            importlib.import_module(f"{package.__name__}.{module.name}")
    return dict(sorted(registered().items()))


def load_game(name: str) -> Game[Any, Any, Any, Any]:
    """The game registered as ``name``; ``KeyError`` with the known names if there is none."""
    known = all_games()
    try:
        return known[name]
    except KeyError:
        raise KeyError(f"no game named {name!r} (known: {', '.join(known)})") from None


# ``cardtable.games`` is the package of games, made callable: ``cardtable.games()`` lists them,
# and ``import cardtable.games.wizard`` still works.
from cardtable import games  # noqa: E402

__all__ = ["__version__", "all_games", "games", "load_game"]
