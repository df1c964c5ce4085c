"""The arena's tournaments: tournaments, their entries and their finished games (``cardtable/store/tournaments.py``).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30

Before this revision the arena created these tables itself (``create_all``); a database that already has
them keeps them as they are (same schema), so the upgrade creates only what is missing.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the three tournament tables (each only if missing) with their indexes."""
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    if "tournaments" not in existing:
        op.create_table(
            "tournaments",
            sa.Column("id", sa.String(64), primary_key=True),
            sa.Column("game", sa.String(64), nullable=False),
            sa.Column("options", sa.JSON(), nullable=False),
            sa.Column("format", sa.String(16), nullable=False),
            sa.Column("games", sa.Integer(), nullable=False),
            sa.Column("seed", sa.BigInteger(), nullable=False),
            sa.Column("timeout", sa.Float(), nullable=True),
            sa.Column("game_timeout", sa.Float(), nullable=True),
            sa.Column("max_failures", sa.Integer(), nullable=True),
            sa.Column("status", sa.String(16), nullable=False),
            sa.Column("results", sa.JSON(), nullable=True),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        )
        op.create_index("ix_tournaments_status", "tournaments", ["status"])
    if "tournament_entries" not in existing:
        op.create_table(
            "tournament_entries",
            sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
            sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                      nullable=False),
            sa.Column("position", sa.Integer(), nullable=False),
            sa.Column("name", sa.String(64), nullable=False),
            sa.Column("spec", sa.Text(), nullable=False),
            sa.UniqueConstraint("tournament_id", "position"),
            sa.UniqueConstraint("tournament_id", "name"),
        )
        op.create_index("ix_tournament_entries_tournament_id", "tournament_entries", ["tournament_id"])
    if "tournament_games" not in existing:
        op.create_table(
            "tournament_games",
            sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
            sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                      nullable=False),
            sa.Column("index", sa.Integer(), nullable=False),
            sa.Column("deal", sa.Integer(), nullable=False),
            sa.Column("seed", sa.BigInteger(), nullable=False),
            sa.Column("seating", sa.JSON(), nullable=False),
            sa.Column("status", sa.String(16), nullable=False),
            sa.Column("error", sa.Text(), nullable=True),
            sa.Column("scores", sa.JSON(), nullable=True),
            sa.Column("winners", sa.JSON(), nullable=True),
            sa.Column("reason", sa.Text(), nullable=True),
            sa.Column("failures", sa.JSON(), nullable=False),
            sa.Column("forfeited", sa.JSON(), nullable=False),
            sa.Column("record", sa.JSON(), nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.UniqueConstraint("tournament_id", "index"),
        )
        op.create_index("ix_tournament_games_tournament_id", "tournament_games", ["tournament_id"])


def downgrade() -> None:
    """Drop the tournament tables."""
    op.drop_table("tournament_games")
    op.drop_table("tournament_entries")
    op.drop_table("tournaments")
