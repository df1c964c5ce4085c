"""The store: tables, seats, accepted actions and leases in any SQLAlchemy database (SQLite by default).

Every write method takes an optional open ``Connection`` so that the server's writer thread can put several
writes into one transaction (one commit); without one, the method commits its own transaction.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import bindparam, create_engine, delete, event, func, insert, or_, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import selectinload, sessionmaker
from sqlalchemy.sql.elements import ColumnElement

from cardtable.store.migrate import upgrade
from cardtable.store.models import RECORD_FORMAT, ActionRow, LeaseRow, SeatRow, TableRow, utcnow

DEFAULT_DATABASE_URL = "sqlite:///cardtable.db"
DATABASE_URL_ENV = "CARDTABLE_DATABASE_URL"
#: Tables a server process drives (and rebuilds at start).
OPEN_STATUSES = ("waiting", "playing", "paused")
#: Tables the lobby lists: the open ones and those that stopped on an error.
LISTED_STATUSES = ("waiting", "playing", "paused", "error")
#: SQLite: write-ahead log (readers never block the writer) and a full sync on every commit, so an
#: accepted move survives even a power cut; the server batches commits to keep that cheap.
SQLITE_PRAGMAS = ("foreign_keys=ON", "journal_mode=WAL", "busy_timeout=5000")
#: ``synchronous`` levels: FULL survives a power cut; NORMAL (in WAL mode) survives the process being
#: killed but may lose the last commits on a power cut or an OS crash, at a fraction of the cost per commit.
SQLITE_SYNC = ("FULL", "NORMAL")
T = TypeVar("T")


def resolve_database_url(url: str | None = None) -> str:
    """The database to use: ``url``, else ``$CARDTABLE_DATABASE_URL``, else SQLite in the working directory."""
    return url or os.environ.get(DATABASE_URL_ENV) or DEFAULT_DATABASE_URL


def hash_token(token: str) -> str:
    """The SHA-256 hex digest of a seat token; only digests are stored."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class StoredSeat:
    """A seat as stored: a person (``human``: name, token hash), a computer player (``bot``: bot name) or a
    program playing over the Bot API (``remote``: its bot account, and ``bot``, the computer player that
    plays its decisions when it fails or is away)."""

    index: int
    kind: str
    name: str = ""
    bot: str | None = None
    token_hash: str | None = None
    taken: bool = False
    #: The bot account holding a ``remote`` seat (``cardtable.store.accounts``).
    account: int | None = None
    #: A ``remote`` seat's lost decisions this game by kind, and ``forfeited`` (1) once forfeited.
    failures: dict[str, int] = field(default_factory=dict)
    #: The person's account that sat here signed in (``cardtable.store.people``), kept when they leave.
    person: int | None = None

    def copy(self) -> StoredSeat:
        """An independent copy (changes are prepared on copies and kept only once stored)."""
        return StoredSeat(self.index, self.kind, self.name, self.bot, self.token_hash, self.taken, self.account,
                          dict(self.failures), self.person)


@dataclass
class StoredTable:
    """A table as stored, with its seats and its accepted actions ``(seat, action JSON)`` in order."""

    id: str
    game: str
    options: dict[str, Any]
    seed: int
    status: str
    host_token_hash: str
    preset: str | None = None
    host_seat: int | None = None
    seats: list[StoredSeat] = field(default_factory=list)
    actions: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    created_at: datetime = field(default_factory=utcnow)
    updated_at: datetime = field(default_factory=utcnow)
    version: int = 0
    to_act: int | None = None
    error: str | None = None
    outcome: dict[str, Any] | None = None
    format: int = RECORD_FORMAT
    #: How the table is run (the web table's pace, turn timer, takeovers; see ``server/social.py``).
    settings: dict[str, Any] = field(default_factory=dict)


