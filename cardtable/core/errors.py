"""The errors the engine raises at its edge; their messages describe bad input with `core.describe`."""

from __future__ import annotations

import dataclasses
from typing import Any

from cardtable.core.checks import problem_of
from cardtable.core.describe import EXCERPT, short_repr


class IllegalAction(ValueError):
    """An action that the rules do not allow now; the state it was tried on is unchanged."""

    def __init__(self, action: object, reason: str, *, step: int | None = None) -> None:
        where = "" if step is None else f"record action {step}: "
        super().__init__(f"{where}illegal action {action_text(action)}: {reason}")
        self.action = action
        self.reason = reason
        #: The action's index in the record being replayed (``Game.replay``), or None.
        self.step = step


class InvalidOptions(ValueError):
    """Game options that do not fit the game (unknown key, wrong type, value out of range)."""


class DecodeError(ValueError):
    """JSON or text that does not describe a valid action, event or observation."""


def action_text(action: object) -> str:
    """The action's text form (``play Y7``) if it is well formed, else a short description; never raises."""
    try:
        if dataclasses.is_dataclass(action) and problem_of(action) is None:
            written: Any = action
            text = str(written.text())
            return text if len(text) <= EXCERPT else text[: EXCERPT - 1] + "…"
    except Exception:  # a broken text() must not hide the reason the action was refused
        pass
    return short_repr(action)


