"""Which search loop Wizard's ``search`` runs: the compiled ``_fast`` (built where a C compiler is), or Python.

``FAST.get()`` is the compiled module when it is built, draws exactly what this interpreter's
``random.Random`` draws and computes the search's floating point as this Python does (``sum`` of a
hand's fitted values in card order, ``math.erf``, ``math.exp``, ``** 2``); else None: then the Python
deals and playouts run, slower, with the same results. ``FAST.python_only()`` forces the Python code
for a while.
"""

from __future__ import annotations

import math
import random
from types import ModuleType

from cardtable.core.twister import CompiledPlayouts
from cardtable.games.wizard import rules


def _load() -> ModuleType:
    from cardtable.games.wizard.players import _fast

    return _fast


def same_arithmetic(fast: ModuleType) -> bool:
    """Whether the module's estimates, ``erf``, ``exp`` and squares are this Python's, on values like the search's."""
    rng = random.Random(26)
    values = [rng.random() * 1.5 for _ in range(rules.DECK_SIZE)]
    hands = [rng.getrandbits(rules.DECK_SIZE) for _ in range(24)]
    xs = [rng.uniform(-60.0, 3.0) for _ in range(40)] + [0.0, -0.5, 1e-300, -745.5]
    expected: list[object] = [sum(values[c] for c in rules.hand_ids(h)) for h in hands]
    expected += [(math.erf(x), math.exp(x), x**2) for x in xs]
    return bool(fast.arithmetic(values, hands, xs) == expected)


#: The compiled round simulator and deals of the search.
FAST = CompiledPlayouts(_load, same_arithmetic)

__all__ = ["FAST", "same_arithmetic"]
