"""JSON codec for actions, events and observations.

Every encoded dataclass is a JSON object whose ``"type"`` key is the class's
``TYPE``; the other keys are its fields, in declaration order. Tuples and
frozensets become lists, enums their ``name``, mapping keys strings. Decoding is
checked against the field annotations, so malformed input raises
:class:`DecodeError` with a message and the path of the bad value, never a
``TypeError`` from deep inside.

Speed (see ``docs/performance.md``): nothing here reflects on a value at encode
time. The first time a dataclass is encoded, an encoder function is generated
from its field annotations (``{"type": ..., "seat": v.seat, "hand": list(v.hand),
"trick": [to_json(x) for x in v.trick], ...}``) and cached by class; ``dumps``
hands the result to ``msgspec``'s JSON encoder. Decoding parses text with
``msgspec`` and checks the data with a validator generated once per annotation.

The JSON text is byte for byte what ``json.dumps(to_json(v), ensure_ascii=False,
separators=(",", ":"))`` writes (the golden JSON files prove it). ``msgspec``
writes floats differently only in exponent form (``1e16`` against ``1e+16``) and
for NaN and infinities; values whose annotations admit a float go through a check
and, where needed, through the standard library's encoder.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import math
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any, TypeVar

import msgspec

from cardtable.core.checks import MAX_CHARS, MAX_ITEMS, MaxChars, MaxItems, Within, is_valid_unicode
from cardtable.core.describe import describe_value, short_repr
from cardtable.core.errors import DecodeError

T = TypeVar("T")
JSON = Any
Encoder = Callable[[Any], JSON]
Decoder = Callable[[JSON], Any]

# Encoding.

_ENCODERS: dict[type[Any], Encoder] = {}
_MSGSPEC_ENCODE = msgspec.json.Encoder().encode
_SCALAR_TYPES = (int, str, bool, float, type(None))


def to_json(value: object) -> JSON:
    """Encode a dataclass (or a value inside one) into JSON-ready Python data."""
    encoder = _ENCODERS.get(type(value))
    if encoder is None:
        encoder = _encoder_for(type(value))
    return encoder(value)


def dumps(value: object) -> str:
    """Compact, deterministic JSON text for ``value`` (keys in field order)."""
    data = to_json(value)
    if _float_free_value(value) or _floats_agree(data):
        try:
            return _MSGSPEC_ENCODE(data).decode()
        except (TypeError, ValueError, OverflowError):
            pass  # a lone surrogate, say: the standard library writes what it always wrote
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _identity(value: Any) -> Any:
    return value


def _encode_sequence(value: Any) -> JSON:
    return [to_json(v) for v in value]


def _encode_mapping(value: Any) -> JSON:
    return {str(k): to_json(v) for k, v in value.items()}


def _encode_enum(value: Any) -> JSON:
    return value.name


def _encoder_for(cls: type[Any]) -> Encoder:
    """The encoder of one runtime class (the same order of tests as a reflective encoder would make)."""
    encoder: Encoder
    if dataclasses.is_dataclass(cls):
        encoder = _dataclass_encoder(cls)
    elif issubclass(cls, enum.Enum):
        encoder = _encode_enum
    elif issubclass(cls, (tuple, list, frozenset)):
        encoder = _encode_sequence
    elif issubclass(cls, Mapping):
        encoder = _encode_mapping
    else:
        encoder = _identity
    _ENCODERS[cls] = encoder
    return encoder


def _field_hints(cls: type[Any]) -> dict[str, Any]:
    """The field annotations of ``cls`` (empty if they cannot be resolved: the encoder then reflects)."""
    try:
        return typing.get_type_hints(cls)
    except (NameError, TypeError):
        return {}


def _is_scalar_hint(hint: Any) -> bool:
    """Whether values of this annotation are JSON scalars that encode as themselves."""
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return all(isinstance(a, _SCALAR_TYPES) and not isinstance(a, enum.Enum) for a in typing.get_args(hint))
    if origin in (typing.Union, types.UnionType):
        return all(_is_scalar_hint(a) for a in typing.get_args(hint))
    return hint in _SCALAR_TYPES


def _field_expression(hint: Any, value: str) -> str:
    """Python source that encodes ``value`` (an expression) annotated ``hint``."""
    if hint is not None and _is_scalar_hint(hint):
        return value
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    homogeneous = origin is frozenset or (origin is tuple and len(args) == 2 and args[1] is Ellipsis)
    if homogeneous and _is_scalar_hint(args[0]):
        return f"list({value})"
    if homogeneous:
        return f"[to_json(x) for x in {value}]"
    return f"to_json({value})"


def _dataclass_encoder(cls: type[Any]) -> Encoder:
    """Generate ``def encode(v): return {"type": ..., "field": <expression>, ...}`` for one dataclass."""
    hints = _field_hints(cls)
    names = [f.name for f in dataclasses.fields(cls) if f.init]
    items = ['"type": TYPE'] + [f"{name!r}: {_field_expression(hints.get(name), 'v.' + name)}" for name in names]
    source = "def encode(v):\n    return {" + ", ".join(items) + "}\n"
    namespace: dict[str, Any] = {"TYPE": cls.TYPE, "to_json": to_json}
    exec(source, namespace)  # generated from the class's own field names and annotations only
    encoder: Encoder = namespace["encode"]
    return encoder


# Which values msgspec writes exactly as the standard library does: all but some floats.


def _floats_agree(data: JSON) -> bool:
    """Whether every float in ``data`` is written the same by msgspec and by ``json`` (no exponent, finite)."""
    kind = type(data)
    if kind is float:
        return math.isfinite(data) and "e" not in repr(data)
    if kind is list:
        return all(_floats_agree(v) for v in data)
    if kind is dict:
        return all(_floats_agree(v) for v in data.values())
    return True


_FLOAT_FREE: dict[type[Any], bool] = {}


def _float_free_value(value: object) -> bool:
    """Whether ``value``'s annotations rule out floats everywhere inside it (checked per class, once)."""
    kind = type(value)
    known = _FLOAT_FREE.get(kind)
    if known is None:
        known = _FLOAT_FREE[kind] = dataclasses.is_dataclass(kind) and _float_free_class(kind)
    if known or not (kind is list or kind is tuple):
        return known
    items: Any = value
    return all(_float_free_value(v) for v in items)


