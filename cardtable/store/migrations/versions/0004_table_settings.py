"""Table settings (the web table's pace, turn timer and takeovers allowed) kept with the table.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``tables.settings`` (JSON; empty: the defaults)."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("settings", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Drop ``tables.settings``."""
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("settings")
