# Types of the compiled Kaiser core (cardtable/vector/_kaiser.pyx).
from typing import Any

from cardtable.vector._core import WIDE as WIDE
from cardtable.vector._core import Core as Core
from cardtable.vector._core import cpu_runs_wide as cpu_runs_wide

POLICIES: tuple[str, ...]
SUPPORTED: dict[str, tuple[Any, ...]]
