"""JSON built for clients: the game catalogue, table summaries and each connection's own view.

Everything about a game in a view comes from ``observe(state, seat)`` and ``events_for(events, seat)``;
the seat list and status are table metadata that every visitor may see.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import msgspec

from cardtable.bots import bot_names, make_bot
from cardtable.bots.catalog import DEFAULT_BOT, DEFAULT_WHERE_TRAINED, bot_info
from cardtable.core import to_json
from cardtable.core.types import Seat
from cardtable.server.live import AnyGame, Connection, LiveTable
from cardtable.store import StoredTable

_encoder = msgspec.json.Encoder()


def encode(message: Any) -> str:
    """A message as compact JSON text (msgspec: compiled, not reflective)."""
    return _encoder.encode(message).decode("utf-8")


def default_bot(game: AnyGame, options: Any = None) -> str:
    """The computer player used when none is named: the catalog's choice, else the game's first bot or ``random``.

    With the table's ``options``: the learned player where the catalog prefers it (``DEFAULT_WHERE_TRAINED``)
    and a shipped net was trained for exactly those options.
    """
    trained = DEFAULT_WHERE_TRAINED.get(game.info.name)
    if options is not None and trained is not None and trained in bot_names(game):
        try:
            make_bot(game, trained, options=options)
        except ValueError:
            pass
        else:
            return trained
    chosen = DEFAULT_BOT.get(game.info.name)
    if chosen is not None and chosen in bot_names(game):
        return chosen
    own = list(game.bots())
    return own[0] if own else "random"


def bots_json(game: AnyGame) -> dict[str, dict[str, Any]]:
    """Each bot's label, strength rank (1 strongest) and typical decision time, where the catalog has them."""
    out = {}
    for name in bot_names(game):
        info = bot_info(game.info.name, name)
        if info is not None:
            out[name] = {"label": info.label, "strength": info.strength, "typical_ms": info.typical_ms}
    return out


def game_entry(game: AnyGame) -> dict[str, Any]:
    """One game of the catalogue, from its metadata."""
    info = game.info
    return {
        "name": info.name, "title": info.title, "description": info.description,
        "min_players": info.min_players, "max_players": info.max_players, "has_teams": info.has_teams,
        "hidden_information": info.hidden_information,
        "options": [{"name": s.name, "kind": s.kind, "default": to_json(s.default),
                     "choices": None if s.choices is None else list(s.choices), "help": s.help}
                    for s in info.option_specs],
        "presets": {name: {k: to_json(v) for k, v in values.items()} for name, values in info.presets.items()},
        "bots": bot_names(game), "default_bot": default_bot(game), "bot_info": bots_json(game),
        "default_where_trained": DEFAULT_WHERE_TRAINED.get(game.info.name),
        "cards": _cards(game),
    }


def _cards(game: AnyGame) -> list[dict[str, Any]]:
    deck = game.info.deck
    if deck is None:
        return []
    return [{"id": i, "text": card.text(), "words": card.words(),
             "suit": None if card.suit is None else card.suit.word, "rank": card.rank.word}
            for i, card in enumerate(deck.cards)]


def outcome_json(table: LiveTable) -> dict[str, Any] | None:
    """The outcome once the game is over: ``{"type": "outcome", "scores", "winners", "reason"}`` (a game ended by
    a resignation has the one stored with the table)."""
    outcome = None if table.state is None else table.game.outcome(table.state)
    if outcome is None:
        return dict(table.stored.outcome) if table.status == "finished" and table.stored.outcome else None
    return dict(to_json(outcome))


def seats_json(table: LiveTable) -> list[dict[str, Any]]:
    """The public seat list: who sits where, person or computer, connected or not."""
    connected = table.connected_seats()
    host = table.stored.host_seat
    return [_seat_json(s, s.kind == "bot" or s.index in connected, s.index == host, s.index in table.covering)
            for s in table.stored.seats]


