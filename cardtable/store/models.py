"""Database models: tables, their seats, every accepted action and table leases (SQLAlchemy 2, typed).

A change here needs a migration: ``cardtable/store/migrations/versions/`` (see docs/hosting.md).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, DateTime, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

#: The format of a stored record (table row + actions); bumped when their JSON changes meaning.
RECORD_FORMAT = 1


def utcnow() -> datetime:
    """The current time in UTC (stored naive-free so that every backend agrees)."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """The declarative base of cardtable's tables."""


class TableRow(Base):
    """One table: a game with options and a seed, its status and who hosts it."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    preset: Mapped[str | None] = mapped_column(String(64), default=None)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), index=True)
    host_seat: Mapped[int | None] = mapped_column(Integer, default=None)
    host_token_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    #: Number of accepted actions and the seat to act after them (kept for the lobby list).
    version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    to_act: Mapped[int | None] = mapped_column(Integer, default=None)
    #: Why the table stopped, when its status is ``error``.
    error: Mapped[str | None] = mapped_column(Text, default=None)
    #: The outcome once finished, as the core codec writes it.
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    #: The record format (``RECORD_FORMAT`` when written).
    format: Mapped[int] = mapped_column(Integer, default=RECORD_FORMAT, server_default="1")
    #: How the table is run (pace, turn timer, takeovers allowed); ``None``: the defaults.
    settings: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)

    seats: Mapped[list[SeatRow]] = relationship(
        back_populates="table", order_by="SeatRow.index", cascade="all, delete-orphan"
    )
    actions: Mapped[list[ActionRow]] = relationship(
        back_populates="table", order_by="ActionRow.index", cascade="all, delete-orphan"
    )


class SeatRow(Base):
    """One seat of a table: a person (name, token hash), a computer player (bot name) or a bot account's."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("table_id", "index"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    index: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64), default="")
    kind: Mapped[str] = mapped_column(String(8))
    bot: Mapped[str | None] = mapped_column(String(64), default=None)
    token_hash: Mapped[str | None] = mapped_column(String(64), default=None, index=True)
    taken: Mapped[bool] = mapped_column(Boolean, default=False)
    #: The bot account holding a ``remote`` seat (the Bot API), and that seat's lost decisions by kind.
    account_id: Mapped[int | None] = mapped_column(Integer, default=None, index=True)
    failures: Mapped[dict[str, int] | None] = mapped_column(JSON, default=None)
    #: The person's account holding the seat, when they played signed in (``cardtable.store.people``).
    person_id: Mapped[int | None] = mapped_column(Integer, default=None, index=True)

    table: Mapped[TableRow] = relationship(back_populates="seats")


class ActionRow(Base):
    """One accepted action: its position in the record, the seat and the action as JSON."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("table_id", "index"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    index: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    table: Mapped[TableRow] = relationship(back_populates="actions")


class LeaseRow(Base):
    """Which server process drives a table, until when (renewed while it lives)."""

    __tablename__ = "leases"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64), index=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
