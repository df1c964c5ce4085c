"""Standings math: intervals, places, wins with ties and partnerships, head-to-head, ratings in game order."""

from __future__ import annotations

import math

import pytest

from cardtable.arena.play import ERROR, FINISHED, GameResult
from cardtable.arena.standings import head_to_head, mean_interval, places, rate, standings, wilson_interval


def result(index: int, seating: tuple[str, ...], scores: list[float], winners: list[int], *,
           status: str = FINISHED, failures: dict[int, dict[str, int]] | None = None) -> GameResult:
    """A finished (or failed) game as the arena stores it."""
    if status != FINISHED:
        return GameResult(index, index, 0, seating, status, {}, error="engine failed", failures=failures or {})
    return GameResult(index, index, 0, seating, status, {}, scores, winners, "done", failures=failures or {})


def test_wilson_interval_matches_the_published_formula() -> None:
    # Reference values (Wilson 1927; e.g. Newcombe 1998, table I): 0/10 → [0, 0.2775], 5/10 → [0.2366, 0.7634].
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson_interval(5, 10)
    assert (lo, hi) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))
    lo, hi = wilson_interval(10, 10)
    assert lo == pytest.approx(0.7225, abs=1e-4) and hi == pytest.approx(1.0)


def test_wilson_interval_narrows_with_more_games_and_accepts_shared_wins() -> None:
    small, large = wilson_interval(5, 10), wilson_interval(500, 1000)
    assert large[1] - large[0] < small[1] - small[0]
    lo, hi = wilson_interval(2.5, 5)  # ties share the win: fractional successes
    assert lo < 0.5 < hi and math.isclose(lo + hi, 1.0)


def test_mean_interval_is_mean_plus_minus_1_96_standard_errors() -> None:
    lo, hi = mean_interval([1.0, 2.0, 3.0, 4.0])  # type: ignore[misc]
    half = 1.959963984540054 * math.sqrt((2.25 + 0.25 + 0.25 + 2.25) / 3 / 4)
    assert (lo, hi) == (pytest.approx(2.5 - half), pytest.approx(2.5 + half))
    assert mean_interval([3.0]) is None


def test_places_put_winners_first_then_scores_with_shared_places() -> None:
    game = result(0, ("a", "b", "c", "d"), [10, 30, 20, 20], [0])
    assert places(game) == {"a": 1, "b": 2, "c": 3, "d": 3}


def test_an_entry_that_forfeited_comes_last_whatever_its_score() -> None:
    game = GameResult(0, 0, 0, ("a", "b", "c"), FINISHED, {}, [50, 10, 20], [2], "done", forfeited=[0])
    assert places(game) == {"c": 1, "b": 2, "a": 3}
    nobody = GameResult(1, 1, 0, ("a", "b"), FINISHED, {}, [50, 10], [], "done", forfeited=[0])
    assert places(nobody) == {"b": 2, "a": 3}


def test_a_partnership_win_counts_once_for_the_entry_holding_both_seats() -> None:
    # Mus-like: pair (0, 2) is "a", pair (1, 3) is "b"; the pair of "a" wins.
    games = [result(0, ("a", "b", "a", "b"), [40, 12, 40, 12], [0, 2]),
             result(1, ("b", "a", "b", "a"), [40, 20, 40, 20], [0, 2])]
    table = standings([("a", "x"), ("b", "y")], games)["standings"]
    assert table["a"]["games"] == 2 and table["a"]["wins"] == 1.0 and table["b"]["wins"] == 1.0
    assert table["a"]["mean_score"] == 30.0 and table["b"]["mean_score"] == 26.0


def test_a_tie_shares_the_win_and_errors_are_counted_but_not_played() -> None:
    games = [result(0, ("a", "b"), [5, 5], [0, 1]),
             result(1, ("b", "a"), [0, 9], [1], failures={0: {"timeout": 2}}),
             result(2, ("a", "b"), [], [], status=ERROR, failures={1: {"crashed": 1}})]
    out = standings([("a", "x"), ("b", "y")], games)
    a, b = out["standings"]["a"], out["standings"]["b"]
    assert (a["games"], a["wins"], a["win_share"]) == (2, 1.5, 0.75)
    assert (b["games"], b["wins"], b["failures"]) == (2, 0.5, {"crashed": 1, "timeout": 2})
    assert a["error_games"] == b["error_games"] == 1
    assert out["played"] == 2 and [e["game"] for e in out["errors"]] == [2]


def test_head_to_head_counts_who_placed_ahead_in_games_both_played() -> None:
    games = [result(0, ("a", "b", "c"), [3, 2, 1], [0]),
             result(1, ("c", "a", "b"), [3, 2, 1], [0]),
             result(2, ("a", "b", "c"), [1, 1, 0], [0, 1])]
    table = head_to_head(["a", "b", "c"], games)
    assert table["a"]["b"] == {"games": 3, "wins": 2.5, "share": pytest.approx(2.5 / 3, abs=1e-6)}
    assert table["b"]["a"]["wins"] == 0.5
    assert table["c"]["a"]["wins"] == 1.0 and table["a"]["c"]["wins"] == 2.0


def test_ratings_follow_game_order_whatever_the_order_results_arrive_in() -> None:
    games = [result(i, ("a", "b") if i % 2 else ("b", "a"), [1, 0], [0]) for i in range(8)]
    forward, history = rate([("a", "x"), ("b", "y")], games)
    backward, _ = rate([("a", "x"), ("b", "y")], list(reversed(games)))
    assert forward == backward
    assert [h["game"] for h in history] == list(range(8))
    assert forward["a"]["sigma"] < 25 / 3  # it learnt something
    equal_record = forward["a"]["mu"] - forward["b"]["mu"]
    assert abs(equal_record) < 2.0  # four wins each: no one far ahead


def test_the_stronger_entry_gets_the_higher_rating() -> None:
    games = [result(i, ("a", "b"), [1, 0], [0]) for i in range(10)]
    ratings, _ = rate([("a", "x"), ("b", "y")], games)
    assert ratings["a"]["ordinal"] > ratings["b"]["ordinal"]
    assert ratings["a"]["ordinal"] == pytest.approx(ratings["a"]["mu"] - 3 * ratings["a"]["sigma"], abs=1e-5)
