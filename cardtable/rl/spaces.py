"""Where a game's encoding lives, and its spaces in Gymnasium terms.

Every game package may offer ``encoding.py`` with an ``ENCODING`` (see
:mod:`cardtable.core.encoding`); games added through the ``cardtable.games`` entry point
do the same in their own package.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
from gymnasium import spaces

from cardtable.core.encoding import Encoding


def game_and_options(name: str, options: dict[str, Any]) -> tuple[Any, Any]:
    """The game called ``name`` and its options; ``ValueError`` naming an unknown game or option."""
    import cardtable

    try:
        game = cardtable.load_game(name)
    except KeyError as exc:
        raise ValueError(str(exc.args[0])) from None
    return game, game.options(**options)


def encoding_for(game: Any) -> Encoding[Any, Any, Any]:
    """The encoding of ``game`` (its package's ``encoding.ENCODING``); ``ValueError`` if it has none."""
    package = type(game).__module__.rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.encoding")
    except ModuleNotFoundError:
        raise ValueError(f"{game.info.name} has no encoding for learning agents ({package}.encoding)") from None
    encoding: Encoding[Any, Any, Any] = module.ENCODING
    return encoding


def observation_space(encoding: Encoding[Any, Any, Any], options: Any) -> spaces.Dict:
    """``{"observation": Box(uint8), "action_mask": Box(int8 0/1)}`` for these options."""
    return spaces.Dict({
        "observation": spaces.Box(0, 255, encoding.shape(options), np.uint8),
        "action_mask": spaces.Box(0, 1, (encoding.num_actions(options),), np.int8),
    })


def action_space(encoding: Encoding[Any, Any, Any], options: Any) -> spaces.Discrete:
    """``Discrete(num_actions)``."""
    return spaces.Discrete(encoding.num_actions(options))