class Store:
    """Reads and writes tables; every write is committed before the method returns."""

    def __init__(self, url: str | None = None, *, migrate: bool = True, sqlite_sync: str = "FULL") -> None:
        if sqlite_sync.upper() not in SQLITE_SYNC:
            raise ValueError(f"sqlite_sync must be one of {', '.join(SQLITE_SYNC)}, not {sqlite_sync!r}")
        self.url = resolve_database_url(url)
        self.engine: Engine = _engine(self.url, sqlite_sync.upper())
        if migrate:
            upgrade(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def close(self) -> None:
        """Release the database connections."""
        self.engine.dispose()

    def transaction(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` in one transaction: committed if it returns, rolled back if it raises."""
        with self.engine.begin() as connection:
            return work(connection)

    def _run(self, connection: Connection | None, work: Callable[[Connection], T]) -> T:
        return work(connection) if connection is not None else self.transaction(work)

    # Writing.

    def create_table(self, table: StoredTable, connection: Connection | None = None) -> None:
        """Insert a new table with its seats."""
        def work(c: Connection) -> None:
            c.execute(insert(TableRow).values(
                id=table.id, game=table.game, options=table.options, preset=table.preset, seed=table.seed,
                status=table.status, host_seat=table.host_seat, host_token_hash=table.host_token_hash,
                created_at=table.created_at, updated_at=table.updated_at, version=0, to_act=None,
                format=RECORD_FORMAT, settings=dict(table.settings) or None))
            c.execute(insert(SeatRow), [_seat_values(table.id, seat) for seat in table.seats])
        self._run(connection, work)

    def save_seats(self, table_id: str, seats: Iterable[StoredSeat], status: str | None = None,
                   connection: Connection | None = None, **columns: Any) -> None:
        """Overwrite the seats of a table (names, kinds, tokens), optionally its status and other columns."""
        seats = list(seats)

        def work(c: Connection) -> None:
            for seat in seats:
                c.execute(update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.index == seat.index)
                          .values(name=seat.name, kind=seat.kind, bot=seat.bot, token_hash=seat.token_hash,
                                  taken=seat.taken, account_id=seat.account, failures=seat.failures or None,
                                  person_id=seat.person))
            self.set_status(table_id, status, c, **columns)
        self._run(connection, work)

    def set_status(self, table_id: str, status: str | None, connection: Connection | None = None,
                   **columns: Any) -> None:
        """Set a table's status (``None``: keep it) and other columns (``error``, ``to_act``, ...)."""
        values = dict(columns, updated_at=utcnow())
        if status is not None:
            values["status"] = status

        def work(c: Connection) -> None:
            if c.execute(update(TableRow).where(TableRow.id == table_id).values(**values)).rowcount != 1:
                raise KeyError(f"no table {table_id!r} in the store")
        self._run(connection, work)

    def append_action(self, table_id: str, index: int, seat: int, action: dict[str, Any], status: str,
                      connection: Connection | None = None, *, to_act: int | None = None,
                      outcome: dict[str, Any] | None = None, owner: str | None = None) -> None:
        """Store accepted action number ``index`` (0-based) and the table's status after it (``append_actions``)."""
        self.append_actions(table_id, index, [(seat, action)], status, connection, to_act=to_act, outcome=outcome,
                            owner=owner)

    def append_actions(self, table_id: str, first: int, actions: list[tuple[int, dict[str, Any]]], status: str,
                       connection: Connection | None = None, *, to_act: int | None = None,
                       outcome: dict[str, Any] | None = None, owner: str | None = None) -> None:
        """Store accepted actions ``first``, ``first + 1``, ... (``(seat, action JSON)`` each) and the table's
        status after the last; refused (``StaleVersion``) unless the stored table is at version ``first`` and,
        with ``owner``, refused (``LeaseLost``) unless that process holds the table's lease."""
        now = utcnow()

        def work(c: Connection) -> None:
            # Statements built once (this runs for every move); the update is the fence: it only matches a
            # table at version ``first`` (and leased to ``owner``), so actions are never stored out of order,
            # twice, or by a process that lost the table.
            values = {"id_": table_id, "first": first, "status": status, "updated_at": now,
                      "version": first + len(actions), "to_act": to_act, "outcome": outcome}
            if owner is None:
                done = c.execute(_AFTER_ACTIONS, values)
            else:
                done = c.execute(_AFTER_ACTIONS_LEASED, dict(values, owner_=owner))
            if done.rowcount != 1:
                holder = c.scalar(select(LeaseRow.owner).where(LeaseRow.table_id == table_id))
                if owner is not None and holder != owner:
                    raise LeaseLost(f"table {table_id!r} is leased to another process")
                raise StaleVersion(f"table {table_id!r} is not at version {first} in the store")
            c.execute(_INSERT_ACTION, [{"table_id": table_id, "index": first + offset, "seat": seat,
                                        "action": action, "created_at": now}
                                       for offset, (seat, action) in enumerate(actions)])
        self._run(connection, work)

    def expire_waiting(self, idle_since: datetime, connection: Connection | None = None) -> list[str]:
        """Mark waiting tables untouched since ``idle_since`` abandoned; their ids."""
        def work(c: Connection) -> list[str]:
            ids = list(c.scalars(select(TableRow.id).where(TableRow.status == "waiting",
                                                           TableRow.updated_at < idle_since)))
            if ids:
                c.execute(update(TableRow).where(TableRow.id.in_(ids), TableRow.status == "waiting")
                          .values(status="abandoned", updated_at=utcnow()))
            return ids
        return self._run(connection, work)

    # Leases: which process drives which table.

    def acquire(self, table_id: str, owner: str, ttl: float, connection: Connection | None = None) -> bool:
        """Take or renew the lease of a table if it is free, expired or already ours; whether we hold it."""
        now = utcnow()
        until = now + timedelta(seconds=ttl)

        def work(c: Connection) -> bool:
            taken = c.execute(update(LeaseRow).where(
                LeaseRow.table_id == table_id, or_(LeaseRow.owner == owner, LeaseRow.expires_at < now))
                .values(owner=owner, expires_at=until)).rowcount
            if taken:
                return True
            if c.execute(select(LeaseRow.owner).where(LeaseRow.table_id == table_id)).first() is not None:
                return False
            c.execute(insert(LeaseRow).values(table_id=table_id, owner=owner, expires_at=until))
            return True
        try:
            return self._run(connection, work)
        except Exception as exc:  # two processes inserted the same new lease: the other one won
            if _is_conflict(exc):
                return False
            raise

    def hold(self, table_id: str, owner: str, ttl: float, connection: Connection | None = None) -> bool:
        """Extend our lease of one table if we still hold it (a fence: a write that needs it checks it in its
        own transaction, so a process that lost a table can never write to it)."""
        until = utcnow() + timedelta(seconds=ttl)
        return bool(self._run(connection, lambda c: c.execute(
            _HOLD_LEASE, {"table_id_": table_id, "owner_": owner, "expires_at": until}).rowcount == 1))

    def renew(self, owner: str, ttl: float, connection: Connection | None = None) -> set[str]:
        """Extend every lease this owner still holds; the ids of those tables."""
        now = utcnow()

        def work(c: Connection) -> set[str]:
            # A lease that expired but that nobody took over is still ours: a takeover changes the owner.
            c.execute(update(LeaseRow).where(LeaseRow.owner == owner).values(expires_at=now + timedelta(seconds=ttl)))
            return set(c.scalars(select(LeaseRow.table_id).where(LeaseRow.owner == owner)))
        return self._run(connection, work)

    def release(self, owner: str, table_ids: Iterable[str] | None = None,
                connection: Connection | None = None) -> None:
        """Give up leases (all of this owner's when ``table_ids`` is ``None``)."""
        query = delete(LeaseRow).where(LeaseRow.owner == owner)
        if table_ids is not None:
            query = query.where(LeaseRow.table_id.in_(list(table_ids)))
        self._run(connection, lambda c: c.execute(query))

    def owner_of(self, table_id: str) -> str | None:
        """The process holding an unexpired lease on the table, if any."""
        with self.engine.connect() as c:
            return c.scalar(select(LeaseRow.owner).where(LeaseRow.table_id == table_id,
                                                         LeaseRow.expires_at >= utcnow()))

    def unowned_open(self) -> list[str]:
        """Open tables no live lease covers (their owner stopped or died): ids, oldest first."""
        now = utcnow()
        with self.engine.connect() as c:
            live = select(LeaseRow.table_id).where(LeaseRow.expires_at >= now)
            query = (select(TableRow.id).where(TableRow.status.in_(OPEN_STATUSES), TableRow.id.not_in(live))
                     .order_by(TableRow.created_at))
            return list(c.scalars(query))

    # Reading.

    def load(self, table_id: str) -> StoredTable | None:
        """A table with its seats and actions, or ``None`` if there is none."""
        with self._sessions() as session:
            row = session.get(TableRow, table_id, options=[selectinload(TableRow.seats),
                                                           selectinload(TableRow.actions)])
            return None if row is None else _stored(row)

    def load_actions(self, table_id: str, since: int) -> list[tuple[int, dict[str, Any]]]:
        """The table's actions from number ``since`` on, in order."""
        with self.engine.connect() as c:
            rows = c.execute(select(ActionRow.seat, ActionRow.action).where(
                ActionRow.table_id == table_id, ActionRow.index >= since).order_by(ActionRow.index))
            return [(seat, dict(action)) for seat, action in rows]

    def load_open(self, ids: Iterable[str] | None = None) -> list[StoredTable]:
        """Every table still waiting, playing or paused (or those of ``ids``), oldest first."""
        with self._sessions() as session:
            query = (select(TableRow).where(TableRow.status.in_(OPEN_STATUSES))
                     .options(selectinload(TableRow.seats), selectinload(TableRow.actions))
                     .order_by(TableRow.created_at))
            if ids is not None:
                query = query.where(TableRow.id.in_(list(ids)))
            return [_stored(row) for row in session.scalars(query)]

    def lobby(self, limit: int, offset: int = 0, error_since: datetime | None = None) -> list[StoredTable]:
        """A page of listed tables, newest first, with seats but without actions."""
        with self._sessions() as session:
            listed: ColumnElement[bool] = TableRow.status.in_(OPEN_STATUSES)
            if error_since is not None:
                listed = or_(listed, (TableRow.status == "error") & (TableRow.updated_at >= error_since))
            query = (select(TableRow).where(listed).options(selectinload(TableRow.seats))
                     .order_by(TableRow.created_at.desc(), TableRow.id).limit(limit).offset(offset))
            return [_stored(row, with_actions=False) for row in session.scalars(query)]

    def recent_finished(self, limit: int) -> list[StoredTable]:
        """The most recently finished tables, newest first, with seats but without actions."""
        with self._sessions() as session:
            query = (select(TableRow).where(TableRow.status == "finished").options(selectinload(TableRow.seats))
                     .order_by(TableRow.updated_at.desc(), TableRow.id).limit(limit))
            return [_stored(row, with_actions=False) for row in session.scalars(query)]

    def tables_of_account(self, account: int) -> list[str]:
        """The open tables where the bot account ``account`` holds a seat, oldest first."""
        return self.tables_of_accounts([account]).get(account, [])

    def tables_of_accounts(self, accounts: Iterable[int]) -> dict[int, list[str]]:
        """For each of the bot ``accounts`` holding a seat somewhere: its open tables, oldest first (one query)."""
        wanted = list(accounts)
        if not wanted:
            return {}
        with self.engine.connect() as c:
            query = (select(SeatRow.account_id, TableRow.id, TableRow.created_at)
                     .join(SeatRow, SeatRow.table_id == TableRow.id)
                     .where(SeatRow.account_id.in_(wanted), SeatRow.kind == "remote",
                            TableRow.status.in_(OPEN_STATUSES))
                     .distinct().order_by(TableRow.created_at, TableRow.id))
            out: dict[int, list[str]] = {}
            for account, table_id, _ in c.execute(query):
                out.setdefault(int(account or 0), []).append(table_id)
            return out

    def open_with_accounts(self, ids: Iterable[str]) -> dict[str, list[int]]:
        """For the tables of ``ids``: the bot accounts holding their remote seats."""
        wanted = list(ids)
        if not wanted:
            return {}
        with self.engine.connect() as c:
            rows = c.execute(select(SeatRow.table_id, SeatRow.account_id).where(
                SeatRow.table_id.in_(wanted), SeatRow.kind == "remote", SeatRow.account_id.is_not(None)))
            out: dict[str, list[int]] = {}
            for table_id, account in rows:
                out.setdefault(table_id, []).append(int(account or 0))
            return out

    def count_open(self) -> int:
        """How many tables are waiting, playing or paused."""
        with self.engine.connect() as c:
            return int(c.scalar(select(func.count()).select_from(TableRow)
                                .where(TableRow.status.in_(OPEN_STATUSES))) or 0)

    def exists(self, table_id: str) -> bool:
        """Whether a table with this id was ever stored."""
        with self.engine.connect() as c:
            return c.scalar(select(TableRow.id).where(TableRow.id == table_id)) is not None


_INSERT_ACTION = insert(ActionRow)
_HOLD_LEASE = (update(LeaseRow)
               .where(LeaseRow.table_id == bindparam("table_id_"), LeaseRow.owner == bindparam("owner_"))
               .values(expires_at=bindparam("expires_at")))
_AFTER_ACTIONS = (update(TableRow).where(TableRow.id == bindparam("id_"), TableRow.version == bindparam("first"))
                  .values(status=bindparam("status"), updated_at=bindparam("updated_at"),
                          version=bindparam("version"), to_act=bindparam("to_act"), outcome=bindparam("outcome")))

_AFTER_ACTIONS_LEASED = _AFTER_ACTIONS.where(
    select(LeaseRow.table_id).where(LeaseRow.table_id == TableRow.id, LeaseRow.owner == bindparam("owner_")).exists())


class LeaseLost(Exception):
    """A write found the table leased to another process: nothing was stored."""


class StaleVersion(Exception):
    """A write of actions found the stored table at another version (or no such table): nothing was stored."""


def _engine(url: str, sqlite_sync: str = "FULL") -> Engine:
    """An engine; SQLite gets cross-thread use, the write-ahead log and enforced foreign keys."""
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=10)
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 5})

    @event.listens_for(engine, "connect")
    def _pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        for pragma in (*SQLITE_PRAGMAS, f"synchronous={sqlite_sync}"):
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    return engine


def _is_conflict(exc: Exception) -> bool:
    from sqlalchemy.exc import IntegrityError
    return isinstance(exc, IntegrityError)


def _seat_values(table_id: str, seat: StoredSeat) -> dict[str, Any]:
    return {"table_id": table_id, "index": seat.index, "name": seat.name, "kind": seat.kind, "bot": seat.bot,
            "token_hash": seat.token_hash, "taken": seat.taken, "account_id": seat.account,
            "failures": seat.failures or None, "person_id": seat.person}


def _stored(row: TableRow, *, with_actions: bool = True) -> StoredTable:
    seats = [StoredSeat(s.index, s.kind, s.name, s.bot, s.token_hash, s.taken, s.account_id, dict(s.failures or {}),
                        s.person_id) for s in row.seats]
    actions = [(a.seat, dict(a.action)) for a in row.actions] if with_actions else []
    return StoredTable(row.id, row.game, dict(row.options), row.seed, row.status, row.host_token_hash,
                       row.preset, row.host_seat, seats, actions, row.created_at, row.updated_at,
                       row.version or 0, row.to_act, row.error, row.outcome, row.format or RECORD_FORMAT,
                       dict(row.settings or {}))
