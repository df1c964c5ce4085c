"""Randomness that lives in the game state.

A state holds an immutable :data:`RngState` (the snapshot of a Mersenne Twister);
a chance step thaws it, draws, and stores the new snapshot in the new state, so
``(options, seed, actions)`` always replays the same game.
"""

from __future__ import annotations

import random
from typing import Any

RngState = tuple[Any, ...]


def rng_state(seed: int) -> RngState:
    """The RNG snapshot a new game starts from."""
    return random.Random(seed).getstate()


def thaw(state: RngState) -> random.Random:
    """A generator positioned at ``state``; draw from it, then :func:`freeze` it back."""
    # Random() would first seed itself from os.urandom, only for setstate to overwrite it.
    rng = random.Random.__new__(random.Random)
    rng.setstate(state)
    return rng


def freeze(rng: random.Random) -> RngState:
    """The snapshot of ``rng`` to store in the next state."""
    return rng.getstate()


def shuffled(state: RngState, items: list[Any]) -> tuple[list[Any], RngState]:
    """A shuffled copy of ``items`` and the RNG snapshot after shuffling."""
    rng = thaw(state)
    out = list(items)
    rng.shuffle(out)
    return out, freeze(rng)
