"""A compiled decoder for a game's record JSON: the whole record in one ``msgspec`` pass, actions as cached objects.

``GameRecord.from_json`` checks parsed JSON field by field in Python and builds a new action object
per action. This decoder is the fast path in front of it: from a game's action annotations it
generates ``msgspec`` structs (one tagged struct per action class: ``"type"`` is the tag, every field
checked exactly as the codec checks it, unknown fields refused) and a struct for the record, decodes
the text in one call, and turns each decoded action into the engine's own cached instance (the
ones registered in :class:`cardtable.core.fast.TrustedActions`) with one dict lookup.

It only ever says yes to what the slow path accepts, with the same result: anything it cannot
decode (a malformed record, a value out of range, a field type it does not compile) makes
:func:`load_record` fall back to ``GameRecord.from_json``, whose ``DecodeError`` is the answer.
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from dataclasses import MISSING, fields
from functools import cache
from typing import Any, Literal

import msgspec

from cardtable.core.checks import Within
from cardtable.core.fast import CACHED, cached_pair

Convert = Callable[[Any], Any]


class RecordDecoder:
    """Decodes one game's record text: ``(game, options, seed, [(seat, action), …], notes)``, or None."""

    def __init__(self, action_types: tuple[type[Any], ...]) -> None:
        structs = {cls: _struct_for(cls) for cls in action_types}
        #: Per generated struct: the function that turns a decoded struct into its action.
        self.convert: dict[type[Any], Convert] = {struct: _converter(cls) for cls, struct in structs.items()}
        union: Any = typing.Union[tuple(structs.values())]  # noqa: UP007 (a union built at run time)
        item = msgspec.defstruct("RecordItem", [("seat", int), ("action", union)], forbid_unknown_fields=True,
                                 frozen=True, gc=False)
        #: Decoded items seen before (hashable: frozen structs) and their shared ``(seat, action)`` pair.
        self.pairs: dict[Any, tuple[int, Any]] = {}
        record = msgspec.defstruct("Record", [
            ("game", str), ("options", dict[str, Any]), ("seed", int), ("actions", list[item]),  # type: ignore[valid-type]
            ("notes", list[str], []), ("format", int, 0), ("cardtable", Any, None),
        ], forbid_unknown_fields=True)
        self._decoder: msgspec.json.Decoder[Any] = msgspec.json.Decoder(record)

    def decode(self, text: str | bytes) -> tuple[str, dict[str, Any], int, tuple[tuple[int, Any], ...],
                                                 tuple[str, ...], int] | None:
        """``(game, options, seed, actions, notes, format)``, or None if the fast path cannot decode the text."""
        data = self.decode_items(text)
        if data is None:
            return None
        try:
            actions = tuple(map(self.pairs.__getitem__, data.actions))  # one lookup per action, all in C
        except KeyError:
            try:
                actions = tuple(map(self.pair_of, data.actions))
            except Undecodable:  # an action class's own checks refused the values: the slow path says why
                return None
        return data.game, data.options, data.seed, actions, tuple(data.notes), data.format

    def decode_items(self, text: str | bytes) -> Any:
        """The decoded record struct (``.game``, ``.options``, ``.seed``, ``.actions``, ``.notes``, ``.format``), its
        actions still decoded items (hashable structs, see :meth:`pair_of`); None if the fast path cannot decode it."""
        try:
            return self._decoder.decode(text)
        except (msgspec.DecodeError, RecursionError, TypeError, ValueError):
            return None

    def pair_of(self, item: Any) -> tuple[int, Any]:
        """The ``(seat, action)`` of a decoded item: shared (and remembered) for a cached action and a usual seat.

        Raises :class:`Undecodable` if the action class's own checks refuse the values.
        """
        pair = self.pairs.get(item)
        if pair is None:
            try:
                action = self.convert[type(item.action)](item.action)
            except (TypeError, ValueError):
                raise Undecodable(item) from None
            pair = cached_pair(item.seat, action)
            if pair is None:
                return (item.seat, action)
            if len(self.pairs) < 100_000:  # bounded: seats × cached actions of one game
                self.pairs[item] = pair
        return pair


class Undecodable(ValueError):
    """A decoded item whose action the action class refuses: the record goes the slow way, which says why."""


@cache
def decoder_for(action_types: tuple[type[Any], ...]) -> RecordDecoder | None:
    """The compiled decoder of a game's records, or None if one of its action fields has a type it does not compile."""
    try:
        return RecordDecoder(action_types)
    except _Unsupported:
        return None


class _Unsupported(TypeError):
    """An annotation the fast decoder does not compile (the slow path handles the game)."""


def _struct_for(cls: type[Any]) -> type[msgspec.Struct]:
    """A tagged msgspec struct accepting exactly the JSON objects the codec accepts for ``cls``."""
    hints = typing.get_type_hints(cls, include_extras=True)
    spec: list[Any] = []
    for f in fields(cls):
        if not f.init or f.default_factory is not MISSING:
            raise _Unsupported(f"{cls.__name__}.{f.name}")
        kind = _msgspec_type(hints[f.name])
        spec.append((f.name, kind) if f.default is MISSING else (f.name, kind, f.default))
    return msgspec.defstruct(f"{cls.__name__}Json", spec, tag_field="type", tag=cls.TYPE,
                             forbid_unknown_fields=True, frozen=True, gc=False)


def _msgspec_type(hint: Any) -> Any:
    """The msgspec type that checks a field like the codec: ints (with a ``Within`` range), bools, literals."""
    meta: tuple[Any, ...] = ()
    if typing.get_origin(hint) is typing.Annotated:
        hint, *rest = typing.get_args(hint)
        meta = tuple(rest)
    within = [m for m in meta if isinstance(m, Within)]
    if hint is int and len(within) == 1 and len(meta) == 1:
        return typing.Annotated[int, msgspec.Meta(ge=within[0].low, lt=within[0].high)]
    if meta:
        raise _Unsupported(str(hint))
    if hint is int or hint is bool:
        return hint
    if typing.get_origin(hint) is Literal and all(type(v) is str for v in typing.get_args(hint)):
        return hint
    raise _Unsupported(str(hint))


def _converter(cls: type[Any]) -> Convert:
    """Struct → the cached action with those values, else a new ``cls`` (values already checked).

    Generated per class, like ``core.fast.constructor``: ``get((cls, x.card)) or cls(x.card)``.
    """
    values = "".join(f"x.{f.name}, " for f in fields(cls))
    source = (f"def convert(x):\n    action = get((cls, {values}))\n"
              f"    return action if action is not None else cls({values})\n")
    namespace: dict[str, Any] = {"get": CACHED.get, "cls": cls}
    exec(source, namespace)  # generated from the class's own field names only
    convert: Convert = namespace["convert"]
    return convert
