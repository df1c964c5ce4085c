"""Tournaments in the database: the tournament, its entries, and each finished game with its record.

Schema (three tables on the shared declarative ``Base``):

- ``tournaments``: ``id`` (hex SHA-256 of the arguments that decide the results), game, resolved
  options, format, number of games, seed, per-decision and per-game time limits, failure limit, status
  (``running`` / ``finished``), the final ``results`` (JSON, set when every game is stored), timestamps;
- ``tournament_entries``: one row per entry (position, name, spec);
- ``tournament_games``: one row per finished game (unique ``(tournament_id, index)``): deal, seed,
  seating (entry name per seat), status (``finished`` / ``error``), error reason, scores, winners,
  reason, failures per seat and kind, forfeited seats, and the game record (``GameRecord.to_json()``).

A game row is written in one transaction when the game is over, so a killed run leaves only whole
games behind; a restart plays the missing ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    func,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column, relationship, sessionmaker

from cardtable.store.models import Base, utcnow


class TournamentRow(Base):
    """One tournament: what decides its results, its status and, once finished, its results."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    format: Mapped[str] = mapped_column(String(16))
    games: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    timeout: Mapped[float | None] = mapped_column(Float, default=None)
    game_timeout: Mapped[float | None] = mapped_column(Float, default=None)
    max_failures: Mapped[int | None] = mapped_column(Integer, default=None)
    status: Mapped[str] = mapped_column(String(16), index=True)
    results: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    entries: Mapped[list[TournamentEntryRow]] = relationship(
        back_populates="tournament", order_by="TournamentEntryRow.position", cascade="all, delete-orphan")


