"""Tournaments a server plays at its own live tables (``cardtable/store/live_tournaments.py``).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``live_tournaments`` and ``live_tournament_tables``."""
    op.create_table(
        "live_tournaments",
        sa.Column("tournament_id", sa.String(64), primary_key=True),
        sa.Column("concurrency", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "live_tournament_tables",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.String(64), nullable=False),
        sa.Column("index", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.UniqueConstraint("tournament_id", "index"),
    )
    op.create_index("ix_live_tournament_tables_tournament_id", "live_tournament_tables", ["tournament_id"])


def downgrade() -> None:
    """Drop both."""
    op.drop_index("ix_live_tournament_tables_tournament_id", "live_tournament_tables")
    op.drop_table("live_tournament_tables")
    op.drop_table("live_tournaments")
