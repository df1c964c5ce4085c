"""Rated live tournaments: ``live_tournaments.rated`` (issue 35).

A live tournament asked for with ``"rated": true`` plays rated tables: each game's result moves the ladder
(``cardtable.store.ladder``). Tournaments asked for before are not rated.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``live_tournaments.rated`` (false for every tournament so far)."""
    with op.batch_alter_table("live_tournaments") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("live_tournaments") as batch:
        batch.drop_column("rated")
