"""The Kaiser core: one truth with the Python engine on every option set, its players, planted defects, bad input.

``cardtable.vector.check_kaiser`` compares at every decision the whole state, the legal ids, the
encodings, the rewards, the done flags and the built-in players' choices (see ``lockstep``). Here
it runs over every ``KaiserOptions`` value (4 floors × both no-trump settings × 3 targets), both
reward modes, more than 100,000 decisions; then whole games of each built-in player alone, and
games ended by a lowered hand cap; then with defects planted in the core and in the Python engine,
each of which must make it fail.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import cardtable
import cardtable.vector as vector
from cardtable.core.options import options_to_dict
from cardtable.games.kaiser import rules
from cardtable.games.kaiser.encoding import ENCODING
from cardtable.vector.check import Mismatch
from cardtable.vector.check_kaiser import check, option_sets, verdicts_module
from tests.vector.helpers import (
    assert_gymnasium_steps_and_replaces_finished_games,
    assert_pettingzoo_is_cardtable_rl,
    replayed_batch_games,
)

GAME = cardtable.load_game("kaiser")


def test_every_option_set_plays_the_same_games_on_both_sides() -> None:
    sets = option_sets()
    assert len(sets) == 4 * 2 * 3
    decisions = games = 0
    ends: Counter[str] = Counter()
    for k, options in enumerate(sets):
        tally = check(options, seed=7919 * k, num_envs=8, steps=525, rewards=("game", "round")[k % 2], policy_seed=k)
        decisions += tally.decisions
        games += tally.games
        ends += tally.ends
    assert decisions >= 100_000
    assert games > 150  # whole games, each replaced by its env's next one
    assert ends["made"] > 300 and ends["set"] > 1000 and ends["target"] > 30 and ends["fell"] > 30


@pytest.mark.parametrize(("policy", "options"), [(1, {"target": 32}), (2, {"floor": 5, "no_trump": False})])
def test_each_built_in_player_alone_makes_the_python_players_choices(policy: int, options: dict[str, Any]) -> None:
    # Every seat played by one player (heuristic, lowest), whole games: its choice is the Python bot's at every
    # decision (the check compares them). With the heuristic and seed 1 both sides reach 32 in the same hand.
    tally = check(GAME.options(**options), seed=1, num_envs=8, steps=700, schedule=(policy,), all_seats_every=0)
    assert tally.games >= 8
    if policy == 1:
        assert tally.ends["both"] >= 1


def test_games_ended_by_the_hand_cap_agree() -> None:
    # With the cap lowered to one hand every game ends by it, level (all four win) or ahead, as after 200 hands.
    tally = check(GAME.options(floor=5), seed=1, num_envs=16, steps=40, rewards="round", hand_cap=1, schedule=(1,))
    assert tally.ends["cap level"] >= 1 and tally.ends["cap"] >= 10
    assert verdicts_module().HAND_CAP == 200  # restored


# Planted defects: the check must fail on each.


@pytest.mark.parametrize(("defect", "what"), [(1, "totals"), (2, "points")])
def test_a_defect_planted_in_the_core_is_caught(defect: int, what: str) -> None:
    # 1: a no-trump contract is not doubled; 2: the 3♠ costs nothing.
    with pytest.raises(Mismatch, match=f"{what} differs"):
        check(GAME.options(), seed=1, num_envs=16, steps=300, defect=defect)


def test_a_scoring_defect_planted_in_the_python_engine_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules, "trick_points", lambda cards: 1)  # no 5♥ bonus, no 3♠ cost in the Python engine
    with pytest.raises(Mismatch, match="points differs"):
        check(GAME.options(), seed=1, num_envs=16, steps=300)


def test_a_trick_defect_planted_in_the_python_engine_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules, "trick_winner", lambda trick, trump: trick[0][0])  # the leader always wins
    with pytest.raises(Mismatch, match="differs"):
        check(GAME.options(), seed=1, num_envs=16, steps=300)


def test_the_check_itself_passes_on_the_unbroken_engines_with_the_same_settings() -> None:
    # The same runs as the defect tests, nothing planted: they pass, so the failures above come from the defects.
    tally = check(GAME.options(), seed=1, num_envs=16, steps=300)
    assert sum(tally.ends.values()) > 50


# The batch API on Kaiser.


def test_shapes_seeds_and_a_batch_game_replayed_as_a_record() -> None:
    env = vector.make("kaiser", num_envs=3, seed=42, target=32, rewards="round")
    obs, mask, _ = env.reset()
    assert (obs.shape, mask.shape, env.rewards.shape) == ((3, 348), (3, 49), (3, 4))
    assert env.obs_shape == ENCODING.shape(env.options) and env.policies == ("random", "heuristic", "lowest")
    for i, state, earned, seed in replayed_batch_games(GAME, ENCODING, env, options_to_dict(env.options), 4):
        assert earned == [state.totals[s & 1] for s in range(4)]  # round rewards add up
        assert env.seeds()[i] == seed + 3  # game k of env i: seed + i + k * num_envs


def test_an_illegal_action_names_the_env_and_the_action_and_changes_nothing() -> None:
    env = vector.make("kaiser", num_envs=4, seed=3)
    env.reset()
    actions = env.sample()
    actions[2] = 45  # naming trump during the bidding
    before = ([env.state(i) for i in range(4)], env.obs.copy(), env.mask.copy())
    with pytest.raises(vector.IllegalBatchAction, match=r"^env 2: illegal action 45: trump ♠ is not legal for seat 0"):
        env.step(actions)
    assert before[0] == [env.state(i) for i in range(4)]
    assert (before[1] == env.obs).all() and (before[2] == env.mask).all()


def test_bad_options_are_refused_by_name() -> None:
    with pytest.raises(cardtable.core.errors.InvalidOptions):
        vector.make("kaiser", num_envs=2, floor=4)
    with pytest.raises(ValueError, match="rewards must be"):
        vector.make("kaiser", num_envs=2, rewards="hand")


def test_the_pettingzoo_view_is_cardtable_rl_on_the_same_seed() -> None:
    assert_pettingzoo_is_cardtable_rl("kaiser", (1, 2), rewards="round", target=32)


def test_the_gymnasium_view_steps_and_replaces_finished_games() -> None:
    env = vector.gymnasium_env("kaiser", num_envs=4, seed=2, target=32)
    assert_gymnasium_steps_and_replaces_finished_games(
        env, 2, 1500, ([1.0, -1.0, 1.0, -1.0], [-1.0, 1.0, -1.0, 1.0], [0.0] * 4))


def test_the_conformance_option_sets_through_make_play_the_same_games() -> None:
    from tests.conformance.cases_kaiser import CASES

    for k, case in enumerate(CASES):
        env = vector.make("kaiser", num_envs=2, **case)
        tally = check(env.options, seed=31 * k, num_envs=4, steps=120, policy_seed=k)
        assert tally.decisions == 480
