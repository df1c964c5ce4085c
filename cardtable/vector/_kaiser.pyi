# Types of the compiled Kaiser core (cardtable/vector/_kaiser.pyx).
from typing import Any

from cardtable.vector._core import Core as Core

POLICIES: tuple[str, ...]
SUPPORTED: dict[str, tuple[Any, ...]]
