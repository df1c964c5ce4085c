"""The ladder's reads at size (issue 35: the profile's and the leaderboard's 50 ms p99).

``ix_ratings_game_score`` becomes (game, score, kind, games) and ``ix_ratings_game_kind_score`` (game, kind,
score, games): a leaderboard page's ids are then chosen from the index alone, so the rows an offset skips are
not each read from the table (``Ladder.leaderboard``). ``ix_rating_results_player_recent`` (player_id, id)
gives a profile's recent games without sorting every result of the player (a built-in player's can be most
of the database's).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-06
"""

from __future__ import annotations

from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Rebuild the leaderboard's indexes with the filtered columns; add the recent games' index."""
    op.drop_index("ix_ratings_game_score", table_name="ratings")
    op.drop_index("ix_ratings_game_kind_score", table_name="ratings")
    op.create_index("ix_ratings_game_score", "ratings", ["game", "score", "kind", "games"])
    op.create_index("ix_ratings_game_kind_score", "ratings", ["game", "kind", "score", "games"])
    op.create_index("ix_rating_results_player_recent", "rating_results", ["player_id", "id"])


def downgrade() -> None:
    """Back to the indexes of 0009."""
    op.drop_index("ix_rating_results_player_recent", table_name="rating_results")
    op.drop_index("ix_ratings_game_kind_score", table_name="ratings")
    op.drop_index("ix_ratings_game_score", table_name="ratings")
    op.create_index("ix_ratings_game_score", "ratings", ["game", "score"])
    op.create_index("ix_ratings_game_kind_score", "ratings", ["game", "kind", "score"])
