"""Which inner loops the Crazy Eights search runs: the compiled ``_fast`` (built where a C compiler is), or Python.

``FAST.get()`` is the compiled module when it is built and draws exactly what this interpreter's
``random.Random`` draws, else None: then the Python playouts, deals and particles run, slower, with
the same results. ``FAST.python_only()`` forces the Python code for a while.
"""

from __future__ import annotations

from types import ModuleType

from cardtable.core.twister import CompiledPlayouts


def _load() -> ModuleType:
    from cardtable.games.crazy_eights.players import _fast

    return _fast


#: The compiled playouts of the search, the particle filter and the win-chance table.
FAST = CompiledPlayouts(_load)

__all__ = ["FAST"]
