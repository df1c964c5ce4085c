"""Tournaments a server runs at its own tables (the Bot API): which are live, and which table plays each game.

Schema: ``live_tournaments`` (``tournament_id``, the games played at once, when it was asked for) beside
the arena's ``tournaments`` row of the same id; ``live_tournament_tables`` (``tournament_id``, ``index``,
``table_id``, unique per game): a game's table is made once, so a restart finds it and plays it on.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Integer, String, UniqueConstraint, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column, sessionmaker

from cardtable.store.models import Base, utcnow


class LiveTournamentRow(Base):
    """A tournament this server plays at live tables, and how many of its games at once."""

    __tablename__ = "live_tournaments"

    tournament_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    concurrency: Mapped[int] = mapped_column(Integer, default=2)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class LiveTableRow(Base):
    """The table that plays game ``index`` of a live tournament."""

    __tablename__ = "live_tournament_tables"
    __table_args__ = (UniqueConstraint("tournament_id", "index"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(String(64), index=True)
    index: Mapped[int] = mapped_column(Integer)
    table_id: Mapped[str] = mapped_column(String(32))


class LiveTournaments:
    """Reads and writes which tournaments are live and their tables."""

    def __init__(self, engine: Engine) -> None:
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def add(self, tournament_id: str, concurrency: int) -> None:
        """Mark a tournament live (once; asking again keeps the first concurrency)."""
        try:
            with self._sessions.begin() as session:
                if session.get(LiveTournamentRow, tournament_id) is None:
                    session.add(LiveTournamentRow(tournament_id=tournament_id, concurrency=concurrency,
                                                  created_at=utcnow()))
        except IntegrityError:
            pass  # another process marked it meanwhile

    def all(self) -> dict[str, int]:
        """Every live tournament's id and concurrency."""
        with self._sessions() as session:
            return {row.tournament_id: row.concurrency for row in session.scalars(select(LiveTournamentRow))}

    def tables(self, tournament_id: str) -> dict[int, str]:
        """The tables made for a tournament's games, by game number."""
        with self._sessions() as session:
            rows = session.scalars(select(LiveTableRow).where(LiveTableRow.tournament_id == tournament_id))
            return {row.index: row.table_id for row in rows}

    def link(self, tournament_id: str, index: int, table_id: str) -> str:
        """Record the table of game ``index``; the table already recorded if another process was first."""
        try:
            with self._sessions.begin() as session:
                session.add(LiveTableRow(tournament_id=tournament_id, index=index, table_id=table_id))
            return table_id
        except IntegrityError:
            return self.tables(tournament_id)[index]
