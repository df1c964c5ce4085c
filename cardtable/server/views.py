"""JSON built for clients: the game catalogue, table summaries and each connection's own view.

Everything about a game in a view comes from ``observe(state, seat)`` and ``events_for(events, seat)``;
the seat list and status are table metadata that every visitor may see.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import msgspec

from cardtable.bots import bot_names
from cardtable.bots.catalog import DEFAULT_BOT, bot_info
from cardtable.core import events_for, to_json
from cardtable.core.types import Seat
from cardtable.server.live import AnyGame, Connection, LiveTable
from cardtable.store import StoredTable

_encoder = msgspec.json.Encoder()


def encode(message: Any) -> str:
    """A message as compact JSON text (msgspec: compiled, not reflective)."""
    return _encoder.encode(message).decode("utf-8")


def default_bot(game: AnyGame) -> str:
    """The computer player used when none is named: the catalog's choice, else the game's first bot or ``random``."""
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
    """The outcome once the game is over: ``{"type": "outcome", "scores", "winners", "reason"}``."""
    outcome = None if table.state is None else table.game.outcome(table.state)
    return None if outcome is None else dict(to_json(outcome))


def seats_json(table: LiveTable) -> list[dict[str, Any]]:
    """The public seat list: who sits where, person or computer, connected or not."""
    connected = table.connected_seats()
    host = table.stored.host_seat
    return [{"seat": s.index, "kind": s.kind, "bot": s.bot, "name": s.name, "taken": s.taken,
             "connected": s.kind == "bot" or s.index in connected, "host": s.index == host}
            for s in table.stored.seats]


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
        "seats": [{"seat": s.index, "kind": s.kind, "bot": s.bot, "name": s.name, "taken": s.taken,
                   "connected": s.kind == "bot", "host": s.index == host} for s in stored.seats],
        "version": stored.version, "to_act": stored.to_act, "outcome": stored.outcome,
        "computer_playing_for": [],
        "created": _iso(stored.created_at), "updated": _iso(stored.updated_at),
    }


def view_text(table: LiveTable, connection: Connection) -> str:
    """The connection's view as JSON text, built once per audience (seat, events already sent) and change."""
    key = (connection.seat, connection.event_index)
    text = table.views.get(key)
    if text is None:
        builder = ViewBuilder(table)
        text = table.views[key] = encode(builder.view(connection))
    else:
        connection.event_index = len(table.events)
        connection.has_view = True
    return text


class ViewBuilder:
    """Builds each connection's view after one change, observing each seat once."""

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self.seats = seats_json(table)
        self._observations: dict[Seat | None, Any] = {}
        self.outcome = outcome_json(table)

    def view(self, connection: Connection) -> dict[str, Any]:
        """The view for this connection; marks the events it carries as sent."""
        table, seat = self.table, connection.seat
        events = events_for(table.events[connection.event_index:], seat)
        connection.event_index = len(table.events)
        connection.has_view = True
        return {
            "type": "view", "table_id": table.id, "game": table.game.info.name, "version": table.version,
            "seat": seat, "status": table.status, "error": table.error, "to_act": table.to_act,
            "seats": self.seats,
            "observation": self._observation(seat), "legal_actions": self._legal(seat),
            "events": [{"event": to_json(e), "text": e.text()} for e in events],
            "outcome": self.outcome, "computer_playing_for": sorted(table.covering),
        }

    def _observation(self, seat: Seat | None) -> Any:
        if self.table.state is None:
            return None
        if seat not in self._observations:
            self._observations[seat] = to_json(self.table.game.observe(self.table.state, seat))
        return self._observations[seat]

    def _legal(self, seat: Seat | None) -> list[dict[str, Any]]:
        table = self.table
        if seat is None or table.status != "playing" or seat != table.to_act or seat in table.covering:
            return []
        game = table.game
        return [{"action": to_json(a), "text": a.text(), "label": game.describe_action(a)}
                for a in game.legal_actions(table.state, seat)]


def _iso(moment: datetime) -> str:
    """ISO 8601 in UTC with a ``Z``; SQLite hands back naive datetimes, which are UTC here."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")
