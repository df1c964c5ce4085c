"""Game records: ``(game, options, seed, actions)``; replaying one reproduces every event."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardtable.core.codec import to_json
from cardtable.core.errors import DecodeError
from cardtable.core.events import Event
from cardtable.core.game import Game
from cardtable.core.options import options_to_dict
from cardtable.core.types import Seat


@dataclass(frozen=True)
class GameRecord:
    """Everything needed to replay a game: its name, options (as a dict), seed and the actions."""

    game: str
    options: Mapping[str, Any]
    seed: int
    actions: tuple[tuple[Seat, Any], ...] = ()
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """The record as JSON-ready data."""
        return {
            "game": self.game,
            "options": dict(self.options),
            "seed": self.seed,
            "actions": [{"seat": seat, "action": to_json(action)} for seat, action in self.actions],
            "notes": list(self.notes),
        }

    @staticmethod
    def from_json(data: Mapping[str, Any], game: Game[Any, Any, Any, Any]) -> GameRecord:
        """Decode a record of ``game``; :class:`DecodeError` if malformed."""
        try:
            actions = tuple((int(a["seat"]), game.action_codec.decode(a["action"])) for a in data["actions"])
            return GameRecord(str(data["game"]), dict(data["options"]), int(data["seed"]), actions,
                              tuple(str(n) for n in data.get("notes", ())))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, DecodeError):
                raise
            raise DecodeError(f"malformed game record: {exc!r}") from None

    def with_action(self, seat: Seat, action: Any) -> GameRecord:
        """This record with one more action."""
        return GameRecord(self.game, self.options, self.seed, self.actions + ((seat, action),), self.notes)


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
