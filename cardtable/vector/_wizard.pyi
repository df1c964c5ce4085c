# Types of the compiled Wizard core (cardtable/vector/_wizard.pyx).
from typing import Any

from cardtable.vector._core import Core as Core

PHASE_NAMES: tuple[str, ...]
POLICIES: tuple[str, ...]
SUPPORTED: dict[str, tuple[Any, ...]]
