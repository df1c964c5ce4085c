"""Sealed deals of live tournaments: the secret salt and the published commitment (``live_tournaments``).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``live_tournaments.salt`` and ``live_tournaments.commitment`` (empty for tournaments asked before)."""
    with op.batch_alter_table("live_tournaments") as batch:
        batch.add_column(sa.Column("salt", sa.String(64), nullable=True))
        batch.add_column(sa.Column("commitment", sa.String(64), nullable=True))


def downgrade() -> None:
    """Drop both."""
    with op.batch_alter_table("live_tournaments") as batch:
        batch.drop_column("commitment")
        batch.drop_column("salt")
