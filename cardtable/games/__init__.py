"""One package per game; each registers itself with ``cardtable.core.register``.

The package is callable: ``cardtable.games()`` returns every registered game by name.
"""

from __future__ import annotations

import sys
import types
from typing import Any


class _GamesPackage(types.ModuleType):
    """This package's module type: calling it lists the registered games."""

    def __call__(self) -> dict[str, Any]:
        from cardtable.core.registry import all_games

        return all_games()


sys.modules[__name__].__class__ = _GamesPackage
