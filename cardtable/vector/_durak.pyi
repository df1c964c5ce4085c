# Types of the compiled Durak core (cardtable/vector/_durak.pyx).
from typing import Any

from cardtable.vector._core import WIDE as WIDE
from cardtable.vector._core import Core as Core
from cardtable.vector._core import cpu_runs_wide as cpu_runs_wide

MAX_BOUT_LIMIT: int
POLICIES: tuple[str, ...]
SUPPORTED: dict[str, tuple[Any, ...] | range]
