"""The Wizard core: one truth with the Python engine on every option set, planted defects caught, heuristic, API.

``cardtable.vector.check_wizard`` compares, at every decision, the whole state, the legal ids, the
encodings, the rewards, the done flags and the heuristic's choices (see its docstring). Here it runs
over every value of every ``WizardOptions`` field (114 option sets, both reward modes, more than
100,000 decisions), then through whole games to the last round; then with defects planted in the
core and in the Python engine, each of which must make it fail.
"""

from __future__ import annotations

import copy
import dataclasses
import typing
import warnings
from collections import Counter
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test

import cardtable
import cardtable.vector as vector
from cardtable.bots import make_bot
from cardtable.core.errors import InvalidOptions
from cardtable.games.wizard import game as flow
from cardtable.games.wizard import rules
from cardtable.games.wizard.encoding import ENCODING
from cardtable.games.wizard.options import RoundsChoice, WizardOptions, WizardTrump
from cardtable.vector import cores
from cardtable.vector.check import Mismatch
from cardtable.vector.check_wizard import check, option_sets
from tests.vector.helpers import (
    assert_heuristic_policy_is_the_bot,
    assert_pettingzoo_is_cardtable_rl,
    replayed_batch_games,
)

GAME = cardtable.load_game("wizard")


# One truth.


def test_the_option_sets_hold_every_value_the_engine_accepts() -> None:
    sets = option_sets()
    assert len(sets) == 4 * 3 * 2 * 2 * 2 + (3 + 4 + 5 + 6)
    accepted = {"players": set(range(GAME.info.min_players, GAME.info.max_players + 1)),
                "rounds": set(typing.get_args(RoundsChoice)), "wizard_trump": set(typing.get_args(WizardTrump)),
                "bids_may_not_equal_tricks": {False, True}, "hidden_bids": {False, True},
                "first_dealer": {-1, *range(GAME.info.max_players)}}
    core = cores.load_core("wizard")
    assert {f.name for f in dataclasses.fields(WizardOptions)} == set(accepted) == set(core.SUPPORTED)
    for name, values in accepted.items():
        assert {getattr(o, name) for o in sets} == values == set(core.SUPPORTED[name])
    assert {(o.players, o.first_dealer) for o in sets if o.first_dealer >= 0} == {
        (p, d) for p in range(3, 7) for d in range(p)}


def test_every_option_set_plays_the_same_games_on_both_sides() -> None:
    decisions = games = 0
    seen: Counter[str] = Counter()
    for k, options in enumerate(option_sets()):
        tally = check(options, seed=7919 * k, num_envs=8, steps=110, rewards=("game", "round")[k % 2], policy_seed=k)
        decisions += tally.decisions
        games += tally.games
        seen += tally.ends
    assert decisions >= 100_000
    assert games > 150  # whole games, each replaced by its env's next one
    # Every rule was played: the dealer naming trump, the sum rule forbidding a bid, hidden bids, rounds without trump.
    assert seen["trump named"] > 100 and seen["bid forbidden"] > 500 and seen["bid hidden"] > 5000
    assert seen["rounds without trump"] > 100 and seen["rounds scored"] > 3000 and seen["exact bids"] > 3000


def test_the_conformance_cases_and_both_presets_play_the_same_games() -> None:
    from tests.conformance.cases_wizard import CASES

    for k, case in enumerate(CASES):  # presets through make, as cardtable.load_game("wizard").options takes them
        options = GAME.options(**case)
        assert vector.make("wizard", num_envs=1, **case).options == options
        check(options, seed=31 * k, num_envs=4, steps=60, rewards=("game", "round")[k % 2])


@pytest.mark.parametrize(("players", "steps"), [(3, 720), (6, 410)])
def test_whole_games_to_the_last_round_agree(players: int, steps: int) -> None:
    # 3 players: 20 rounds, hands up to 20 cards (690 decisions and a trump named now and then); 6 players: 10
    # rounds (390). The last round deals all 60 cards: no trump card.
    tally = check(GAME.options(players=players, hidden_bids=players == 6), seed=players, num_envs=2, steps=steps,
                  rewards="round")
    assert tally.games == 2 and tally.ends["rounds scored"] >= 2 * 60 // players


# Planted defects: the check must fail on each.


