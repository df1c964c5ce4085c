"""The store: tables, seats and accepted actions in any SQLAlchemy database (SQLite by default)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import create_engine, event, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, selectinload, sessionmaker

from cardtable.store.models import ActionRow, Base, SeatRow, TableRow, utcnow

DEFAULT_DATABASE_URL = "sqlite:///cardtable.db"
DATABASE_URL_ENV = "CARDTABLE_DATABASE_URL"
OPEN_STATUSES = ("waiting", "playing")
#: SQLite: write-ahead log (one fsync per commit, readers never block) and a full sync on every commit,
#: so an accepted move survives even a power cut.
SQLITE_PRAGMAS = ("foreign_keys=ON", "journal_mode=WAL", "synchronous=FULL")


def resolve_database_url(url: str | None = None) -> str:
    """The database to use: ``url``, else ``$CARDTABLE_DATABASE_URL``, else SQLite in the working directory."""
    return url or os.environ.get(DATABASE_URL_ENV) or DEFAULT_DATABASE_URL


def hash_token(token: str) -> str:
    """The SHA-256 hex digest of a seat token; only digests are stored."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class StoredSeat:
    """A seat as stored: a person (name, token hash) or a computer player (bot name)."""

    index: int
    kind: str
    name: str = ""
    bot: str | None = None
    token_hash: str | None = None
    taken: bool = False


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


class Store:
    """Reads and writes tables; every write is committed before the method returns."""

    def __init__(self, url: str | None = None) -> None:
        self.url = resolve_database_url(url)
        self.engine: Engine = _engine(self.url)
        Base.metadata.create_all(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def close(self) -> None:
        """Release the database connections."""
        self.engine.dispose()

    # Writing.

    def create_table(self, table: StoredTable) -> None:
        """Insert a new table with its seats."""
        with self._sessions.begin() as session:
            row = TableRow(id=table.id, game=table.game, options=table.options, preset=table.preset,
                           seed=table.seed, status=table.status, host_seat=table.host_seat,
                           host_token_hash=table.host_token_hash, created_at=table.created_at,
                           updated_at=table.updated_at)
            row.seats = [_seat_row(seat) for seat in table.seats]
            session.add(row)

    def save_seats(self, table_id: str, seats: Iterable[StoredSeat], status: str | None = None) -> None:
        """Overwrite the seats of a table (names, kinds, tokens) and optionally its status."""
        with self._sessions.begin() as session:
            row = _table_row(session, table_id)
            by_index = {s.index: s for s in row.seats}
            for seat in seats:
                target = by_index[seat.index]
                target.name, target.kind, target.bot = seat.name, seat.kind, seat.bot
                target.token_hash, target.taken = seat.token_hash, seat.taken
            if status is not None:
                row.status = status
            row.updated_at = utcnow()

    def append_action(self, table_id: str, index: int, seat: int, action: dict[str, Any],
                      status: str) -> None:
        """Store accepted action number ``index`` (0-based) and the table's status after it."""
        now = utcnow()
        # Two plain statements in one transaction: this runs once per move, so it stays lean.
        with self.engine.begin() as connection:
            connection.execute(insert(ActionRow).values(table_id=table_id, index=index, seat=seat,
                                                        action=action, created_at=now))
            done = connection.execute(update(TableRow).where(TableRow.id == table_id)
                                      .values(status=status, updated_at=now))
            if done.rowcount != 1:
                raise KeyError(f"no table {table_id!r} in the store")

    # Reading.

    def load(self, table_id: str) -> StoredTable | None:
        """A table with its seats and actions, or ``None`` if there is none."""
        with self._sessions() as session:
            row = session.get(TableRow, table_id, options=[selectinload(TableRow.seats),
                                                           selectinload(TableRow.actions)])
            return None if row is None else _stored(row)

    def load_open(self) -> list[StoredTable]:
        """Every table still waiting or playing, oldest first (what a restart resumes)."""
        with self._sessions() as session:
            query = (select(TableRow).where(TableRow.status.in_(OPEN_STATUSES))
                     .options(selectinload(TableRow.seats), selectinload(TableRow.actions))
                     .order_by(TableRow.created_at))
            return [_stored(row) for row in session.scalars(query)]

    def exists(self, table_id: str) -> bool:
        """Whether a table with this id was ever stored."""
        with self._sessions() as session:
            return session.get(TableRow, table_id) is not None


def _engine(url: str) -> Engine:
    """An engine; SQLite gets cross-thread use and enforced foreign keys."""
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True)
    engine = create_engine(url, connect_args={"check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        for pragma in SQLITE_PRAGMAS:
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    return engine


def _table_row(session: Session, table_id: str) -> TableRow:
    row = session.get(TableRow, table_id)
    if row is None:
        raise KeyError(f"no table {table_id!r} in the store")
    return row


def _seat_row(seat: StoredSeat) -> SeatRow:
    return SeatRow(index=seat.index, name=seat.name, kind=seat.kind, bot=seat.bot,
                   token_hash=seat.token_hash, taken=seat.taken)


def _stored(row: TableRow) -> StoredTable:
    seats = [StoredSeat(s.index, s.kind, s.name, s.bot, s.token_hash, s.taken) for s in row.seats]
    actions = [(a.seat, dict(a.action)) for a in row.actions]
    return StoredTable(row.id, row.game, dict(row.options), row.seed, row.status, row.host_token_hash,
                       row.preset, row.host_seat, seats, actions, row.created_at, row.updated_at)