def _seat_json(seat: Any, connected: bool, host: bool, covered: bool) -> dict[str, Any]:
    """One seat of the public list; a bot account's seat (``remote``) also says whether the computer plays it
    now (``away``: its program is not connected; ``forfeited``) and its lost decisions this game by kind."""
    out = {"seat": seat.index, "kind": seat.kind, "bot": seat.bot, "name": seat.name, "taken": seat.taken,
           "connected": connected, "host": host}
    if seat.kind == "remote":
        forfeited = bool(seat.failures.get("forfeited"))
        out.update(away=covered and not forfeited, forfeited=forfeited,
                   failures={k: n for k, n in seat.failures.items() if k != "forfeited"})
    return out


def summary(table: LiveTable) -> dict[str, Any]:
    """A table's public state (lobby list, ``GET /api/tables/{id}``)."""
    return {
        "table_id": table.id, "game": table.game.info.name, "title": table.game.info.title,
        "status": table.status, "error": table.error, "options": dict(table.stored.options),
        "preset": table.stored.preset, "seats": seats_json(table), "version": table.version,
        "to_act": table.to_act, "outcome": outcome_json(table),
        "computer_playing_for": sorted(table.covering),
        "created": _iso(table.stored.created_at), "updated": _iso(table.stored.updated_at),
    }


def stored_summary(stored: StoredTable, title: str) -> dict[str, Any]:
    """The summary of a table this process does not hold in memory, from its stored row alone."""
    host = stored.host_seat
    return {
        "table_id": stored.id, "game": stored.game, "title": title, "status": stored.status,
        "error": stored.error, "options": dict(stored.options), "preset": stored.preset,
        "seats": [_seat_json(s, s.kind == "bot", s.index == host, False) for s in stored.seats],
        "version": stored.version, "to_act": stored.to_act, "outcome": stored.outcome,
        "computer_playing_for": [],
        "created": _iso(stored.created_at), "updated": _iso(stored.updated_at),
    }


@dataclass(frozen=True, slots=True)
class BuiltView:
    """A view as built for one audience after one change: a serial number, the JSON value and its text."""

    serial: int
    view: dict[str, Any]
    text: str


_serials = itertools.count(1)
#: Keys of a view that a patch never carries as changed values.
_NOT_DIFFED = frozenset({"type", "version", "events", "observation"})


def view_message(table: LiveTable, connection: Connection) -> str:
    """The next message for a connection as JSON text: its view, or (if it applies patches and has a view) the
    patch from the last view it got, unless the patch would not be smaller. Built once per audience and change."""
    key = (connection.seat, connection.event_index)
    built = table.views.get(key)
    if built is None:
        view = ViewBuilder(table).build(connection.seat, connection.event_index)
        built = table.views[key] = BuiltView(next(_serials), view, encode(view))
    connection.event_index = len(table.events)
    connection.has_view = True
    last: BuiltView | None = connection.last_view
    connection.last_view = built
    if not connection.patches or last is None:
        return built.text
    patch_key = (key[0], key[1], last.serial)
    text = table.patches.get(patch_key)
    if text is None:
        patch = encode(make_patch(last.view, built.view))
        text = table.patches[patch_key] = patch if len(patch) < len(built.text) else built.text
    return text


def view_text(table: LiveTable, connection: Connection) -> str:
    """The connection's full view as JSON text (see ``view_message``)."""
    connection.last_view = None
    return view_message(table, connection)