@pytest.mark.parametrize(("defect", "what", "options"), [
    (1, "totals", {}),  # an exact bid scores no 20
    (2, "lead", {}),  # a card after a led jester sets no suit to follow
    (3, "legal ids", {"bids_may_not_equal_tricks": True}),  # the sum rule forbids the wrong bid
])
def test_a_defect_planted_in_the_core_is_caught(defect: int, what: str, options: dict[str, Any]) -> None:
    with pytest.raises(Mismatch, match=f"{what} differs"):
        check(GAME.options(players=4, **options), seed=1, num_envs=16, steps=300, defect=defect)


def test_a_scoring_defect_planted_in_the_python_engine_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    exact = rules.round_score
    monkeypatch.setattr(rules, "round_score", lambda bid, tricks: exact(bid, tricks) + (bid == tricks == 0))
    with pytest.raises(Mismatch, match=r"(totals|rewards) differs"):
        check(GAME.options(players=4), seed=1, num_envs=16, steps=300, rewards="round")


def test_a_trick_defect_planted_in_the_python_engine_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = [[list(row) for row in by_lead] for by_lead in rules.STRENGTH]
    for by_lead in broken:
        for lead in range(4):
            by_lead[lead + 1][13 * lead] = 199  # the one of the suit led beats its suit (not trump)
    monkeypatch.setattr(flow, "_STRENGTH", tuple(tuple(tuple(row) for row in by_lead) for by_lead in broken))
    with pytest.raises(Mismatch, match=r"(to_act|tricks|leader|totals) differs"):  # totals: the trick ended a round
        check(GAME.options(players=4), seed=1, num_envs=16, steps=300)


def test_a_legality_defect_planted_in_the_python_engine_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules, "legal_mask", lambda hand, lead: hand)  # nobody has to follow suit
    with pytest.raises(Mismatch, match="legal ids differs"):
        check(GAME.options(players=4), seed=1, num_envs=16, steps=300)


def test_the_check_itself_passes_on_the_unbroken_engines_with_the_same_settings() -> None:
    # The same runs as the defect tests, nothing planted: they pass, so the failures above come from the defects.
    check(GAME.options(players=4), seed=1, num_envs=16, steps=300)
    check(GAME.options(players=4, bids_may_not_equal_tricks=True), seed=1, num_envs=16, steps=300)
    check(GAME.options(players=4), seed=1, num_envs=16, steps=300, rewards="round")


# The batch API on Wizard.


def test_shapes_and_the_first_observations() -> None:
    env = vector.make("wizard", num_envs=5, players=5, seed=10, hidden_bids=True)
    obs, mask, player = env.reset()
    assert (obs.shape, mask.shape, player.shape) == ((5, 196 + 68 * 5), (5, 85), (5,))
    assert env.obs_shape == ENCODING.shape(env.options) and env.num_actions == 85 == ENCODING.fixed_actions
    for i in range(5):
        state, _ = GAME.new(env.options, 10 + i)
        assert player[i] == state.to_act
        assert obs[i].tobytes() == ENCODING.features(state, state.to_act)
        assert np.flatnonzero(mask[i]).tolist() == ENCODING.legal_ids(state, state.to_act)


def test_the_heuristic_policy_is_the_heuristic_bot() -> None:
    env = vector.make("wizard", num_envs=16, players=4, seed=5, bids_may_not_equal_tricks=True)
    env.reset()
    assert_heuristic_policy_is_the_bot(GAME, ENCODING, env, make_bot(GAME, "heuristic"), 150)


def test_a_batch_game_replays_in_the_python_engine_as_a_record() -> None:
    options = {"players": 3, "rounds": 5, "wizard_trump": "dealer_chooses", "first_dealer": 2}
    env = vector.make("wizard", num_envs=3, seed=42, rewards="round", **options)
    env.reset()
    for _, state, earned, _ in replayed_batch_games(GAME, ENCODING, env, options, 6):
        assert earned == list(state.totals)  # round rewards add up to the totals


