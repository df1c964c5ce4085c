"""The errors the engine raises at its edge, and short, safe descriptions of bad input for their messages."""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any

#: The longest excerpt of a value an error message quotes: a message never echoes a whole bad input.
EXCERPT = 60


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
    from cardtable.core.checks import problem_of  # checks imports this module

    try:
        if dataclasses.is_dataclass(action) and problem_of(action) is None:
            written: Any = action
            text = str(written.text())
            return text if len(text) <= EXCERPT else text[: EXCERPT - 1] + "…"
    except Exception:  # a broken text() must not hide the reason the action was refused
        pass
    return short_repr(action)


def describe_value(value: object) -> str:
    """A value for an error message: ``60``, ``a bool (True)``, ``a float (6.0)``, ``a string ('x')``."""
    kind = type(value)
    if kind is int or value is None:
        return short_repr(value)
    names = {bool: "a bool", float: "a float", str: "a string", list: "a list", tuple: "a tuple", dict: "a dict"}
    return f"{names.get(kind, 'a ' + kind.__name__)} ({short_repr(value)})"


def short_repr(value: object, most: int = EXCERPT) -> str:
    """``repr(value)`` cut to about ``most`` characters, cheap even for huge values; never raises."""
    text = _repr(value, most)
    return text if len(text) <= most else text[: most - 1] + "…"


def _repr(value: Any, most: int) -> str:
    try:
        if type(value) is int and value.bit_length() > 4 * most:
            return f"<an int of {value.bit_length()} bits>"
        if type(value) in (tuple, list, frozenset, set):
            items = list(itertools.islice(value, 8)) if type(value) in (tuple, list) else []
            inner = ", ".join(_repr(v, most) for v in items)
            more = ", …" if len(value) > len(items) else ""
            return f"{type(value).__name__}[{len(value)}]({inner}{more})"
        if type(value) is str:
            return repr(value[: most + 1])
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            inner = ", ".join(f"{f.name}={_repr(getattr(value, f.name), most)}" for f in dataclasses.fields(value))
            return f"{type(value).__name__}({inner})"
        return repr(value)[: most + 1]
    except Exception:  # a repr that fails still gets described
        return f"<{type(value).__name__}>"
