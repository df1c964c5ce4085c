"""Which playout and world sampler Kaiser's search hints run: the compiled ``_fast`` (where built), or Python.

``FAST.get()`` is the compiled module when it is built and draws exactly what this interpreter's
``random.Random`` draws, else None: then ``playout.play_hand`` and ``world.sample_fitting_world`` run
in Python, slower, with the same results. ``FAST.python_only()`` forces the Python code for a while.
It sits with the rules, as ``playout.py`` does.
"""

from __future__ import annotations

from types import ModuleType

from cardtable.core.twister import CompiledPlayouts


def _load() -> ModuleType:
    from cardtable.games.kaiser import _fast

    return _fast


#: The compiled playout and world sampler of the search hints.
FAST = CompiledPlayouts(_load)

__all__ = ["FAST"]