@cache
def _float_free_class(cls: type[Any], seen: tuple[type[Any], ...] = ()) -> bool:
    hints = _field_hints(cls)
    names = [f.name for f in dataclasses.fields(cls) if f.init]
    return bool(hints) and all(_float_free_hint(hints.get(name), (*seen, cls)) for name in names)


def _float_free_hint(hint: Any, seen: tuple[type[Any], ...]) -> bool:
    if hint in (int, str, bool, type(None)):
        return True
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return not any(isinstance(a, float) for a in typing.get_args(hint))
    if origin in (typing.Union, types.UnionType, tuple, frozenset):
        return all(a is Ellipsis or _float_free_hint(a, seen) for a in typing.get_args(hint))
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return True
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return hint in seen or _float_free_class(hint, seen)
    return False


# Decoding.


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
            known = ", ".join(sorted(self.classes))
            raise DecodeError(f"unknown type {_excerpt(name)} (known: {known})")
        return _decode_dataclass(cls, data, name)

    def loads(self, text: str | bytes) -> Any:
        """Decode JSON text."""
        return self.decode(parse_json(text))


def parse_json(text: str | bytes) -> JSON:
    """Python data from JSON text (strict: no NaN, no lone surrogates); :class:`DecodeError` if invalid.

    Bytes that are not UTF-8, a nesting too deep, trailing garbage: all a one-line ``DecodeError``,
    so a socket or an HTTP body can be parsed here without a traceback.
    """
    try:
        return msgspec.json.decode(text)
    except (msgspec.DecodeError, RecursionError, TypeError, ValueError) as exc:
        raise DecodeError(f"not valid JSON: {exc}") from None


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


def _decode_dataclass(cls: type[T], data: dict[str, JSON], where: str) -> T:
    try:
        decoder: Decoder = _dataclass_decoder(cls)  # type: ignore[arg-type]
        return decoder(data)  # type: ignore[no-any-return]
    except _Mismatch as exc:
        raise DecodeError(f"{where}{''.join(exc.path)}: {exc.reason}") from None