class TournamentEntryRow(Base):
    """One entry of a tournament: its position, the name results use and its bot spec."""

    __tablename__ = "tournament_entries"
    __table_args__ = (UniqueConstraint("tournament_id", "position"), UniqueConstraint("tournament_id", "name"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    spec: Mapped[str] = mapped_column(Text)

    tournament: Mapped[TournamentRow] = relationship(back_populates="entries")


class TournamentGameRow(Base):
    """One finished game of a tournament (status ``finished`` or ``error``) with its record."""

    __tablename__ = "tournament_games"
    __table_args__ = (UniqueConstraint("tournament_id", "index"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    index: Mapped[int] = mapped_column(Integer)
    deal: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    seating: Mapped[list[str]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16))
    error: Mapped[str | None] = mapped_column(Text, default=None)
    scores: Mapped[list[float] | None] = mapped_column(JSON, default=None)
    winners: Mapped[list[int] | None] = mapped_column(JSON, default=None)
    reason: Mapped[str | None] = mapped_column(Text, default=None)
    failures: Mapped[dict[str, dict[str, int]]] = mapped_column(JSON)
    forfeited: Mapped[list[int]] = mapped_column(JSON)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


@dataclass
class StoredTournament:
    """A tournament as stored, without its games."""

    id: str
    game: str
    options: dict[str, Any]
    format: str
    games: int
    seed: int
    timeout: float | None
    game_timeout: float | None
    max_failures: int | None
    status: str
    entries: list[tuple[str, str]]
    results: dict[str, Any] | None
    created_at: datetime
    updated_at: datetime
    stored_games: int = 0


TOURNAMENT_MODELS = (TournamentRow, TournamentEntryRow, TournamentGameRow)
GAME_FIELDS = ("index", "deal", "seed", "seating", "status", "error", "scores", "winners", "reason", "failures",
               "forfeited", "record")


class TournamentStore:
    """Reads and writes tournaments on an engine whose tables exist (``Store`` migrates the database to the
    newest schema, revision ``0003`` and later include these tables)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def ensure(self, tournament: StoredTournament) -> StoredTournament:
        """The stored tournament with this id, inserting it (with its entries) if it is new."""
        with self._sessions.begin() as session:
            if session.get(TournamentRow, tournament.id) is None:
                row = TournamentRow(id=tournament.id, game=tournament.game, options=tournament.options,
                                    format=tournament.format, games=tournament.games, seed=tournament.seed,
                                    timeout=tournament.timeout, game_timeout=tournament.game_timeout,
                                    max_failures=tournament.max_failures,
                                    status="running")
                row.entries = [TournamentEntryRow(position=i, name=n, spec=s)
                               for i, (n, s) in enumerate(tournament.entries)]
                session.add(row)
        found = self.get(tournament.id)
        assert found is not None
        return found

    def add_game(self, tournament_id: str, game: dict[str, Any]) -> bool:
        """Store one finished game in one transaction; ``False`` if that game number was already stored."""
        values = {key: game[key] for key in GAME_FIELDS}
        try:
            with self._sessions.begin() as session:
                session.add(TournamentGameRow(tournament_id=tournament_id, **values))
                session.execute(update(TournamentRow).where(TournamentRow.id == tournament_id)
                                .values(updated_at=utcnow()))
        except IntegrityError:
            return False
        return True

    def finish(self, tournament_id: str, results: dict[str, Any]) -> None:
        """Mark a tournament finished with its results."""
        with self._sessions.begin() as session:
            row = session.get(TournamentRow, tournament_id)
            if row is None:
                raise KeyError(f"no tournament {tournament_id!r}")
            row.status, row.results, row.updated_at = "finished", results, utcnow()

    # Reading.

    def get(self, tournament_id: str) -> StoredTournament | None:
        """A tournament without its games, or ``None``."""
        with self._sessions() as session:
            row = session.get(TournamentRow, tournament_id)
            if row is None:
                return None
            count = session.scalar(select(func.count()).select_from(TournamentGameRow)
                                   .where(TournamentGameRow.tournament_id == tournament_id))
            return _stored(row, int(count or 0))

    def all(self) -> list[StoredTournament]:
        """Every tournament, newest first."""
        with self._sessions() as session:
            counted = session.execute(select(TournamentGameRow.tournament_id, func.count())
                                      .group_by(TournamentGameRow.tournament_id))
            counts = {str(row[0]): int(row[1]) for row in counted}
            rows = session.scalars(select(TournamentRow).order_by(TournamentRow.created_at.desc()))
            return [_stored(row, int(counts.get(row.id, 0))) for row in rows]

    def stored_indices(self, tournament_id: str) -> set[int]:
        """The numbers of the games already stored."""
        with self._sessions() as session:
            query = select(TournamentGameRow.index).where(TournamentGameRow.tournament_id == tournament_id)
            return set(session.scalars(query))

    def games(self, tournament_id: str, *, with_records: bool = True) -> list[dict[str, Any]]:
        """Every stored game of a tournament in game order, as dicts of :data:`GAME_FIELDS`."""
        fields: Sequence[str] = GAME_FIELDS if with_records else [f for f in GAME_FIELDS if f != "record"]
        columns = [getattr(TournamentGameRow, f) for f in fields]
        with self._sessions() as session:
            query = (select(*columns).where(TournamentGameRow.tournament_id == tournament_id)
                     .order_by(TournamentGameRow.index))
            return [dict(zip(fields, row)) for row in session.execute(query)]

    def game(self, tournament_id: str, index: int) -> dict[str, Any] | None:
        """One stored game with its record, or ``None``."""
        with self._sessions() as session:
            row = session.scalars(select(TournamentGameRow).where(
                TournamentGameRow.tournament_id == tournament_id, TournamentGameRow.index == index)).first()
            return None if row is None else {f: getattr(row, f) for f in GAME_FIELDS}


def _stored(row: TournamentRow, stored_games: int) -> StoredTournament:
    return StoredTournament(row.id, row.game, dict(row.options), row.format, row.games, row.seed, row.timeout,
                            row.game_timeout, row.max_failures, row.status, [(e.name, e.spec) for e in row.entries],
                            None if row.results is None else dict(row.results), row.created_at,
                            row.updated_at, stored_games)
