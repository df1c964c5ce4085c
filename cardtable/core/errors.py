"""The errors the engine raises at its edge."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action that the rules do not allow now; the state it was tried on is unchanged."""

    def __init__(self, action: object, reason: str) -> None:
        text = action.text() if hasattr(action, "text") else repr(action)
        super().__init__(f"illegal action {text}: {reason}")
        self.action = action
        self.reason = reason


class InvalidOptions(ValueError):
    """Game options that do not fit the game (unknown key, wrong type, value out of range)."""


class DecodeError(ValueError):
    """JSON or text that does not describe a valid action, event or observation."""
