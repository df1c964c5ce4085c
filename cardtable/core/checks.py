"""Exact types and ranges of action fields, declared once in the annotations and checked at the edge.

An action class says what each field may hold with its annotation; ranges and bounds ride on
``typing.Annotated``::

    WizardCard = Annotated[int, Within(0, 60, "a Wizard card id")]

    @dataclass(frozen=True, slots=True)
    class Play:
        TYPE: ClassVar[str] = "play"
        card: WizardCard

Two places read these declarations: the JSON codec (a value that does not fit raises
``DecodeError`` naming its path) and :func:`problem_of`, which ``Game.why_illegal`` asks before
any rule, so ``apply``, ``is_legal`` and ``why_illegal`` refuse ``Play(6.0)``, ``Bid(True)``,
``Play(-1)`` or a discard of a million cards with a message that names the field and the
problem. The checks are exact: an ``int`` field holds an ``int`` (not a ``bool``, not a
``float``), a ``str`` is valid Unicode (no lone surrogates), every tuple and string is bounded
(:data:`MAX_ITEMS`, :data:`MAX_CHARS` unless the annotation says less), literals and enums
match exactly. Each class's checker is built once from its annotations.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from cardtable.core.describe import describe_value

#: The most items a tuple may hold unless its annotation says less (``MaxItems``).
MAX_ITEMS = 1000
#: The most characters a string may hold unless its annotation says less (``MaxChars``).
MAX_CHARS = 1000

Check = Callable[[Any], "str | None"]
"""A check of one value: ``None`` if it fits, else the problem ("must be …, not …"), path first."""


@dataclass(frozen=True, slots=True)
class Within:
    """An ``int`` field's range, ``low <= value < high``, and what its values are ("a Wizard card id")."""

    low: int
    high: int
    what: str = "a number"

    def describe(self) -> str:
        """"a Wizard card id 0–59"."""
        return f"{self.what} {self.low}–{self.high - 1}"


@dataclass(frozen=True, slots=True)
class MaxItems:
    """The most items a tuple field may hold."""

    most: int


@dataclass(frozen=True, slots=True)
class MaxChars:
    """The most characters a string field may hold."""

    most: int


def problem_of(value: object) -> str | None:
    """What is wrong with a dataclass instance's fields, or ``None`` if each fits its annotation exactly."""
    kind = type(value)
    check = _INSTANCE_CHECKS.get(kind)
    if check is None:
        check = _INSTANCE_CHECKS[kind] = _instance_check(kind)
    return check(value)