def test_auto_reset_deals_each_envs_next_seed_and_rewards_the_winners() -> None:
    env = vector.make("wizard", num_envs=4, players=6, rounds=5, seed=100)
    env.reset()
    finished = 0
    for _ in range(400):
        before = env.seeds()
        _, _, rewards, done, player = env.step(env.sample())
        for i in np.flatnonzero(done):
            finished += 1
            assert env.seeds()[i] == before[i] + 4
            assert set(rewards[i].tolist()) <= {-1.0, 1.0} or not rewards[i].any()
            assert player[i] == GAME.new(env.options, env.seeds()[i])[0].to_act
        for i in np.flatnonzero(~done):
            assert not rewards[i].any()
    assert finished > 4


def test_an_illegal_bid_names_the_env_and_the_action_and_changes_nothing() -> None:
    env = vector.make("wizard", num_envs=3, players=4, seed=3)
    env.reset()
    actions = env.sample()
    actions[1] = 62  # a bid of 2 in round 1
    before = [env.state(i) for i in range(3)], env.obs.copy(), env.mask.copy(), env.seeds()
    with pytest.raises(vector.IllegalBatchAction, match=rf"^env 1: illegal action 62: bid 2 is not legal for seat "
                                                        rf"{env.player[1]} now \(legal: 60 bid 0, 61 bid 1\)"):
        env.step(actions)
    assert ([env.state(i) for i in range(3)], env.seeds()) == (before[0], before[3])
    assert (env.obs == before[1]).all() and (env.mask == before[2]).all()


def test_illegal_loses_ends_that_game_only() -> None:
    env = vector.make("wizard", num_envs=3, players=3, seed=8, illegal="lose")
    env.reset()
    seat, seeds = int(env.player[2]), env.seeds()
    actions = env.sample()
    actions[2] = 84 if env.mask[2, 84] == 0 else 0  # naming trump while nobody may, or a card nobody holds
    _, _, rewards, done, _ = env.step(actions)
    assert done.tolist() == [False, False, True]
    assert rewards[2].tolist() == [-1.0 if s == seat else 0.0 for s in range(3)]
    assert env.seeds() == [seeds[0], seeds[1], seeds[2] + 3]


def test_options_the_core_does_not_play_are_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    core = cores.load_core("wizard")
    narrowed = copy.copy(core.SUPPORTED)
    narrowed["rounds"] = ("all", 5)
    del narrowed["hidden_bids"]
    monkeypatch.setattr(core, "SUPPORTED", narrowed)
    with pytest.raises(cores.UnsupportedOptions, match=r"rounds=10 \(the core plays 'all', 5\)") as info:
        vector.make("wizard", num_envs=2, rounds=10, hidden_bids=True)
    assert "hidden_bids=True (the core knows only its default False)" in str(info.value)
    vector.make("wizard", num_envs=2, rounds=5)  # defaults of unknown fields are fine


def test_options_the_game_refuses_are_refused() -> None:
    for bad in ({"players": 7}, {"players": 4, "first_dealer": 4}, {"rounds": 7}, {"wizard_trump": "random"}):
        with pytest.raises(InvalidOptions):
            vector.make("wizard", num_envs=2, **bad)


def test_a_game_state_takes_under_200_bytes() -> None:
    env = vector.make("wizard", num_envs=10_000, players=6)
    assert env.state_bytes < 200


# The views.


def test_the_pettingzoo_view_is_cardtable_rl_on_the_same_seed() -> None:
    options = {"players": 4, "rounds": 5, "hidden_bids": True, "bids_may_not_equal_tricks": True}
    # every seat's view: hidden bids stay hidden
    assert_pettingzoo_is_cardtable_rl("wizard", (1, 2), every_seat=True, to_the_end=True, rewards="round",
                                      **options)


def test_pettingzoo_api_test_passes() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "observation is not a NumPy array": a dict, as cardtable.rl's
        api_test(vector.pettingzoo_env("wizard", players=3, rounds=5), num_cycles=200)


def test_gymnasium_vector_env_steps_wizard() -> None:
    env = vector.gymnasium_env("wizard", num_envs=4, players=6, rounds=5, seed=4)
    obs, info = env.reset(seed=4)
    assert obs in env.observation_space
    ended = 0
    for _ in range(200):
        actions = np.array([np.flatnonzero(m)[-1] for m in obs["action_mask"]])
        acting = info["player"]
        obs, reward, terminated, _, info = env.step(actions)
        assert obs in env.observation_space
        assert reward.tolist() == info["rewards"][np.arange(4), acting].tolist()
        ended += int(terminated.sum())
    assert ended > 0
