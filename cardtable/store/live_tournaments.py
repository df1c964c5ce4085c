"""Tournaments a server runs at its own tables (the Bot API): which are live, and which table plays each game.

Schema: ``live_tournaments`` (``tournament_id``, the games played at once, when it was asked for, and its
sealed deals: the secret ``salt`` its games are dealt from with the seed and the ``commitment`` published while
it is played, ``cardtable.arena.sealed``) beside the arena's ``tournaments`` row of the same id;
``live_tournament_tables`` (``tournament_id``, ``index``, ``table_id``, unique per game): a game's table is made
once, so a restart finds it and plays it on.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Boolean, DateTime, Integer, String, UniqueConstraint, false, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column, sessionmaker

from cardtable.store.models import Base, utcnow


class LiveTournamentRow(Base):
    """A tournament this server plays at live tables, and how many of its games at once."""

    __tablename__ = "live_tournaments"

    tournament_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    concurrency: Mapped[int] = mapped_column(Integer, default=2)
    #: The secret its deals follow from (with the seed); ``None`` for one asked for before deals were sealed.
    salt: Mapped[str | None] = mapped_column(String(64), default=None)
    #: ``sha256`` of the seed and the salt, published while the tournament is played.
    commitment: Mapped[str | None] = mapped_column(String(64), default=None)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    #: Its tables are rated: each game moves the ladder (``cardtable.store.ladder``).
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class LiveTableRow(Base):
    """The table that plays game ``index`` of a live tournament."""

    __tablename__ = "live_tournament_tables"
    __table_args__ = (UniqueConstraint("tournament_id", "index"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(String(64), index=True)
    index: Mapped[int] = mapped_column(Integer)
    table_id: Mapped[str] = mapped_column(String(32))


@dataclass(frozen=True)
class LiveTournament:
    """A live tournament's row: the games played at once and its sealed deals (salt and commitment)."""

    tournament_id: str
    concurrency: int
    salt: str | None
    commitment: str | None
    rated: bool = False


class LiveTournaments:
    """Reads and writes which tournaments are live and their tables."""

    def __init__(self, engine: Engine) -> None:
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def add(self, tournament_id: str, concurrency: int, salt: str | None = None,
            commitment: str | None = None, *, rated: bool = False) -> LiveTournament:
        """Mark a tournament live (once; asking again keeps the first concurrency, salt and ``rated``); its row."""
        try:
            with self._sessions.begin() as session:
                if session.get(LiveTournamentRow, tournament_id) is None:
                    session.add(LiveTournamentRow(tournament_id=tournament_id, concurrency=concurrency, salt=salt,
                                                  commitment=commitment, created_at=utcnow(), rated=rated))
        except IntegrityError:
            pass  # another process marked it meanwhile
        found = self.get(tournament_id)
        assert found is not None
        return found

    def get(self, tournament_id: str) -> LiveTournament | None:
        """A live tournament's row; ``None`` if the tournament is not live (an offline arena's)."""
        with self._sessions() as session:
            row = session.get(LiveTournamentRow, tournament_id)
            return None if row is None else _live(row)

    def all(self) -> dict[str, LiveTournament]:
        """Every live tournament by id."""
        with self._sessions() as session:
            return {row.tournament_id: _live(row) for row in session.scalars(select(LiveTournamentRow))}

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


def _live(row: LiveTournamentRow) -> LiveTournament:
    return LiveTournament(row.tournament_id, row.concurrency, row.salt, row.commitment, bool(row.rated))