def is_valid_unicode(text: str) -> bool:
    """Whether ``text`` can be written as UTF-8 (it holds no lone surrogate)."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


# Building the checks.

_INSTANCE_CHECKS: dict[type[Any], Check] = {}


def _instance_check(cls: type[Any]) -> Check:
    """The check of every field of one dataclass, built once from its annotations."""
    if not dataclasses.is_dataclass(cls):
        return lambda value: f"must be a dataclass, not {describe_value(value)}"
    hints = typing.get_type_hints(cls, include_extras=True)
    fields = [(f.name, _check(hints[f.name])) for f in dataclasses.fields(cls) if f.init]

    def check(value: Any) -> str | None:
        for name, field_check in fields:
            problem = field_check(getattr(value, name))
            if problem is not None:
                return name + problem
        return None

    return check


@cache
def _check(hint: Any) -> Check:
    """The check of one annotation."""
    if typing.get_origin(hint) is typing.Annotated:
        base, *meta = typing.get_args(hint)
        return _annotated_check(base, tuple(meta))
    return _annotated_check(hint, ())


def _annotated_check(hint: Any, meta: tuple[Any, ...]) -> Check:
    within = next((m for m in meta if isinstance(m, Within)), None)
    most = next((m.most for m in meta if isinstance(m, (MaxItems, MaxChars))), None)
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is int:
        return _int_check(within)
    if hint is str:
        return _str_check(most or MAX_CHARS)
    if hint is bool:
        return _exact_type_check(bool, "a bool")
    if hint is float:
        return _float_check
    if hint is type(None):
        return _exact_type_check(type(None), "null")
    if hint is Any or hint is object:
        return lambda value: None
    if origin is typing.Literal:
        return _literal_check(args)
    if origin in (typing.Union, types.UnionType):
        return _union_check(hint, tuple(_check(a) for a in args))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return _tuple_check(_check(args[0]), most or MAX_ITEMS)
    if origin is tuple:
        return _fixed_tuple_check(tuple(_check(a) for a in args))
    if origin is frozenset:
        return _frozenset_check(_check(args[0]), most or MAX_ITEMS)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return _exact_type_check(hint, f"a {hint.__name__}")
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _nested_check(hint)
    raise TypeError(f"cannot check a value of type {hint}")


def _int_check(within: Within | None) -> Check:
    expected = within.describe() if within is not None else "an int"

    def check(value: Any) -> str | None:
        if type(value) is not int:
            return f" must be {expected}, not {describe_value(value)}"
        if within is not None and not within.low <= value < within.high:
            return f" must be {expected}, not {describe_value(value)}"
        return None

    return check


def _str_check(most: int) -> Check:
    def check(value: Any) -> str | None:
        if type(value) is not str:
            return f" must be a string, not {describe_value(value)}"
        if len(value) > most:
            return f" must be at most {most} characters, not {len(value)}"
        if not is_valid_unicode(value):
            return " must be valid Unicode (it holds a lone surrogate)"
        return None

    return check


def _float_check(value: Any) -> str | None:
    if type(value) is float or type(value) is int:
        return None
    return f" must be a number, not {describe_value(value)}"


def _exact_type_check(kind: type[Any], expected: str) -> Check:
    def check(value: Any) -> str | None:
        return None if type(value) is kind else f" must be {expected}, not {describe_value(value)}"

    return check


def _literal_check(choices: tuple[Any, ...]) -> Check:
    allowed = {(type(c), c) for c in choices}
    listed = ", ".join(repr(c) for c in choices)

    def check(value: Any) -> str | None:
        try:
            if (type(value), value) in allowed:
                return None
        except TypeError:  # unhashable
            pass
        return f" must be one of {listed}, not {describe_value(value)}"

    return check


def _union_check(hint: Any, options: tuple[Check, ...]) -> Check:
    others = [a for a in typing.get_args(hint) if a is not type(None)]
    only = _check(others[0]) if len(others) == 1 else None  # X | None: a non-null value must fit X

    def check(value: Any) -> str | None:
        if any(option(value) is None for option in options):
            return None
        if only is not None:
            return only(value)
        return f" must fit {hint}, not {describe_value(value)}"

    return check


def _tuple_check(item: Check, most: int) -> Check:
    def check(value: Any) -> str | None:
        if type(value) is not tuple:
            return f" must be a tuple, not {describe_value(value)}"
        if len(value) > most:
            return f" must hold at most {most} items, not {len(value)}"
        for i, v in enumerate(value):
            problem = item(v)
            if problem is not None:
                return f"[{i}]{problem}"
        return None

    return check


def _fixed_tuple_check(items: tuple[Check, ...]) -> Check:
    def check(value: Any) -> str | None:
        if type(value) is not tuple or len(value) != len(items):
            return f" must be a tuple of {len(items)} items, not {describe_value(value)}"
        for i, (item, v) in enumerate(zip(items, value)):
            problem = item(v)
            if problem is not None:
                return f"[{i}]{problem}"
        return None

    return check


def _frozenset_check(item: Check, most: int) -> Check:
    def check(value: Any) -> str | None:
        if type(value) is not frozenset:
            return f" must be a frozenset, not {describe_value(value)}"
        if len(value) > most:
            return f" must hold at most {most} items, not {len(value)}"
        for v in value:
            problem = item(v)
            if problem is not None:
                return f" item{problem}"
        return None

    return check


def _nested_check(cls: type[Any]) -> Check:
    def check(value: Any) -> str | None:
        if type(value) is not cls:
            return f" must be a {cls.__name__}, not {describe_value(value)}"
        problem = problem_of(value)
        return None if problem is None else "." + problem

    return check
