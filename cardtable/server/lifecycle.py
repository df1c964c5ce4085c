"""A table's life in this process: created or loaded (and resumed), found, dealt, paused and resumed,
abandoned when it waits idle too long, and its record once done."""

from __future__ import annotations

import contextlib
import logging
import re
import secrets
from datetime import UTC, timedelta
from typing import Any

from sqlalchemy.engine import Connection as DbConnection

from cardtable.core import new_record, options_to_dict
from cardtable.core.types import Seat
from cardtable.server.absence import Absence
from cardtable.server.changes import Changes
from cardtable.server.commits import GroupCommit
from cardtable.server.failures import TableFailures
from cardtable.server.limits import AddressBuckets, excerpt
from cardtable.server.live import AnyGame, LiveTable, TableError
from cardtable.server.registry import TableRegistry
from cardtable.server.schemas import CreateTable
from cardtable.server.seats import bot_name, layout
from cardtable.server.statuses import ABANDONED, CLOSED, ERROR, FINISHED, PAUSED, PLAYING, WAITING
from cardtable.server.storage import TableStorage, status_writer
from cardtable.server.views import default_bot
from cardtable.store import StoredTable, hash_token
from cardtable.store.models import utcnow

log = logging.getLogger("cardtable.server")
#: What a table id looks like (``secrets.token_urlsafe``); anything else is not looked up at all.
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


