"""Per-game figures on the ladder: ``rating_results.figures`` and ``ratings.figures`` (issue 35).

A rated game's figures for each seat (Wizard: rounds played and rounds bid exactly) and each player's sums
per game, which a profile shows (Wizard's exact-bid share). Results rated before have none.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add both columns (empty)."""
    with op.batch_alter_table("rating_results") as batch:
        batch.add_column(sa.Column("figures", sa.JSON(), nullable=True))
    with op.batch_alter_table("ratings") as batch:
        batch.add_column(sa.Column("figures", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("ratings") as batch:
        batch.drop_column("figures")
    with op.batch_alter_table("rating_results") as batch:
        batch.drop_column("figures")
