"""JSON codec for actions, events and observations.

Every encoded dataclass is a JSON object whose ``"type"`` key is the class's
``TYPE``; the other keys are its fields. Tuples become lists, enums their
``name``. Decoding is checked against the field annotations, so malformed input
raises :class:`DecodeError` with a message, never a ``TypeError`` from deep inside.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any, TypeVar

from cardtable.core.errors import DecodeError

T = TypeVar("T")
JSON = Any


def to_json(value: object) -> JSON:
    """Encode a dataclass (or a value inside one) into JSON-ready Python data."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, JSON] = {"type": type(value).TYPE}  # type: ignore[attr-defined]
        for f in _fields(type(value)):
            out[f.name] = to_json(getattr(value, f.name))
        return out
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, (tuple, list, frozenset)):
        return [to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    return value


def dumps(value: object) -> str:
    """Compact, deterministic JSON text for ``value`` (keys in field order)."""
    return json.dumps(to_json(value), ensure_ascii=False, separators=(",", ":"))


class Codec:
    """Decodes JSON for one family of dataclasses (a game's actions, say) by ``"type"``."""

    def __init__(self, classes: Iterable[type[Any]]) -> None:
        self.classes: dict[str, type[Any]] = {}
        for cls in classes:
            name = cls.TYPE
            if name in self.classes:
                raise ValueError(f"two classes share the JSON type {name!r}")
            self.classes[name] = cls

    def decode(self, data: JSON) -> Any:
        """The object that ``data`` encodes; :class:`DecodeError` if it is malformed."""
        if not isinstance(data, dict):
            raise DecodeError(f"expected a JSON object, got {_kind(data)}")
        name = data.get("type")
        if not isinstance(name, str):
            raise DecodeError('missing or non-string "type"')
        cls = self.classes.get(name)
        if cls is None:
            raise DecodeError(f"unknown type {name!r} (known: {', '.join(sorted(self.classes))})")
        return _decode_dataclass(cls, data, name)

    def loads(self, text: str | bytes) -> Any:
        """Decode JSON text."""
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise DecodeError(f"not valid JSON: {exc}") from None
        return self.decode(data)


def decode_as(cls: type[T], data: JSON) -> T:
    """Decode ``data`` as an instance of the dataclass ``cls`` (the ``"type"`` key is optional)."""
    if not isinstance(data, dict):
        raise DecodeError(f"expected a JSON object for {cls.__name__}, got {_kind(data)}")
    return _decode_dataclass(cls, data, cls.__name__)


@cache
def _fields(cls: type[Any]) -> tuple[dataclasses.Field[Any], ...]:
    return tuple(f for f in dataclasses.fields(cls) if f.init)


@cache
def _hints(cls: type[Any]) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _decode_dataclass(cls: type[T], data: dict[str, JSON], where: str) -> T:
    hints = _hints(cls)  # type: ignore[arg-type]
    fields = _fields(cls)  # type: ignore[arg-type]
    known = {f.name for f in fields} | {"type"}
    extra = set(data) - known
    if extra:
        raise DecodeError(f"{where}: unknown field(s) {', '.join(sorted(extra))}")
    kwargs: dict[str, Any] = {}
    for f in fields:
        if f.name not in data:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise DecodeError(f"{where}: missing field {f.name!r}")
            continue
        kwargs[f.name] = _decode_value(hints[f.name], data[f.name], f"{where}.{f.name}")
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise DecodeError(f"{where}: {exc}") from None


def _decode_value(hint: Any, value: JSON, where: str) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is Any:
        return value
    if origin in (typing.Union, types.UnionType):
        for option in args:
            try:
                return _decode_value(option, value, where)
            except DecodeError:
                continue
        raise DecodeError(f"{where}: {value!r} fits none of {hint}")
    if origin is typing.Literal:
        if value in args and type(value) in {type(a) for a in args}:
            return value
        raise DecodeError(f"{where}: {value!r} is not one of {args}")
    if hint is type(None):
        if value is None:
            return None
        raise DecodeError(f"{where}: expected null")
    if origin in (tuple, frozenset):
        if not isinstance(value, list):
            raise DecodeError(f"{where}: expected a list, got {_kind(value)}")
        if origin is tuple and (len(args) != 2 or args[1] is not Ellipsis):
            if len(value) != len(args):
                raise DecodeError(f"{where}: expected {len(args)} items, got {len(value)}")
            return tuple(_decode_value(a, v, f"{where}[{i}]") for i, (a, v) in enumerate(zip(args, value)))
        items = [_decode_value(args[0], v, f"{where}[{i}]") for i, v in enumerate(value)]
        return tuple(items) if origin is tuple else frozenset(items)
    if origin in (dict, Mapping):
        if not isinstance(value, dict):
            raise DecodeError(f"{where}: expected an object, got {_kind(value)}")
        return {k: _decode_value(args[1], v, f"{where}.{k}") for k, v in value.items()}
    if isinstance(hint, type):
        return _decode_simple(hint, value, where)
    raise DecodeError(f"{where}: cannot decode a value of type {hint}")


def _decode_simple(hint: type[Any], value: JSON, where: str) -> Any:
    if dataclasses.is_dataclass(hint):
        if not isinstance(value, dict):
            raise DecodeError(f"{where}: expected an object, got {_kind(value)}")
        return _decode_dataclass(hint, value, where)
    if issubclass(hint, enum.Enum):
        if isinstance(value, str) and value in hint.__members__:
            return hint[value]
        raise DecodeError(f"{where}: {value!r} is not one of {', '.join(hint.__members__)}")
    if hint is bool:
        if isinstance(value, bool):
            return value
    elif hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif hint is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    elif hint is str:
        if isinstance(value, str):
            return value
    raise DecodeError(f"{where}: expected {hint.__name__}, got {_kind(value)}")


def _kind(value: JSON) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
            int: "a number", float: "a number", type(None): "null"}.get(type(value), type(value).__name__)
