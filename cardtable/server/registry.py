"""What every part of the table manager shares: the store, the limits, this process's lease name and its tables.

The tables are those this process holds in memory: open ones by id (driven here, or shown here for the process
that drives them), and recently closed ones in a small cache; a table is rebuilt from its stored form by
replaying its record.
"""

from __future__ import annotations

import os
import secrets
import socket
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from sqlalchemy.engine import Connection as DbConnection

from cardtable.core import GameRecord, options_to_dict
from cardtable.server.limits import Limits, excerpt
from cardtable.server.live import AnyGame, LiveTable, TableError
from cardtable.server.statuses import ERROR, FINISHED, PAUSED, PLAYING, WAITING
from cardtable.store import Store, StoredTable


class TableRegistry:
    """The tables of one server process in memory, and the settings the manager's parts read at call time."""

    def __init__(self, store: Store, games: dict[str, AnyGame], limits: Limits, owner: str | None,
                 lease_ttl: float) -> None:
        self.store = store
        self.games = games
        self.limits = limits
        #: This process's name in leases.
        self.owner = owner or f"{socket.gethostname()[:32]}:{os.getpid()}:{secrets.token_hex(4)}"
        self.lease_ttl = lease_ttl
        self.tables: dict[str, LiveTable] = {}
        self.finished: OrderedDict[str, LiveTable] = OrderedDict()
        #: Called with a table's id once it is no longer in memory at all (neither open here nor cached), so
        #: that per-table state elsewhere (chat, summary holds) goes with it.
        self.on_evict: list[Callable[[str], None]] = []
        #: Called in the transaction that stores a table's last move, with the outcome's JSON and every event of
        #: the game (the rating ladder's update, ``server/ratings.py``): it commits with that move or not at all.
        self.on_finish: list[Callable[[LiveTable, dict[str, Any], list[Any], DbConnection], None]] = []

    def game(self, name: str) -> AnyGame:
        """A registered game; 400 if unknown."""
        if name not in self.games:
            raise TableError(400, f"unknown game {excerpt(name, 40)!r} (known: {', '.join(self.games)})")
        return self.games[name]

    def open_tables(self) -> list[LiveTable]:
        """Waiting, playing and paused tables in this process's memory, newest first."""
        live = [t for t in self.tables.values() if t.status in (WAITING, PLAYING, PAUSED)]
        return sorted(live, key=lambda t: t.stored.created_at, reverse=True)

    def forget(self, table: LiveTable) -> None:
        """Drop a done table from memory (it stays in the store); watchers keep their last view."""
        if table.connections:
            return
        self.tables.pop(table.id, None)
        if table.status in (FINISHED, ERROR):
            self.cache_finished(table)
        else:
            self.evicted(table.id)

    def cache_finished(self, table: LiveTable) -> None:
        """Keep a closed table in the small cache of recent ones (the oldest leaves past the limit)."""
        self.finished[table.id] = table
        self.finished.move_to_end(table.id)
        while len(self.finished) > self.limits.finished_cache:
            oldest, _ = self.finished.popitem(last=False)
            self.evicted(oldest)

    def evicted(self, table_id: str) -> None:
        """A table left a place in memory: if it is in none now, run the ``on_evict`` hooks."""
        if table_id in self.tables or table_id in self.finished:
            return
        for hook in self.on_evict:
            hook(table_id)

    def finished_in(self, table: LiveTable, outcome: dict[str, Any] | None, events: list[Any],
                    c: DbConnection) -> None:
        """Run the ``on_finish`` hooks in the transaction storing the table's last move (``events``: the
        events of the moves stored with it, not yet in ``table.events``)."""
        for hook in self.on_finish:
            hook(table, outcome or {}, [*table.events, *events], c)

    def new_id(self) -> str:
        """A fresh random table id."""
        return secrets.token_urlsafe(6)  # 48 random bits; a clash fails the insert (a 503, try again)

    def rebuild(self, stored: StoredTable) -> LiveTable:
        """A live table from its stored form: the record's actions are replayed through the engine."""
        game = self.game(stored.game)
        options = game.options(stored.options)
        table = LiveTable(stored, game, options)
        table.forfeited = {s.index for s in stored.seats if s.kind == "remote" and s.failures.get("forfeited")}
        if stored.status in (PLAYING, PAUSED, FINISHED, ERROR):
            actions = tuple((seat, game.action_codec.decode(data)) for seat, data in stored.actions)
            table.record = GameRecord(game.info.name, options_to_dict(options), stored.seed, actions)
            # An error table's failure may be in the replay itself: show what replays.
            table.state, table.events, table.marks = _replay(game, table.record, stop_on_error=stored.status == ERROR)
        return table


def _replay(game: AnyGame, record: GameRecord, *, stop_on_error: bool = False) -> tuple[Any, list[Any], list[int]]:
    """Replay a record (as ``cardtable.core.replay``): the state, every event, and the number of events after
    each version (for clients that resume from a version). ``stop_on_error``: stop at an action that fails."""
    state, events = game.new(game.options(record.options), record.seed)
    events = list(events)
    marks = [len(events)]
    for seat, action in record.actions:
        try:
            state, more = game.apply(state, seat, action)
        except Exception:
            if stop_on_error:
                break
            raise
        events.extend(more)
        marks.append(len(events))
    return state, events, marks
