"""Game review: each decision of a seat in a finished game, its options' values from what the seat knew.

``review_record(game, record, seat)`` is the whole review; ``docs/review.md`` describes the method,
each game's value and the mistake and blunder thresholds.
"""

from cardtable.review.engine import (
    DEFAULT_BUDGET,
    MAX_BUDGET,
    METHOD,
    MIN_BUDGET,
    DecisionReview,
    GameReview,
    OptionValue,
    ReviewError,
    ReviewPlan,
    assemble_json,
    check_budget,
    plan_review,
    review_chunk,
    review_decision,
    review_position,
    review_record,
)
from cardtable.review.values import ReviewSpec, reviewable_games, spec_for

__all__ = [
    "DEFAULT_BUDGET", "MAX_BUDGET", "METHOD", "MIN_BUDGET", "DecisionReview", "GameReview", "OptionValue",
    "ReviewError", "ReviewPlan", "ReviewSpec", "assemble_json", "check_budget", "plan_review", "review_chunk",
    "review_decision", "review_position", "review_record", "reviewable_games", "spec_for",
]
