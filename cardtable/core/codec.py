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
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any, TypeVar

from cardtable.core.errors import DecodeError

T = TypeVar("T")
JSON = Any


def to_json(value: object) -> JSON:
    """Encode a dataclass (or a value inside one) into JSON-ready Python data."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, JSON] = {"type": type(value).TYPE}  # type: ignore[attr-defined]
        for name in _field_names(type(value)):
            out[name] = to_json(getattr(value, name))
        return out
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, (tuple, list, frozenset)):
        return [to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    return value


@cache
def _field_names(cls: type[Any]) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls) if f.init)


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


class _Mismatch(Exception):
    """A value that does not fit its annotation; ``path`` grows as the error rises."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.path: list[str] = []

    def at(self, part: str) -> _Mismatch:
        self.path.insert(0, part)
        return self


Decoder = Callable[[JSON], Any]


def _decode_dataclass(cls: type[T], data: dict[str, JSON], where: str) -> T:
    try:
        return _dataclass_decoder(cls)(data)  # type: ignore[no-any-return, arg-type]
    except _Mismatch as exc:
        raise DecodeError(f"{where}{''.join(exc.path)}: {exc.reason}") from None


@cache
def _dataclass_decoder(cls: type[Any]) -> Decoder:
    """A decoder for one dataclass, built once from its annotations."""
    hints = typing.get_type_hints(cls)
    fields = [(f.name, _decoder(hints[f.name]),
               f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
              for f in dataclasses.fields(cls) if f.init]
    known = {name for name, _, _ in fields} | {"type"}

    def decode(data: JSON) -> Any:
        if not isinstance(data, dict):
            raise _Mismatch(f"expected an object, got {_kind(data)}")
        extra = data.keys() - known
        if extra:
            raise _Mismatch(f"unknown field(s) {', '.join(sorted(extra))}")
        kwargs: dict[str, Any] = {}
        for name, field_decoder, required in fields:
            if name not in data:
                if required:
                    raise _Mismatch(f"missing field {name!r}")
                continue
            try:
                kwargs[name] = field_decoder(data[name])
            except _Mismatch as exc:
                raise exc.at(f".{name}") from None
        try:
            return cls(**kwargs)
        except (TypeError, ValueError) as exc:
            raise _Mismatch(str(exc)) from None

    return decode


@cache
def _decoder(hint: Any) -> Decoder:
    """A decoder for one annotation, built once and reused for every value."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is Any:
        return lambda value: value
    if origin in (typing.Union, types.UnionType):
        return _union_decoder(hint, tuple(_decoder(a) for a in args))
    if origin is typing.Literal:
        return _literal_decoder(args)
    if hint is type(None):
        return _exact(lambda v: v is None, "expected null")
    if origin is tuple and (len(args) != 2 or args[1] is not Ellipsis):
        return _fixed_tuple_decoder(tuple(_decoder(a) for a in args))
    if origin in (tuple, frozenset):
        return _sequence_decoder(_decoder(args[0]), tuple if origin is tuple else frozenset)
    if origin in (dict, Mapping):
        return _mapping_decoder(_decoder(args[1]))
    if isinstance(hint, type):
        return _simple_decoder(hint)
    raise TypeError(f"cannot decode a value of type {hint}")


def _union_decoder(hint: Any, options: tuple[Decoder, ...]) -> Decoder:
    def decode(value: JSON) -> Any:
        for option in options:
            try:
                return option(value)
            except _Mismatch:
                continue
        raise _Mismatch(f"{value!r} fits none of {hint}")

    return decode


def _literal_decoder(choices: tuple[Any, ...]) -> Decoder:
    allowed = {(type(c), c) for c in choices}

    def decode(value: JSON) -> Any:
        if (type(value), value) in allowed:
            return value
        raise _Mismatch(f"{value!r} is not one of {choices}")

    return decode


def _exact(test: Callable[[JSON], bool], reason: str) -> Decoder:
    def decode(value: JSON) -> Any:
        if test(value):
            return value
        raise _Mismatch(reason)

    return decode


def _sequence_decoder(item: Decoder, kind: type[Any]) -> Decoder:
    def decode(value: JSON) -> Any:
        if not isinstance(value, list):
            raise _Mismatch(f"expected a list, got {_kind(value)}")
        out = []
        for i, v in enumerate(value):
            try:
                out.append(item(v))
            except _Mismatch as exc:
                raise exc.at(f"[{i}]") from None
        return kind(out)

    return decode


def _fixed_tuple_decoder(items: tuple[Decoder, ...]) -> Decoder:
    def decode(value: JSON) -> Any:
        if not isinstance(value, list):
            raise _Mismatch(f"expected a list, got {_kind(value)}")
        if len(value) != len(items):
            raise _Mismatch(f"expected {len(items)} items, got {len(value)}")
        out = []
        for i, (item, v) in enumerate(zip(items, value)):
            try:
                out.append(item(v))
            except _Mismatch as exc:
                raise exc.at(f"[{i}]") from None
        return tuple(out)

    return decode


def _mapping_decoder(item: Decoder) -> Decoder:
    def decode(value: JSON) -> Any:
        if not isinstance(value, dict):
            raise _Mismatch(f"expected an object, got {_kind(value)}")
        out = {}
        for k, v in value.items():
            try:
                out[k] = item(v)
            except _Mismatch as exc:
                raise exc.at(f".{k}") from None
        return out

    return decode


_SCALARS: dict[type[Any], Callable[[JSON], bool]] = {
    bool: lambda v: isinstance(v, bool),
    int: lambda v: isinstance(v, int) and not isinstance(v, bool),
    float: lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    str: lambda v: isinstance(v, str),
}


def _simple_decoder(hint: type[Any]) -> Decoder:
    if dataclasses.is_dataclass(hint):
        return _dataclass_decoder(hint)
    if issubclass(hint, enum.Enum):
        members = hint.__members__

        def decode_enum(value: JSON) -> Any:
            if isinstance(value, str) and value in members:
                return members[value]
            raise _Mismatch(f"{value!r} is not one of {', '.join(members)}")

        return decode_enum
    if hint not in _SCALARS:
        raise TypeError(f"cannot decode a value of type {hint}")
    test = _SCALARS[hint]
    convert = float if hint is float else None

    def decode(value: JSON) -> Any:
        if test(value):
            return convert(value) if convert else value
        raise _Mismatch(f"expected {hint.__name__}, got {_kind(value)}")

    return decode


def _kind(value: JSON) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
            int: "a number", float: "a number", type(None): "null"}.get(type(value), type(value).__name__)
