"""One truth: the compiled core and the Python engine agree on every option set; a planted defect on either side fails.

``cardtable.vector.check`` compares, at every decision, the whole state, the legal ids, the
encodings, the rewards, the done flags and the heuristic's choices (see its docstring). Here it runs
over every valid ``CrazyEightsOptions`` (5 player counts × 4 hand sizes × 2 drawing rules × 3 round
counts, 6 × 9 excepted), both reward modes, more than 100,000 decisions in all; then with a low
safety limit so that rounds end by it; then with defects planted in the core and in the Python
engine, each of which must make it fail.
"""

from __future__ import annotations

from collections import Counter

import pytest

import cardtable
from cardtable.games.crazy_eights import game as flow
from cardtable.vector.check import Mismatch, check, option_sets

GAME = cardtable.load_game("crazy_eights")


def test_every_option_set_plays_the_same_games_on_both_sides() -> None:
    sets = option_sets()
    assert len(sets) == 5 * 4 * 2 * 3 - 2 * 3  # 6 players × 9 cards does not fit: 2 drawing rules × 3 round counts
    decisions = games = 0
    ends: Counter[str] = Counter()
    for k, options in enumerate(sets):
        tally = check(options, seed=7919 * k, num_envs=8, steps=112, rewards=("game", "round")[k % 2], policy_seed=k)
        decisions += tally.decisions
        games += tally.games
        ends += tally.ends
    assert decisions >= 100_000
    assert games > 500  # whole games, each replaced by its env's next one
    # No round reaches the default limit (the next test makes them), and none is blocked: a pass needs nothing
    # to draw (a draw resets the count), so every card but the top one is in a hand, and whoever holds one of
    # the suit in force can play. The core implements the rule all the same (game._pass).
    assert set(ends) == {"out"}


@pytest.mark.parametrize("until", [True, False])
def test_rounds_ended_by_the_safety_limit_agree(until: bool) -> None:
    # With a limit of 25 actions most rounds end by it ("limit"), as ROUND_ACTION_LIMIT would after 2000.
    tally = check(GAME.options(players=3, draw_until_playable=until, rounds=5), seed=11, num_envs=8, steps=300,
                  rewards="round", round_limit=25)
    assert tally.ends["limit"] > 20 and tally.games > 5
    assert flow.ROUND_ACTION_LIMIT == 2000  # restored


# Planted defects: the check must fail on each.


@pytest.mark.parametrize(("defect", "what"), [(1, "totals"), (2, "hands")])
def test_a_defect_planted_in_the_core_is_caught(defect: int, what: str) -> None:
    # defect 1: an ace scores 11 at the round's end; defect 2: the stock rebuilt from the discards is not shuffled.
    with pytest.raises(Mismatch, match=f"{what} differs"):
        check(GAME.options(players=2), seed=1, num_envs=16, steps=500, defect=defect)


def test_a_scoring_defect_planted_in_the_python_engine_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = list(flow.PENALTY)
    broken[12] = 11  # the ace of spades scores 11 in the Python engine only
    monkeypatch.setattr(flow, "PENALTY", tuple(broken))
    with pytest.raises(Mismatch, match=r"(totals|rewards) differs"):
        check(GAME.options(players=2, rounds=5), seed=1, num_envs=16, steps=500, rewards="round")


def test_a_legality_defect_planted_in_the_python_engine_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = list(flow.MATCH)
    broken[0] &= ~(1 << 45)  # on the two of spades in spades, the eight of clubs is not wild in the Python engine
    monkeypatch.setattr(flow, "MATCH", tuple(broken))
    monkeypatch.setattr("cardtable.games.crazy_eights.encoding.MATCH", tuple(broken))
    with pytest.raises(Mismatch, match="legal ids differs"):
        check(GAME.options(players=4), seed=1, num_envs=64, steps=400)


def test_the_check_itself_passes_on_the_unbroken_engines_with_the_same_settings() -> None:
    # The same runs as the defect tests, nothing planted: they pass, so the failures above come from the defects.
    check(GAME.options(players=2), seed=1, num_envs=16, steps=500)
    check(GAME.options(players=2, rounds=5), seed=1, num_envs=16, steps=500, rewards="round")
    check(GAME.options(players=4), seed=1, num_envs=64, steps=400, heuristic_every=0, all_seats_every=0)
