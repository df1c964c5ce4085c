"""People's accounts, their sessions and the rating ladder (issue 35).

Adds ``people``, ``people_sessions``, ``rated_players``, ``ratings`` and ``rating_results``; ``seats.person_id``
(the account that sat there signed in) and ``bot_accounts.owner_id`` (the person's account owning a bot).
Existing tables, seats and bot accounts are kept as they are: their people were guests, their bots an admin's.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the accounts' and the ladder's tables; add the two owner columns."""
    op.create_table(
        "people",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(24), nullable=False, unique=True),
        sa.Column("name_key", sa.String(64), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("failed_logins", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "people_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("person_id", sa.Integer(), nullable=False, index=True),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rated_players",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(96), nullable=False, unique=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(80), nullable=False, index=True),
    )
    op.create_table(
        "ratings",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("player_id", "game"),
    )
    op.create_index("ix_ratings_game_score", "ratings", ["game", "score"])
    op.create_index("ix_ratings_game_kind_score", "ratings", ["game", "kind", "score"])
    op.create_table(
        "rating_results",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("abandoned", sa.Boolean(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("table_id", "seat"),
    )
    op.create_index("ix_rating_results_player", "rating_results", ["player_id", "game", "id"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("person_id", sa.Integer(), nullable=True))
        batch.create_index("ix_seats_person_id", ["person_id"])
    with op.batch_alter_table("bot_accounts") as batch:
        batch.add_column(sa.Column("owner_id", sa.Integer(), nullable=True))
        batch.create_index("ix_bot_accounts_owner_id", ["owner_id"])


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("bot_accounts") as batch:
        batch.drop_index("ix_bot_accounts_owner_id")
        batch.drop_column("owner_id")
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_person_id")
        batch.drop_column("person_id")
    for table in ("rating_results", "ratings", "rated_players", "people_sessions", "people"):
        op.drop_table(table)
