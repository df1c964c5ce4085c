"""The registry of games by short name; each game package registers itself in one line.

Other packages add games through the ``cardtable.games`` entry-point group: each entry
names a module that calls :func:`register` when imported, or a :class:`Game` object, e.g.
``[project.entry-points."cardtable.games"] hearts = "cardtable_hearts"``.
"""

from __future__ import annotations

import warnings
from importlib.metadata import entry_points
from typing import Any

from cardtable.core.game import Game

AnyGame = Game[Any, Any, Any, Any]
_GAMES: dict[str, AnyGame] = {}
#: Entry points that failed to load, as ``"group:name: error"``: kept for ``cardtable games`` and tests.
PLUGIN_ERRORS: list[str] = []
_LOADED: set[str] = set()
GAMES_GROUP = "cardtable.games"


def register(game: AnyGame) -> AnyGame:
    """Register ``game`` under ``game.info.name``; returns it."""
    name = game.info.name
    if name in _GAMES and type(_GAMES[name]) is not type(game):
        raise ValueError(f"a different game is already registered as {name!r}")
    _GAMES[name] = game
    return game


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
