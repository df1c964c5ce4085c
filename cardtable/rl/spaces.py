"""Where a game's encoding lives, and its spaces in Gymnasium terms.

Every game package may offer ``encoding.py`` with an ``ENCODING`` (see
:mod:`cardtable.core.encoding`); games added through the ``cardtable.games`` entry point
do the same in their own package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from cardtable.core.encoding import Encoding
from cardtable.core.encoding import encoding_for as encoding_for  # re-exported (its home until 2026-12)

if TYPE_CHECKING:  # Gymnasium is the rl extra's: imported where a space is made
    from gymnasium import spaces


def game_and_options(name: str, options: dict[str, Any]) -> tuple[Any, Any]:
    """The game called ``name`` and its options; ``ValueError`` naming an unknown game or option."""
    import cardtable

    try:
        game = cardtable.load_game(name)
    except KeyError as exc:
        raise ValueError(str(exc.args[0])) from None
    return game, game.options(**options)


def observation_space(encoding: Encoding[Any, Any, Any], options: Any) -> spaces.Dict:
    """``{"observation": Box(uint8), "action_mask": Box(int8 0/1)}`` for these options."""
    from gymnasium import spaces

    return spaces.Dict({
        "observation": spaces.Box(0, 255, encoding.shape(options), np.uint8),
        "action_mask": spaces.Box(0, 1, (encoding.num_actions(options),), np.int8),
    })


def action_space(encoding: Encoding[Any, Any, Any], options: Any) -> spaces.Discrete:
    """``Discrete(num_actions)``."""
    from gymnasium import spaces

    return spaces.Discrete(encoding.num_actions(options))
