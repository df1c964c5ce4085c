"""Game records: ``(game, options, seed, actions)``; replaying one reproduces every event."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardtable._version import __version__
from cardtable.core.codec import parse_json, to_json
from cardtable.core.describe import describe_value, short_repr
from cardtable.core.errors import DecodeError
from cardtable.core.events import Event
from cardtable.core.game import Game
from cardtable.core.options import options_to_dict
from cardtable.core.record_decoder import Undecodable, decoder_for
from cardtable.core.types import Seat

#: The record format this version writes; ``from_json`` reads it and every earlier one.
RECORD_FORMAT = 1


@dataclass(frozen=True)
class GameRecord:
    """Everything needed to replay a game: its name, options (as a dict), seed and the actions."""

    game: str
    options: Mapping[str, Any]
    seed: int
    actions: tuple[tuple[Seat, Any], ...] = ()
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """The record as JSON-ready data, marked with its format and the cardtable version that wrote it."""
        return {
            "format": RECORD_FORMAT,
            "cardtable": __version__,
            "game": self.game,
            "options": dict(self.options),
            "seed": self.seed,
            "actions": [{"seat": seat, "action": to_json(action)} for seat, action in self.actions],
            "notes": list(self.notes),
        }

    @staticmethod
    def from_json(data: Mapping[str, Any], game: Game[Any, Any, Any, Any]) -> GameRecord:
        """Decode a record of ``game`` (format 0, i.e. none, up to ``RECORD_FORMAT``); ``DecodeError`` if not."""
        if not isinstance(data, Mapping):
            raise DecodeError(f"a game record is a JSON object, not {describe_value(data)}")
        version = data.get("format", 0)
        if type(version) is not int or not 0 <= version <= RECORD_FORMAT:
            raise DecodeError(f"record format {short_repr(version)} is not one this cardtable reads "
                              f"(0–{RECORD_FORMAT}); it was written by cardtable {short_repr(data.get('cardtable'))}")
        known = {"format", "cardtable", "game", "options", "seed", "actions", "notes"}
        unknown = sorted(str(k) for k in data if k not in known)
        if unknown:
            raise DecodeError(f"unknown field(s) in a game record: {short_repr(', '.join(unknown))}")
        name, options, seed = data.get("game"), data.get("options"), data.get("seed")
        if name != game.info.name:
            raise DecodeError(f"a record of {short_repr(name)}, not of {game.info.name}")
        if not isinstance(options, Mapping):
            raise DecodeError(f"record options must be an object, not {describe_value(options)}")
        if type(seed) is not int:
            raise DecodeError(f"record seed must be an int, not {describe_value(seed)}")
        return GameRecord(name, dict(options), seed, _actions(data.get("actions"), game), _notes(data.get("notes", [])))

    def with_action(self, seat: Seat, action: Any) -> GameRecord:
        """This record with one more action."""
        return GameRecord(self.game, self.options, self.seed, self.actions + ((seat, action),), self.notes)


def _actions(data: Any, game: Game[Any, Any, Any, Any]) -> tuple[tuple[Seat, Any], ...]:
    """The record's ``[{"seat": 0, "action": {...}}, ...]``, each seat an int and each action decoded."""
    if not isinstance(data, list):
        raise DecodeError(f"record actions must be a list, not {describe_value(data)}")
    out = []
    for i, item in enumerate(data):
        if not isinstance(item, Mapping) or set(item) != {"seat", "action"}:
            raise DecodeError(f"record action {i} must be an object with seat and action, not {short_repr(item)}")
        seat = item["seat"]
        if type(seat) is not int:
            raise DecodeError(f"record action {i}: seat must be an int, not {describe_value(seat)}")
        try:
            action = game.action_codec.decode(item["action"])
        except DecodeError as exc:
            raise DecodeError(f"record action {i}: {exc}") from None
        out.append((seat, action))
    return tuple(out)


def _notes(data: Any) -> tuple[str, ...]:
    if not isinstance(data, list) or not all(isinstance(n, str) for n in data):
        raise DecodeError(f"record notes must be a list of strings, not {short_repr(data)}")
    return tuple(data)


