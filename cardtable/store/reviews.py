"""Finished games' reviews (``cardtable.review``), computed once and shared by every server process.

Schema: ``reviews`` (``table_id``, ``seat``, ``budget``: unique together; ``status`` ``running`` or ``done``,
the ``owner`` process computing it, ``body``: the review's JSON once done, ``updated_at``). A running row is a
claim: another process finds it and waits for the body instead of computing the same review again; a claim
not renewed for ``STALE_SECONDS`` (its process died) may be taken over. A done review whose body's ``method``
is not the store's (the valuation changed since it was stored) counts as not done: it is worked out again
and replaces the old one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import JSON, DateTime, Integer, String, UniqueConstraint, delete, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column, sessionmaker

from cardtable.store.models import Base, utcnow

#: A claim older than this (seconds since its owner last wrote it) is taken to be abandoned.
STALE_SECONDS = 600.0


class ReviewRow(Base):
    """One review of one seat of a finished table at one budget: claimed while computed, then its JSON."""

    __tablename__ = "reviews"
    __table_args__ = (UniqueConstraint("table_id", "seat", "budget"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    budget: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    owner: Mapped[str] = mapped_column(String(64))
    body: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


@dataclass(frozen=True)
class Claim:
    """What claiming a review found: ``mine`` (compute it), ``done`` (its ``body``), or ``elsewhere``."""

    state: str
    body: dict[str, Any] | None = None


class ReviewStore:
    """Reads, claims and writes reviews."""

    def __init__(self, engine: Engine, method: int | None = None) -> None:
        """``method``: the valuation a stored body must carry to count as done (None: any)."""
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self._method = method

    def _current(self, row: ReviewRow) -> bool:
        """Whether ``row`` is a finished review of the store's method."""
        if row.status != "done":
            return False
        return self._method is None or (row.body or {}).get("method") == self._method

    def get(self, table_id: str, seat: int, budget: int) -> dict[str, Any] | None:
        """A finished review's JSON (of the store's method), or None."""
        with self._sessions() as session:
            row = session.scalars(select(ReviewRow).where(
                ReviewRow.table_id == table_id, ReviewRow.seat == seat, ReviewRow.budget == budget)).first()
            return row.body if row is not None and self._current(row) else None

    def is_claimed(self, table_id: str, seat: int, budget: int) -> bool:
        """Whether some process is computing this review now."""
        with self._sessions() as session:
            row = session.scalars(select(ReviewRow).where(
                ReviewRow.table_id == table_id, ReviewRow.seat == seat, ReviewRow.budget == budget)).first()
            return row is not None and row.status == "running"

    def claim(self, table_id: str, seat: int, budget: int, owner: str, *, now: datetime | None = None) -> Claim:
        """Claim the computation of a review for ``owner`` unless it is done or another live process has it."""
        now = now or datetime.now(UTC)
        try:
            with self._sessions.begin() as session:
                session.add(ReviewRow(table_id=table_id, seat=seat, budget=budget, status="running", owner=owner,
                                      updated_at=now))
            return Claim("mine")
        except IntegrityError:
            pass
        with self._sessions.begin() as session:
            row = session.scalars(select(ReviewRow).where(
                ReviewRow.table_id == table_id, ReviewRow.seat == seat, ReviewRow.budget == budget)).first()
            if row is None:  # released meanwhile: try once more next time
                return Claim("elsewhere")
            if self._current(row):
                return Claim("done", row.body)
            if row.status == "done":  # of an older method: work it out again
                row.status, row.owner, row.body, row.updated_at = "running", owner, None, now
                return Claim("mine")
            updated = row.updated_at if row.updated_at.tzinfo else row.updated_at.replace(tzinfo=UTC)
            if row.owner == owner or now - updated > timedelta(seconds=STALE_SECONDS):
                row.owner, row.updated_at = owner, now
                return Claim("mine")
            return Claim("elsewhere")

    def save(self, table_id: str, seat: int, budget: int, owner: str, body: dict[str, Any]) -> None:
        """Store a computed review (the claim becomes the finished review)."""
        with self._sessions.begin() as session:
            session.execute(update(ReviewRow).where(
                ReviewRow.table_id == table_id, ReviewRow.seat == seat, ReviewRow.budget == budget,
            ).values(status="done", owner=owner, body=body, updated_at=datetime.now(UTC)))

    def release(self, table_id: str, seat: int, budget: int, owner: str) -> None:
        """Give up a claim (the computation failed): nothing is stored."""
        with self._sessions.begin() as session:
            session.execute(delete(ReviewRow).where(
                ReviewRow.table_id == table_id, ReviewRow.seat == seat, ReviewRow.budget == budget,
                ReviewRow.owner == owner, ReviewRow.status == "running"))
