# Types of the compiled Mus core (cardtable/vector/_mus.pyx).
from typing import Any

from cardtable.vector._core import WIDE as WIDE
from cardtable.vector._core import Core as Core
from cardtable.vector._core import cpu_runs_wide as cpu_runs_wide

PHASE_NAMES: tuple[str, ...]
LANCE_NAMES: tuple[str, ...]
STATUS_NAMES: tuple[str, ...]
KIND_NAMES: tuple[str, ...]
RESULT_NAMES: tuple[str, ...]
REASONS: tuple[str, ...]
SIGNAL_NAMES: tuple[str, ...]
POLICIES: tuple[str, ...]
SUPPORTED: dict[str, tuple[Any, ...] | range | type]

def unsupported(options: Any) -> list[str]: ...
def describe_id(state: dict[str, Any], action_id: int, options: Any) -> str: ...
