"""Learning agents: encodings, PettingZoo and Gymnasium environments (needs the ``[rl]`` extra).

    import cardtable.rl
    env = cardtable.rl.env("wizard", players=4, rounds=5)          # PettingZoo AEC
    single = cardtable.rl.single_agent_env("crazy_eights", players=2, opponents="heuristic")  # Gymnasium

See ``docs/rl.md`` for the spaces, shapes and action ids of every game.

The environments are imported on first use, so ``import cardtable.rl`` and its Gymnasium-free parts
(``cardtable.rl.rewards``, which the compiled batch core uses) work without the extra; an environment
asked for without it raises :class:`ExtraMissing`, an ``ImportError`` naming the extra to install.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardtable.rl.aec import CardtableEnv, env
    from cardtable.rl.single import SingleAgentEnv, single_agent_env
    from cardtable.rl.spaces import encoding_for

#: Where each public name lives.
_WHERE = {"CardtableEnv": "aec", "env": "aec", "SingleAgentEnv": "single", "single_agent_env": "single",
          "encoding_for": "spaces"}
#: The libraries of the ``rl`` extra.
EXTRA = ("gymnasium", "pettingzoo")


class ExtraMissing(ImportError):
    """An environment was asked for where the ``rl`` extra (Gymnasium, PettingZoo) is not installed."""


def __getattr__(name: str) -> Any:
    """The environments and ``encoding_for``, imported on first use; a clear error without the extra."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'cardtable.rl' has no attribute {name!r}")
    try:
        loaded = importlib.import_module(f"cardtable.rl.{module}")
    except ModuleNotFoundError as exc:
        if exc.name not in EXTRA:
            raise
        raise ExtraMissing(f"cardtable.rl.{name} needs {exc.name}: pip install 'cardtable[rl]'",
                           name=exc.name) from None
    return getattr(loaded, name)


__all__ = ["CardtableEnv", "ExtraMissing", "SingleAgentEnv", "encoding_for", "env", "single_agent_env"]
