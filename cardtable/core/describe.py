"""Short, safe descriptions of any value for error messages: a message never echoes a whole bad input."""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any

#: The longest excerpt of a value an error message quotes.
EXCERPT = 60


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
