"""Shared by the compiled playouts' tests (``tests/*/test_compiled.py``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from types import ModuleType

import pytest

from cardtable.core.twister import CompiledPlayouts


def no_defect(fast: CompiledPlayouts, module: ModuleType) -> Callable[[], Iterator[None]]:
    """An autouse fixture: every test needs the compiled ``module`` built (``fast`` says so), and leaves it with
    no planted defect (``module.plant(0)``) whatever it planted."""

    @pytest.fixture(autouse=True)
    def _no_defect() -> Iterator[None]:
        assert fast.is_built(), "the compiled playouts are not built here: `make core` (a C compiler is needed)"
        yield
        module.plant(0)

    return _no_defect