@cache
def _dataclass_decoder(cls: type[Any]) -> Decoder:
    """A decoder for one dataclass, built once from its annotations."""
    hints = typing.get_type_hints(cls, include_extras=True)
    fields = [(f.name, _decoder(hints[f.name]),
               f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
              for f in dataclasses.fields(cls) if f.init]
    known = {name for name, _, _ in fields} | {"type"}

    def decode(data: JSON) -> Any:
        if type(data) is not dict and not isinstance(data, dict):
            raise _Mismatch(f"expected an object, got {_kind(data)}")
        if not data.keys() <= known:
            extra = ", ".join(_excerpt(k) for k in sorted(map(str, data.keys() - known))[:5])
            raise _Mismatch(f"unknown field(s) {extra}")
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
    meta: tuple[Any, ...] = ()
    if typing.get_origin(hint) is typing.Annotated:
        hint, *rest = typing.get_args(hint)
        meta = tuple(rest)
    within = next((m for m in meta if isinstance(m, Within)), None)
    most = next((m.most for m in meta if isinstance(m, (MaxItems, MaxChars))), None)
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is Any:
        return _identity
    if hint is int and within is not None:
        return _bounded_int_decoder(within)
    if hint is str:
        return _str_decoder(most or MAX_CHARS)
    if origin in (typing.Union, types.UnionType):
        return _union_decoder(hint, args)
    if origin is typing.Literal:
        return _literal_decoder(args)
    if hint is type(None):
        return _none_decoder
    if origin is tuple and (len(args) != 2 or args[1] is not Ellipsis):
        return _fixed_tuple_decoder(tuple(_decoder(a) for a in args))
    if origin in (tuple, frozenset):
        return _sequence_decoder(_decoder(args[0]), tuple if origin is tuple else frozenset, most or MAX_ITEMS)
    if origin in (dict, Mapping):
        return _mapping_decoder(_decoder(args[1]))
    if isinstance(hint, type):
        return _simple_decoder(hint)
    raise TypeError(f"cannot decode a value of type {hint}")


def _bounded_int_decoder(within: Within) -> Decoder:
    def decode(value: JSON) -> Any:
        if type(value) is int and within.low <= value < within.high:
            return value
        raise _Mismatch(f"expected {within.describe()}, got {describe_value(value)}")

    return decode


def _str_decoder(most: int) -> Decoder:
    def decode(value: JSON) -> Any:
        if type(value) is not str:
            raise _Mismatch(f"expected str, got {_kind(value)}")
        if len(value) > most:
            raise _Mismatch(f"a string of at most {most} characters expected, got {len(value)}")
        if not is_valid_unicode(value):
            raise _Mismatch("a string holds a lone surrogate (not valid Unicode)")
        return value

    return decode


def _none_decoder(value: JSON) -> None:
    if value is not None:
        raise _Mismatch(f"expected null, got {_kind(value)}")


def _union_decoder(hint: Any, args: tuple[Any, ...]) -> Decoder:
    others = tuple(a for a in args if a is not type(None))
    if len(others) == 1 and len(args) == 2:
        # X | None, the common case: no exception raised and caught for a null.
        inner = _decoder(others[0])

        def decode_optional(value: JSON) -> Any:
            return None if value is None else inner(value)

        return decode_optional
    options = tuple(_decoder(a) for a in args)

    def decode(value: JSON) -> Any:
        for option in options:
            try:
                return option(value)
            except _Mismatch:
                continue
        raise _Mismatch(f"{_excerpt(value)} fits none of {hint}")

    return decode


def _literal_decoder(choices: tuple[Any, ...]) -> Decoder:
    allowed = {(type(c), c) for c in choices}

    def decode(value: JSON) -> Any:
        try:
            if (type(value), value) in allowed:
                return value
        except TypeError:  # unhashable: a list or an object
            pass
        raise _Mismatch(f"{_excerpt(value)} is not one of {choices}")

    return decode


def _sequence_decoder(item: Decoder, kind: type[Any], most: int) -> Decoder:
    def decode(value: JSON) -> Any:
        if not isinstance(value, list):
            raise _Mismatch(f"expected a list, got {_kind(value)}")
        if len(value) > most:
            raise _Mismatch(f"expected at most {most} items, got {len(value)}")
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


def _decode_int(value: JSON) -> Any:
    if type(value) is int or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise _Mismatch(f"expected int, got {_kind(value)}")


def _decode_bool(value: JSON) -> Any:
    if isinstance(value, bool):
        return value
    raise _Mismatch(f"expected bool, got {_kind(value)}")


def _decode_float(value: JSON) -> Any:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    raise _Mismatch(f"expected float, got {_kind(value)}")


_SCALARS: dict[type[Any], Decoder] = {int: _decode_int, bool: _decode_bool, float: _decode_float}


def _simple_decoder(hint: type[Any]) -> Decoder:
    if dataclasses.is_dataclass(hint):
        return _dataclass_decoder(hint)
    if issubclass(hint, enum.Enum):
        members = hint.__members__

        def decode_enum(value: JSON) -> Any:
            if isinstance(value, str) and value in members:
                return members[value]
            raise _Mismatch(f"{_excerpt(value)} is not one of {', '.join(members)}")

        return decode_enum
    if hint not in _SCALARS:
        raise TypeError(f"cannot decode a value of type {hint}")
    return _SCALARS[hint]


def _kind(value: JSON) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
            int: "a number", float: "a number", type(None): "null"}.get(type(value), type(value).__name__)


def _excerpt(value: JSON, most: int = 40) -> str:
    """``repr(value)`` cut to ``most`` characters: an error message never echoes a whole bad input."""
    return short_repr(value, most)
