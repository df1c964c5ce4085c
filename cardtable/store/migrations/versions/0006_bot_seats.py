"""Seats held by bot accounts, invitations, and when an account was last seen (the Bot API).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``seats.account_id``, ``seats.failures``, ``bot_accounts.seen_at``; create ``bot_invitations``."""
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("account_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("failures", sa.JSON(), nullable=True))
        batch.create_index("ix_seats_account_id", ["account_id"])
    with op.batch_alter_table("bot_accounts") as batch:
        batch.add_column(sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "bot_invitations",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_bot_invitations_table_id", "bot_invitations", ["table_id"])
    op.create_index("ix_bot_invitations_account_id", "bot_invitations", ["account_id"])


def downgrade() -> None:
    """Drop what ``upgrade`` added."""
    op.drop_index("ix_bot_invitations_account_id", "bot_invitations")
    op.drop_index("ix_bot_invitations_table_id", "bot_invitations")
    op.drop_table("bot_invitations")
    with op.batch_alter_table("bot_accounts") as batch:
        batch.drop_column("seen_at")
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_account_id")
        batch.drop_column("failures")
        batch.drop_column("account_id")
