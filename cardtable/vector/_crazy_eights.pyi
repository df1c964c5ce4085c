# Types of the compiled Crazy Eights core (cardtable/vector/_crazy_eights.pyx).
from typing import Any

from cardtable.vector._core import Core as Core

END_NAMES: tuple[str | None, ...]
POLICIES: tuple[str, ...]
SUPPORTED: dict[str, tuple[Any, ...]]
