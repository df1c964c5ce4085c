"""Table status details (version, seat to act, error, outcome, record format) and table leases.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the lobby columns and the format version to tables; create leases."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("version", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("to_act", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("error", sa.Text(), nullable=True))
        batch.add_column(sa.Column("outcome", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("format", sa.Integer(), nullable=False, server_default="1"))
    # Tables stored before this revision: their version is their number of actions.
    op.execute("UPDATE tables SET version = (SELECT COUNT(*) FROM actions WHERE actions.table_id = tables.id)")
    op.create_table(
        "leases",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_leases_owner", "leases", ["owner"])


def downgrade() -> None:
    """Drop leases and the added columns."""
    op.drop_table("leases")
    with op.batch_alter_table("tables") as batch:
        for column in ("format", "outcome", "error", "to_act", "version"):
            batch.drop_column(column)
