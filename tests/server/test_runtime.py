"""The serving process's garbage-collector settings (``cardtable serve`` calls them once at start)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from cardtable.server.runtime import YOUNG_THRESHOLD, tune_garbage_collector


@pytest.fixture()
def restored_gc() -> Iterator[None]:
    """Put the collector back as it was (this test process is not a server)."""
    before = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*before)


@pytest.mark.usefixtures("restored_gc")
def test_tuning_freezes_what_start_up_made_and_walks_the_young_less_often() -> None:
    gc.unfreeze()
    kept = [object() for _ in range(10)]
    middle, old = gc.get_threshold()[1:]
    assert tune_garbage_collector() == (YOUNG_THRESHOLD, middle, old)
    assert gc.get_freeze_count() >= len(kept)
    assert tune_garbage_collector(5_000)[0] == 5_000


@pytest.mark.usefixtures("restored_gc")
def test_cycles_made_after_start_up_are_still_collected() -> None:
    tune_garbage_collector()

    class Node:
        other: object = None

    first, second = Node(), Node()
    first.other, second.other = second, first
    del first, second
    assert gc.collect() >= 2