def new_record(game: Game[Any, Any, Any, Any], options: Any, seed: int) -> GameRecord:
    """An empty record for a game about to start."""
    return GameRecord(game.info.name, options_to_dict(options), seed)


def replay(game: Game[Any, Any, Any, Any], record: GameRecord,
           upto: int | None = None) -> tuple[Any, list[Event]]:
    """The state after the record's first ``upto`` actions (all by default) and every event so far."""
    options = game.options(record.options)
    state, events = game.new(options, record.seed)
    actions: Sequence[tuple[Seat, Any]] = record.actions if upto is None else record.actions[:upto]
    for seat, action in actions:
        state, more = game.apply(state, seat, action)
        events.extend(more)
    return state, events


def load_record(text: str | bytes, game: Game[Any, Any, Any, Any]) -> GameRecord:
    """A record of ``game`` from its JSON text, its actions the engine's cached objects; ``DecodeError`` if invalid.

    The same record as ``GameRecord.from_json(parse_json(text), game)``, faster: one compiled msgspec
    pass (``core.record_decoder``); whatever that pass cannot decode goes the slow way, which
    accepts or refuses it with its exact message.
    """
    decoder = decoder_for(game.info.action_types)
    decoded = decoder.decode(text) if decoder is not None else None
    if decoded is not None:
        name, options, seed, actions, notes, version = decoded
        if name == game.info.name and 0 <= version <= RECORD_FORMAT:
            return GameRecord(name, options, seed, actions, notes)
    return GameRecord.from_json(parse_json(text), game)


def load_state(text: str | bytes, game: Game[Any, Any, Any, Any]) -> Any:
    """The state a stored game's JSON text reaches: ``replay_state(game, load_record(text, game))``, for callers
    that need only the state (no ``GameRecord``), with one pass over the actions less.

    The same answer and the same refusals (``DecodeError``, ``InvalidOptions``, ``IllegalAction`` naming
    its step): the compiled decoder's items go straight to ``Game.replay_decoded`` (Wizard's quiet
    replay codes them without making the ``(seat, action)`` pairs); whatever that path cannot decode
    goes the two-step way.
    """
    decoder = decoder_for(game.info.action_types)
    data = decoder.decode_items(text) if decoder is not None else None
    if decoder is not None and data is not None and data.game == game.info.name and 0 <= data.format <= RECORD_FORMAT:
        try:
            return game.replay_decoded(_options(game, data.options), data.seed, data.actions, decoder.pair_of)
        except Undecodable:
            pass
    return replay_state(game, load_record(text, game))


def replay_state(game: Game[Any, Any, Any, Any], record: GameRecord, upto: int | None = None) -> Any:
    """The state after the record's first ``upto`` actions (all by default), every action validated, no events.

    ``Game.replay`` does the work; an illegal action raises ``IllegalAction`` naming its index in
    the record (``exc.step``). Use :func:`replay` when the events are wanted too.
    """
    actions = record.actions if upto is None else record.actions[:upto]
    return game.replay(_options(game, record.options), record.seed, actions)


#: Parsed options by game class and a record's options (see :func:`_options`).
_OPTIONS: dict[tuple[Any, ...], Any] = {}
_SCALARS = (str, int, float, bool, type(None))


def _options(game: Game[Any, Any, Any, Any], values: Mapping[str, Any]) -> Any:
    """``game.options(values)``, remembered when the values are plain scalars: parsing a record's few options
    costs as much as replaying dozens of its actions, and options objects are frozen, so one can be shared."""
    if not all(type(value) in _SCALARS for value in values.values()):
        return game.options(values)
    key = (type(game), *[(name, type(value), value) for name, value in values.items()])  # 1 and True differ here
    options = _OPTIONS.get(key)
    if options is None:
        options = game.options(values)  # InvalidOptions is raised, never remembered
        if len(_OPTIONS) < 1024:
            _OPTIONS[key] = options
    return options
