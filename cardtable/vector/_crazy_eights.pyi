# Types of the compiled Crazy Eights core (cardtable/vector/_crazy_eights.pyx).
from typing import Any

from cardtable.vector._core import WIDE as WIDE
from cardtable.vector._core import Core as Core
from cardtable.vector._core import cpu_runs_wide as cpu_runs_wide

END_NAMES: tuple[str | None, ...]
POLICIES: tuple[str, ...]
SUPPORTED: dict[str, tuple[Any, ...]]
