"""Whether a compiled copy of ``random.Random`` (``core/_twister.pxd``) draws exactly what this Python draws.

The compiled playouts of the search bots consume the bots' ``random.Random`` streams in C, so that
their choices are the Python playouts' choices. Python does not promise to keep ``randrange`` or
``shuffle`` as they are (``_randbelow`` changed before), so each compiled module exposes
``sample(seed, rng)``, the recipe below run in C, and uses itself only if ``same_stream`` finds it
equal to Python's, generator state included. ``CompiledPlayouts`` is that choice for one module, with a
switch (``python_only``) that forces the Python code for a while, so tests and benchmarks compare the
two in one process.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

#: ``getrandbits`` widths and ``randrange`` bounds the recipe draws (the C side has the same lists).
BITS = (0, 1, 5, 31, 32, 33, 52, 62, 63, 64)
BOUNDS = (1, 2, 3, 7, 52, 1000, 2**31, 2**32 + 1, 2**62, 2**63 + 12345)
#: Seeds of one and of two 32-bit words, and 0.
SEEDS = (0, 1, 2**32 - 1, 2**32, 20261202, 2**62 - 1)

Sample = Callable[[int, random.Random], list[Any]]


def reference_sample(seed: int, rng: random.Random) -> list[Any]:
    """The recipe in Python: draws from ``Random(seed)``, then two draws from ``rng``."""
    g = random.Random(seed)
    out: list[Any] = [g.random() for _ in range(3)]
    out.extend(g.getrandbits(k) for k in BITS)
    out.extend(g.randrange(n) for n in BOUNDS)
    items = list(range(52))
    g.shuffle(items)
    out.append(items)
    for _ in range(700):  # past one regeneration of the 624 words
        g.getrandbits(32)
    out.append(g.random())
    out.append(rng.random())
    out.append(rng.randrange(2**62))
    return out


def same_stream(sample: Sample) -> bool:
    """Whether ``sample`` (a compiled module's) gives the recipe's values and leaves ``rng`` in the same state."""
    for seed in SEEDS:
        mine, theirs = random.Random(seed + 7), random.Random(seed + 7)
        if sample(seed, mine) != reference_sample(seed, theirs) or mine.getstate() != theirs.getstate():
            return False
    return True


class CompiledPlayouts:
    """A compiled playout module (loaded by ``load``, which raises ImportError where it is not built), used when its
    stream is Python's and ``check`` (what else it must compute as Python does) passes; else, or inside
    ``python_only``, the caller runs its Python code."""

    def __init__(self, load: Callable[[], ModuleType], check: Callable[[ModuleType], bool] | None = None) -> None:
        self._load = load
        self._check = check
        self._module: ModuleType | None = None
        self._checked = False
        self._forced = 0

    def _built(self) -> ModuleType | None:
        if not self._checked:
            try:
                module = self._load()
            except ImportError:
                module = None
            usable = module is not None and same_stream(module.sample) and (self._check is None or self._check(module))
            self._module = module if usable else None
            self._checked = True
        return self._module

    def get(self) -> ModuleType | None:
        """The compiled module to use now, or None: run the Python code."""
        return None if self._forced else self._built()

    def is_built(self) -> bool:
        """Whether the compiled module is there and draws Python's numbers (whatever ``python_only`` says)."""
        return self._built() is not None

    @contextmanager
    def python_only(self) -> Iterator[None]:
        """Run the Python code inside the block."""
        self._forced += 1
        try:
            yield
        finally:
            self._forced -= 1


__all__ = ["BITS", "BOUNDS", "SEEDS", "CompiledPlayouts", "reference_sample", "same_stream"]