def make_patch(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The patch that turns view ``old`` into view ``new``: the changed and removed top-level keys, the changed
    and removed keys of the observation, and the new view's events (``apply_patch`` is its inverse)."""
    changed = {k: v for k, v in new.items() if k not in _NOT_DIFFED and (k not in old or old[k] != v)}
    removed = [k for k in old if k not in new and k not in _NOT_DIFFED]
    patch: dict[str, Any] = {"type": "patch", "base": old.get("version"), "version": new.get("version")}
    before, after = old.get("observation"), new.get("observation")
    if isinstance(before, dict) and isinstance(after, dict):
        observation_set = {k: v for k, v in after.items() if k not in before or before[k] != v}
        observation_unset = [k for k in before if k not in after]
        if observation_set:
            patch["observation_set"] = observation_set
        if observation_unset:
            patch["observation_unset"] = observation_unset
    elif before != after or "observation" not in old:
        changed["observation"] = after
    if changed:
        patch["set"] = changed
    if removed:
        patch["unset"] = removed
    patch["events"] = new.get("events", [])
    return patch


def apply_patch(view: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """The view a patch makes of ``view`` (a new dict; ``view`` is unchanged): what a client does with a patch."""
    if patch.get("base") != view.get("version"):
        raise ValueError(f"patch for version {patch.get('base')} applied to version {view.get('version')}")
    out = dict(view)
    out.update(patch.get("set", {}))
    for key in patch.get("unset", []):
        out.pop(key, None)
    if "observation_set" in patch or "observation_unset" in patch:
        observation = dict(out.get("observation") or {})
        observation.update(patch.get("observation_set", {}))
        for key in patch.get("observation_unset", []):
            observation.pop(key, None)
        out["observation"] = observation
    out["type"], out["version"], out["events"] = "view", patch.get("version"), patch.get("events", [])
    return out


class ViewBuilder:
    """Builds views after one change; observations and legal actions are built once per engine state and seat."""

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self.seats = seats_json(table)
        self.outcome = outcome_json(table)
        if table.parts_of is not table.state:
            table.parts.clear()
            table.parts_of = table.state
        if table.events_json_of is not table.events:
            table.events_json.clear()
            table.events_json_of = table.events

    def view(self, connection: Connection) -> dict[str, Any]:
        """The view for this connection; marks the events it carries as sent."""
        view = self.build(connection.seat, connection.event_index)
        connection.event_index = len(self.table.events)
        connection.has_view = True
        return view

    def build(self, seat: Seat | None, since: int) -> dict[str, Any]:
        """The view for ``seat`` carrying the events from number ``since`` on that it may see."""
        table = self.table
        return {
            "type": "view", "table_id": table.id, "game": table.game.info.name, "version": table.version,
            "seat": seat, "status": table.status, "error": table.error, "to_act": table.to_act,
            "seats": self.seats,
            "observation": self._observation(seat), "legal_actions": self._legal(seat),
            "events": self._events(seat, since),
            "outcome": self.outcome, "computer_playing_for": sorted(table.covering),
        }

    def _events(self, seat: Seat | None, since: int) -> list[dict[str, Any]]:
        table, cache = self.table, self.table.events_json
        out = []
        for index in range(since, len(table.events)):
            event = table.events[index]
            if not event.is_visible_to(seat):
                continue
            data = cache.get(index)
            if data is None:
                data = cache[index] = {"event": to_json(event), "text": event.text()}
            out.append(data)
        return out

    def _observation(self, seat: Seat | None) -> Any:
        table = self.table
        if table.state is None:
            return None
        key = ("observation", seat)
        if key not in table.parts:
            table.parts[key] = to_json(table.game.observe(table.state, seat))
        return table.parts[key]

    def _legal(self, seat: Seat | None) -> list[dict[str, Any]]:
        table = self.table
        if seat is None or table.status != "playing" or seat != table.to_act or seat in table.covering:
            return []
        key = ("legal", seat)
        if key not in table.parts:
            game = table.game
            table.parts[key] = [action_json(game, a) for a in game.legal_actions(table.state, seat)]
        return list(table.parts[key])


#: Legal-action JSON by game and action (actions are small frozen values; a game has a bounded number).
_action_cache: dict[tuple[AnyGame, Any], dict[str, Any]] = {}
ACTION_CACHE_SIZE = 20000


def action_json(game: AnyGame, action: Any) -> dict[str, Any]:
    """``{"action", "text", "label"}`` of a legal action, built once per game and action."""
    key = (game, action)
    try:
        data = _action_cache.get(key)
    except TypeError:  # an action that cannot be hashed: built every time
        return {"action": to_json(action), "text": action.text(), "label": game.describe_action(action)}
    if data is None:
        if len(_action_cache) >= ACTION_CACHE_SIZE:
            _action_cache.clear()
        data = _action_cache[key] = {"action": to_json(action), "text": action.text(),
                                     "label": game.describe_action(action)}
    return data


def _iso(moment: datetime) -> str:
    """ISO 8601 in UTC with a ``Z``; SQLite hands back naive datetimes, which are UTC here."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")
