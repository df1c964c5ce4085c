"""The registry of games by short name; each game package registers itself, and names its players, in one line.

``register(XGame(), bots="cardtable.games.x.players:BOTS")``: the players' module is imported on
first use, so the rules never import a player and loading a game costs only its rules.

Other packages add games through the ``cardtable.games`` entry-point group: each entry
names a module that calls :func:`register` when imported, or a :class:`Game` object, e.g.
``[project.entry-points."cardtable.games"] hearts = "cardtable_hearts"``.
"""

from __future__ import annotations

import importlib
import pkgutil
import warnings
from importlib.metadata import entry_points
from typing import Any

from cardtable.core.bot import register_bots
from cardtable.core.game import Game

AnyGame = Game[Any, Any, Any, Any]
_GAMES: dict[str, AnyGame] = {}
#: Entry points that failed to load, as ``"group:name: error"``: kept for ``cardtable games`` and tests.
PLUGIN_ERRORS: list[str] = []
_LOADED: set[str] = set()
GAMES_GROUP = "cardtable.games"


#: The package whose sub-packages are the built-in games.
GAMES_PACKAGE = "cardtable.games"


def register(game: AnyGame, *, bots: str | None = None) -> AnyGame:
    """Register ``game`` under ``game.info.name``; returns it.

    ``bots`` names the mapping of its players, ``"package.module:NAME"``, imported when first asked for
    (see :func:`cardtable.core.bot.register_bots`).
    """
    name = game.info.name
    if name in _GAMES and type(_GAMES[name]) is not type(game):
        raise ValueError(f"a different game is already registered as {name!r}")
    _GAMES[name] = game
    if bots is not None:
        register_bots(name, bots)
    return game


def all_games() -> dict[str, AnyGame]:
    """Every registered game by short name, in name order: the built-in packages, then plugins."""
    package = importlib.import_module(GAMES_PACKAGE)
    for module in pkgutil.iter_modules(package.__path__):
        if module.ispkg:
            importlib.import_module(f"{GAMES_PACKAGE}.{module.name}")
    return dict(sorted(registered().items()))


def load_game(name: str) -> AnyGame:
    """The game registered as ``name``; ``KeyError`` with the known names if there is none."""
    known = all_games()
    try:
        return known[name]
    except KeyError:
        raise KeyError(f"no game named {name!r} (known: {', '.join(known)})") from None


def registered() -> dict[str, AnyGame]:
    """The games registered so far, by name, after loading the games of installed plugins."""
    load_plugin_games()
    return dict(_GAMES)


def load_plugin_games(*, refresh: bool = False) -> None:
    """Import every ``cardtable.games`` entry point not loaded yet; a broken one is warned about and recorded.

    Installed packages are scanned once per process (it costs milliseconds); ``refresh`` scans again.
    """
    if _LOADED and not refresh:
        return
    _LOADED.add("")  # scanned, even when there is no plugin
    for ep in entry_points(group=GAMES_GROUP):
        key = f"{ep.name}={ep.value}"
        if key in _LOADED:
            continue
        _LOADED.add(key)
        try:
            loaded = ep.load()
            if isinstance(loaded, Game):
                register(loaded)
        except Exception as exc:  # a plugin's bug must not take the whole platform down
            message = f"{GAMES_GROUP}:{ep.name}: {type(exc).__name__}: {exc}"
            PLUGIN_ERRORS.append(message)
            warnings.warn(f"cardtable could not load the game plugin {message}", RuntimeWarning, stacklevel=2)
