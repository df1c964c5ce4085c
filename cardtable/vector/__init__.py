"""Batched simulation in compiled code: ``make("crazy_eights", num_envs=N, players=4, seed=S)`` steps N games at once.

    import cardtable.vector as vector
    env = vector.make("crazy_eights", num_envs=1024, players=4, seed=1)
    obs, mask, player = env.reset()
    obs, mask, rewards, done, player = env.step(env.sample("random"))

The compiled core (Cython, built at install where a C compiler is present) plays the same games as the
Python engines on the same seeds; the Python engines stay the reference and what the server, the
arena and the docs describe. ``available()`` lists the games whose core is built here; ``make``
raises ``CoreNotBuilt`` (an ``ImportError`` saying how to build it) where it is not. See
``docs/vector.md``. numpy is needed (the ``rl`` extra); Gymnasium and PettingZoo only for their views.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

try:
    import numpy  # noqa: F401  (the batch API's arrays)
except ImportError:  # numpy is the rl extra's
    raise ImportError("cardtable.vector needs numpy: pip install 'cardtable[rl]'") from None

from cardtable.vector.batch import BatchEnv, IllegalBatchAction
from cardtable.vector.cores import CORES, CoreNotBuilt, UnsupportedOptions, available


def make(game: str, num_envs: int, *, seed: int = 0, rewards: str = "game", illegal: str = "raise",
         policy_seed: int | None = None, **options: Any) -> BatchEnv:
    """``num_envs`` games of ``game`` with these options (the game's own option names), stepped together."""
    return BatchEnv(game, num_envs, seed=seed, rewards=rewards, illegal=illegal,  # type: ignore[arg-type]
                    policy_seed=policy_seed, **options)


def gymnasium_env(game: str, num_envs: int, *, seed: int = 0, **kwargs: Any) -> Any:
    """A Gymnasium ``VectorEnv`` over the batch (see ``cardtable.vector.gym``)."""
    with _needs_extra("gymnasium_env"):
        from cardtable.vector.gym import GymVectorEnv

    return GymVectorEnv(game, num_envs, seed=seed, **kwargs)


def pettingzoo_env(game: str, *, rewards: str = "game", **options: Any) -> Any:
    """A PettingZoo AEC environment of one game on the core (``cardtable.rl.env``'s interface)."""
    with _needs_extra("pettingzoo_env"):
        from cardtable.vector.aec import CoreAECEnv

    return CoreAECEnv(game, rewards=rewards, **options)


@contextlib.contextmanager
def _needs_extra(name: str) -> Iterator[None]:
    """Turn a missing Gymnasium or PettingZoo into ``cardtable.rl``'s clear error naming the extra."""
    from cardtable.rl import EXTRA, ExtraMissing

    try:
        yield
    except ModuleNotFoundError as exc:
        if exc.name not in EXTRA:
            raise
        raise ExtraMissing(f"cardtable.vector.{name} needs {exc.name}: pip install 'cardtable[rl]'",
                           name=exc.name) from None


__all__ = ["CORES", "BatchEnv", "CoreNotBuilt", "IllegalBatchAction", "UnsupportedOptions", "available",
           "gymnasium_env", "make", "pettingzoo_env"]
