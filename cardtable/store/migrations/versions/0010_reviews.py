"""Finished games' reviews, shared by the server processes (issue 34; ``cardtable.store.reviews``).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``reviews``."""
    op.create_table(
        "reviews",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("budget", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("body", sa.JSON(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("table_id", "seat", "budget"),
    )
    op.create_index("ix_reviews_table_id", "reviews", ["table_id"])


def downgrade() -> None:
    """Drop ``reviews``."""
    op.drop_index("ix_reviews_table_id", table_name="reviews")
    op.drop_table("reviews")
