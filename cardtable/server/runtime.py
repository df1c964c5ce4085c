"""Process-wide settings of a serving process (not of the library: only ``cardtable serve`` calls them).

A server holds thousands of small live objects (tables, states, views, sockets). CPython's cyclic
garbage collector walks the young generation every 700 net allocations and, now and then, every
object: with 1,000 tables a full walk blocked the event loop for long enough to put the slowest
moves of a load test at several hundred milliseconds (``benchmarks/load.py``, docs/hosting.md).
Freezing what start-up made (imports, loaded tables) moves it out of every later walk, and a larger
young threshold walks less often; reference counting still frees everything without cycles at once.
"""

from __future__ import annotations

import gc

#: Net allocations between collections of the young generation (CPython's default is 700).
YOUNG_THRESHOLD = 50_000


def tune_garbage_collector(young: int = YOUNG_THRESHOLD) -> tuple[int, int, int]:
    """Collect once, freeze the survivors and raise the young threshold; returns the thresholds now set."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(young, middle, old)
    return gc.get_threshold()
