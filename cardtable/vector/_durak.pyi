# Types of the compiled Durak core (cardtable/vector/_durak.pyx).
from typing import Any

from cardtable.vector._core import Core as Core

MAX_BOUT_LIMIT: int
POLICIES: tuple[str, ...]
SUPPORTED: dict[str, tuple[Any, ...] | range]
