"""cardtable: card games with exact rules, computer opponents, a runner and a web table.

    >>> import cardtable
    >>> sorted(cardtable.games())          # every registered game by short name
    ['crazy_eights', 'durak', 'kaiser', 'mus', 'wizard']
    >>> game = cardtable.load_game("durak")
"""

from __future__ import annotations

# ``cardtable.games`` is the package of games, made callable: ``cardtable.games()`` lists them,
# and ``import cardtable.games.wizard`` still works.
from cardtable import games
from cardtable._version import __version__
from cardtable.core.registry import all_games, load_game

__all__ = ["__version__", "all_games", "games", "load_game"]