class Lifecycle:
    """Creates, loads, finds, starts and pauses tables; every change one transaction, applied once committed."""

    def __init__(self, registry: TableRegistry, storage: TableStorage, changes: Changes, absence: Absence,
                 commits: GroupCommit, failures: TableFailures) -> None:
        self.registry = registry
        self.storage = storage
        self.changes = changes
        self.absence = absence
        self.commits = commits
        self.failures = failures
        limits = registry.limits
        self.creations = AddressBuckets(limits.tables_per_minute / 60, limits.tables_burst)

    # Created, loaded, found.

    async def create(self, body: CreateTable, address: str = "",
                     person: tuple[int, str] | None = None) -> tuple[LiveTable, Seat | None, str]:
        """A new waiting table; returns it with the host's seat and token (``person``: the signed-in host's
        account id and name, who sits under that name)."""
        limits = self.registry.limits
        if not self.creations.take(address):
            raise TableError(429, f"too many new tables from your address (at most "
                                  f"{limits.tables_per_minute:g} a minute); wait a little",
                             code="tables_rate", params={"n": f"{limits.tables_per_minute:g}"})
        game = self.registry.game(body.game)
        options, seats = layout(game, body)
        token = secrets.token_urlsafe(24)
        host_seat = next((s.index for s in seats if s.kind == "human"), None)
        if host_seat is not None:
            seats[host_seat].name, seats[host_seat].taken = body.name, True
            seats[host_seat].token_hash = hash_token(token)
            if person is not None:
                seats[host_seat].person, seats[host_seat].name = person
        seed = body.seed if body.seed is not None else secrets.randbelow(2**31)
        stored = StoredTable(self.registry.new_id(), game.info.name, options_to_dict(options), seed, WAITING,
                             hash_token(token), body.preset, host_seat, seats,
                             settings={"rated": True} if body.rated else {})

        table = await self.add_table(stored, game, options)
        return table, host_seat, token

    async def add_table(self, stored: StoredTable, game: AnyGame, options: Any) -> LiveTable:
        """Store a new waiting table (this process takes its lease) and hold it in memory."""
        registry = self.registry
        def work(c: DbConnection) -> None:
            registry.store.create_table(stored, c)
            registry.store.acquire(stored.id, registry.owner, registry.lease_ttl, c)
        await self.storage.write(work)
        table = LiveTable(stored, game, options)
        registry.tables[table.id] = table
        self.changes.changed(table)
        return table

    def load_open_tables(self) -> None:
        """Rebuild every waiting, playing or paused table this process may drive (takes their leases)."""
        registry = self.registry
        for stored in registry.store.load_open():
            if not registry.store.acquire(stored.id, registry.owner, registry.lease_ttl):
                continue  # another live process drives it
            self.load(stored)

    def load(self, stored: StoredTable) -> LiveTable | None:
        """Rebuild a stored table this process drives and hold it; ``None`` (and the table in error) if it fails."""
        try:
            table = self.registry.rebuild(stored)
        except Exception as exc:  # a table that no longer replays must not keep the server down
            log.exception("cannot resume table %s (%s)", stored.id, stored.game)
            with contextlib.suppress(Exception):
                self.registry.store.set_status(stored.id, ERROR, error=f"cannot be resumed: {excerpt(exc, 160)}")
            return None
        self.registry.tables[stored.id] = table
        return table

    def resume_table(self, table: LiveTable) -> None:
        """A loaded or adopted table goes on: absent people's timers start, the computer plays if it must."""
        if table.status == PLAYING:
            for seat in self.absence.absent_people(table):
                self.absence.start_timer(table, seat)
            self.changes.kick(table)

    async def find(self, table_id: str) -> LiveTable:
        """A table in memory, or one rebuilt from the store; 404 if there is none."""
        registry = self.registry
        table = registry.tables.get(table_id) or registry.finished.get(table_id)
        if table is not None and table.status != ABANDONED:
            return table
        if not TABLE_ID.fullmatch(table_id):
            raise TableError(404, f"no table {excerpt(table_id, 40)!r}", code="no_table", params={})
        stored = await self.storage.read(registry.store.load, table_id)
        if stored is None or stored.status == ABANDONED:
            raise TableError(404, f"no table {table_id!r}", code="no_table", params={})
        try:
            table = registry.rebuild(stored)
        except Exception as exc:  # stored by another version of a game, say: report, do not crash
            log.exception("cannot rebuild table %s", table_id)
            raise TableError(409, f"table {table_id} cannot be rebuilt: {excerpt(exc, 160)}") from None
        if stored.status in CLOSED:
            registry.cache_finished(table)
            return table
        current = registry.tables.get(table_id)
        if current is not None:  # loaded (or adopted) meanwhile: use that one
            return current
        table.owned = False  # open, but not ours: another process drives it; we show it and forward changes
        registry.tables[table_id] = table
        return table

    # Dealt, paused, resumed, abandoned.

    async def start(self, table: LiveTable) -> None:
        """Deal a waiting table; its free human seats become computer players (the caller checked the host)."""
        async with table.lock:
            if table.status != WAITING:
                raise TableError(409, f"table {table.id} is {table.status}, not waiting", code="table_is_not",
                                 params={"status": table.status, "wanted": "waiting"})
            seats = [s.copy() for s in table.stored.seats]
            for seat in seats:
                if seat.kind == "human" and not seat.taken:
                    seat.kind, seat.bot, seat.taken = "bot", default_bot(table.game, table.options), True
                    seat.name = bot_name(seat.bot, seat.index)
            try:
                state, events = table.game.new(table.options, table.stored.seed)
                to_act = table.game.to_act(state)
            except Exception as exc:
                await self.failures.fail(table, f"the rules engine could not deal: {excerpt(exc, 160)}")
                raise TableError(500, f"the table stopped: {table.error}", code="table_stopped",
                                 params={"reason": str(table.error)}) from None
            store = self.registry.store
            await self.storage.write(lambda c: store.save_seats(table.id, seats, PLAYING, c, to_act=to_act), table)
            table.stored.seats = seats
            table.state, table.events, table.marks = state, list(events), [len(events)]
            table.record = new_record(table.game, table.options, table.stored.seed)
            table.stored.status, table.stored.to_act, table.stored.updated_at = PLAYING, to_act, utcnow()
            for seat_index in self.absence.absent_people(table):
                self.absence.start_timer(table, seat_index)
            self.changes.changed(table)
            self.changes.kick(table)

    async def set_paused(self, table: LiveTable, paused: bool) -> None:
        """Pause a playing table or resume a paused one (the caller checked that it is the host)."""
        async with table.lock:
            await self.commits.settle(table)
            before, after = (PLAYING, PAUSED) if paused else (PAUSED, PLAYING)
            if table.status != before:
                raise TableError(409, f"table {table.id} is {table.status}, not {before}", code="table_is_not",
                                 params={"status": table.status, "wanted": before})
            store = self.registry.store
            await self.storage.write(lambda c: store.set_status(table.id, after, c), table)
            table.stored.status, table.stored.updated_at = after, utcnow()
            self.changes.changed(table)
            self.changes.kick(table)

    async def expire_idle(self) -> None:
        """Abandon the waiting tables this process drives that nobody watched for ``Limits.waiting_idle``."""
        registry = self.registry
        idle = utcnow() - timedelta(seconds=registry.limits.waiting_idle)
        expired = [t for t in registry.tables.values() if t.status == WAITING and t.owned and not t.connections
                   and _aware(t.stored.updated_at) < idle]
        for table in expired:
            async with table.lock:
                if table.connections or table.status != WAITING:
                    continue
                await self.storage.write(status_writer(registry.store, table.id, ABANDONED), table)
                table.stored.status = ABANDONED
                registry.forget(table)

    # Done.

    def record(self, table: LiveTable) -> dict[str, Any]:
        """The finished (or stopped) game's record as JSON; 409 before (a record reveals every hand)."""
        if table.status not in (FINISHED, ERROR) or table.record is None:
            raise TableError(409, "the record is available once the game is finished", code="record_not_finished",
                             params={})
        data = table.record.to_json()
        data["notes"] = [f"table {table.id}"] + [
            f"seat {s.index}: {s.name} ({_kind_note(s)})" for s in table.stored.seats]
        for removed in (table.stored.settings or {}).get("removed_bots", []):
            data["notes"].append(f"seat {removed['seat']}: the host removed the bot {removed['name']} at decision "
                                 f"{removed['version']}")
        if table.error:
            data["notes"].append(f"stopped on an error: {table.error}")
        ended = _ended_outside_rules(table)
        if ended is not None:
            winners = ", ".join(str(s) for s in ended.get("winners", [])) or "none"
            data["notes"].append(f"ended before the rules' end: {ended.get('reason')}; winners: seats {winners}")
        return data


def _ended_outside_rules(table: LiveTable) -> dict[str, Any] | None:
    """The stored outcome of a finished game whose last state has none (a side resigned), else None."""
    if table.status != FINISHED or not table.stored.outcome or table.state is None:
        return None
    return None if table.game.outcome(table.state) is not None else dict(table.stored.outcome)


def _kind_note(seat: Any) -> str:
    """How a seat was played, for a record's notes."""
    if seat.kind == "bot":
        return f"{seat.bot} bot"
    if seat.kind == "remote":
        lost = ", ".join(f"{kind} {n}" for kind, n in sorted(seat.failures.items()) if kind != "forfeited")
        forfeited = "; forfeited" if seat.failures.get("forfeited") else ""
        return f"a program over the Bot API; lost decisions: {lost or 'none'}{forfeited}"
    return "human"


def _aware(moment: Any) -> Any:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment
