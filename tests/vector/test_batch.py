"""The batch API: make/reset/step, shapes and dtypes, auto-reset and seeds, built-in policies, bad input, replay."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

import cardtable
import cardtable.vector as vector
from cardtable.core.errors import InvalidOptions
from cardtable.games.crazy_eights.encoding import ENCODING
from cardtable.games.crazy_eights.players.heuristic import HeuristicBot
from cardtable.vector import cores
from tests.vector.helpers import assert_heuristic_policy_is_the_bot, replayed_batch_games

GAME = cardtable.load_game("crazy_eights")


def snapshot(env: vector.BatchEnv) -> Any:
    """Everything a step could change: every state, every buffer, the seeds."""
    return ([env.state(i) for i in range(env.num_envs)], env.obs.copy(), env.mask.copy(), env.player.copy(),
            env.seeds())


def test_shapes_dtypes_and_the_first_observations() -> None:
    env = vector.make("crazy_eights", num_envs=5, players=3, seed=10)
    obs, mask, player = env.reset()
    assert (obs.shape, obs.dtype, mask.shape, mask.dtype, player.shape, player.dtype) == (
        (5, 178), np.uint8, (5, 70), np.int8, (5,), np.int32)
    assert env.obs_shape == ENCODING.shape(env.options) and env.num_actions == 70
    for i in range(5):
        state, _ = GAME.new(env.options, 10 + i)  # env i's first game: seed + i
        assert player[i] == state.turn
        assert obs[i].tobytes() == ENCODING.features(state, state.turn)
        assert np.flatnonzero(mask[i]).tolist() == ENCODING.legal_ids(state, state.turn)
    _, _, rewards, done, _ = env.step(env.sample())
    assert (rewards.shape, rewards.dtype, done.shape, done.dtype) == ((5, 3), np.float32, (5,), np.bool_)


def test_auto_reset_deals_each_envs_next_seed_and_rewards_the_finished_game() -> None:
    env = vector.make("crazy_eights", num_envs=4, players=2, rounds=1, seed=100)
    env.reset()
    finished = 0
    for _ in range(400):
        before = env.seeds()
        _, _, rewards, done, player = env.step(env.sample())
        for i in np.flatnonzero(done):
            finished += 1
            assert env.seeds()[i] == before[i] + 4  # game k of env i: seed + i + k * num_envs
            assert sorted(rewards[i].tolist()) in ([-1.0, 1.0], [0.0, 0.0])
            fresh, _ = GAME.new(env.options, env.seeds()[i])
            assert player[i] == fresh.turn and env.state(i)["round_actions"] == 0
        for i in np.flatnonzero(~done):
            assert env.seeds()[i] == before[i] and not rewards[i].any()
    assert finished > 10


def test_a_batch_game_replays_in_the_python_engine_as_a_record() -> None:
    env = vector.make("crazy_eights", num_envs=3, players=4, rounds=3, seed=42, rewards="round")
    env.reset()
    for _, state, earned, _ in replayed_batch_games(GAME, ENCODING, env, {"players": 4, "rounds": 3}, 6):
        assert earned == [-t for t in state.totals]  # round rewards add up to minus the totals


def test_the_heuristic_policy_is_the_heuristic_bot() -> None:
    env = vector.make("crazy_eights", num_envs=16, players=3, seed=5)
    env.reset()
    assert_heuristic_policy_is_the_bot(GAME, ENCODING, env, HeuristicBot(), 60)


def test_random_policy_picks_only_legal_ids_and_play_runs_whole_games_in_c() -> None:
    env = vector.make("crazy_eights", num_envs=8, players=4, seed=1)
    env.reset()
    for _ in range(50):
        actions = env.sample()
        assert all(env.mask[i, a] == 1 for i, a in enumerate(actions))
        env.step(actions)
    decisions, ended = env.play(500, "heuristic")
    assert decisions == 4000 and ended > 0
    for i in range(8):  # the buffers describe the states reached
        state = env.state(i)
        assert env.player[i] == state["turn"] and env.mask[i].tolist() == np.isin(range(70), env.legal_ids(i)).tolist()


def test_play_writes_or_skips_the_observations_and_plays_the_same_games() -> None:
    a, b = (vector.make("crazy_eights", num_envs=4, players=2, seed=9) for _ in range(2))
    a.reset()
    b.reset()
    assert a.play(300, encode=True) == b.play(300, encode=False)
    assert [a.state(i) for i in range(4)] == [b.state(i) for i in range(4)]
    assert (a.obs == b.obs).all() and (a.mask == b.mask).all()


# Bad input.


def test_an_illegal_action_names_the_env_and_the_action_and_changes_nothing() -> None:
    env = vector.make("crazy_eights", num_envs=4, players=4, seed=3)
    env.reset()
    env.step(env.sample())
    actions = env.sample()
    wrong = 68 if env.mask[2, 68] == 0 else 69
    actions[2] = wrong
    before = snapshot(env)
    with pytest.raises(vector.IllegalBatchAction, match=rf"^env 2: illegal action {wrong}: .* is not legal for seat "
                                                        rf"{env.player[2]} now \(legal: ") as info:
        env.step(actions)
    assert (info.value.env, info.value.action) == (2, wrong)
    assert isinstance(info.value, ValueError)
    after = snapshot(env)
    assert before[0] == after[0] and before[4] == after[4]
    assert all((x == y).all() for x, y in zip(before[1:4], after[1:4]))


@pytest.mark.parametrize("bad", [-1, 70, 6, 2**40])  # outside the space; 6 (an eight's plain id) is never used
def test_ids_outside_the_space_or_unused_are_refused(bad: int) -> None:
    env = vector.make("crazy_eights", num_envs=2, seed=1)
    env.reset()
    actions = env.sample()
    actions[1] = bad
    before = snapshot(env)
    with pytest.raises(vector.IllegalBatchAction, match=f"^env 1: illegal action {bad}"):
        env.step(actions)
    assert snapshot(env)[0] == before[0]


def test_illegal_loses_ends_that_game_only() -> None:
    env = vector.make("crazy_eights", num_envs=3, players=3, seed=8, illegal="lose")
    env.reset()
    seat, seeds = int(env.player[1]), env.seeds()
    others = [env.state(0), env.state(2)]
    actions = env.sample()
    good = actions.copy()
    actions[1] = 69 if env.mask[1, 69] == 0 else 68
    _, _, rewards, done, _ = env.step(actions)
    assert done.tolist() == [False, True, False]
    assert rewards[1].tolist() == [-1.0 if s == seat else 0.0 for s in range(3)]
    assert env.seeds() == [seeds[0], seeds[1] + 3, seeds[2]]  # env 1 deals its next game
    ref = vector.make("crazy_eights", num_envs=3, players=3, seed=8)
    ref.reset()
    ref.step(good)
    assert [env.state(0), env.state(2)] == [ref.state(0), ref.state(2)] != others


@pytest.mark.parametrize(("actions", "message"), [
    (np.zeros(3, np.int64), r"shape \(4,\)"),
    (np.zeros((4, 1), np.int64), r"shape \(4,\)"),
    (np.zeros(4, np.float64), "integer action ids"),
    (np.zeros(4, np.bool_), "integer action ids"),
    ([0.5, 1, 2, 3], "integer action ids"),
    ("draw", "shape"),
])
def test_wrong_shapes_and_dtypes_are_refused_clearly(actions: Any, message: str) -> None:
    env = vector.make("crazy_eights", num_envs=4, seed=1)
    env.reset()
    before = snapshot(env)
    with pytest.raises(ValueError, match=message):
        env.step(actions)
    assert snapshot(env)[0] == before[0]


def test_other_integer_dtypes_and_lists_are_taken() -> None:
    a, b = (vector.make("crazy_eights", num_envs=4, seed=2) for _ in range(2))
    a.reset()
    b.reset()
    actions = a.sample()
    a.step(actions.astype(np.int16))
    b.step(actions.tolist())
    assert [a.state(i) for i in range(4)] == [b.state(i) for i in range(4)]


def test_bad_arguments_to_make_and_the_loop() -> None:
    with pytest.MonkeyPatch.context() as patch:  # a game without a core
        patch.delitem(cores.CORES, "wizard")
        with pytest.raises(ValueError, match="no compiled core for 'wizard'"):
            vector.make("wizard", num_envs=2)
    with pytest.raises(KeyError):
        vector.make("no_such_game", num_envs=2)
    with pytest.raises(InvalidOptions):
        vector.make("crazy_eights", num_envs=2, colour="red")
    with pytest.raises(InvalidOptions):
        vector.make("crazy_eights", num_envs=2, players=6, hand_size=9)
    for bad in (0, -1, 2.0, True):
        with pytest.raises(ValueError, match="num_envs"):
            vector.make("crazy_eights", num_envs=bad)
    with pytest.raises(ValueError, match="rewards must be 'game' or 'round'"):
        vector.make("crazy_eights", num_envs=2, rewards="points")
    with pytest.raises(ValueError, match="illegal must be 'raise' or 'lose'"):
        vector.make("crazy_eights", num_envs=2, illegal="ignore")
    env = vector.make("crazy_eights", num_envs=2)
    with pytest.raises(ValueError, match="reset"):
        env.step([0, 0])
    env.reset()
    with pytest.raises(ValueError, match="no built-in policy 'greedy': the policies are random, heuristic"):
        env.sample("greedy")
    with pytest.raises(ValueError, match="steps"):
        env.play(-1)
    with pytest.raises(IndexError, match="env index 2"):
        env.state(2)
    kept = vector.BatchEnv("crazy_eights", 2, autoreset=False)
    kept.reset()
    with pytest.raises(ValueError, match="autoreset=True"):
        kept.play(10)
    with pytest.raises(ValueError, match="final_obs"):
        env.step(env.sample(), final_obs=np.zeros((2, 10), np.uint8))


def test_options_the_core_does_not_play_are_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    core = cores.load_core("crazy_eights")
    narrowed = copy.copy(core.SUPPORTED)
    narrowed["rounds"] = (1, 3)
    del narrowed["draw_until_playable"]
    monkeypatch.setattr(core, "SUPPORTED", narrowed)
    with pytest.raises(cores.UnsupportedOptions, match=r"rounds=5 \(the core plays 1, 3\)") as info:
        vector.make("crazy_eights", num_envs=2, rounds=5, draw_until_playable=False)
    assert "draw_until_playable=False (the core knows only its default True)" in str(info.value)
    vector.make("crazy_eights", num_envs=2, rounds=3)  # defaults of unknown fields are fine


def test_an_unbuilt_core_says_so_and_how_to_build_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(cores.CORES, "crazy_eights", "cardtable.vector._not_built_here")
    assert "crazy_eights" not in vector.available()
    with pytest.raises(vector.CoreNotBuilt, match=r"not built here .* C compiler .* The Python engines work"):
        vector.make("crazy_eights", num_envs=2)
    assert GAME.new(GAME.options(), 1)  # the Python engine is untouched


def test_a_game_state_takes_under_200_bytes() -> None:
    env = vector.make("crazy_eights", num_envs=10_000, players=6)
    assert env.state_bytes < 200


@pytest.mark.parametrize("name", sorted(cores.CORES))
def test_a_finished_game_kept_shows_no_view_and_no_legal_action(name: str) -> None:
    env = vector.make(name, num_envs=4, seed=3, autoreset=False)
    env.reset()
    for _ in range(5000):
        obs, mask, _, done, player = env.step(env.sample())
        if done.any():
            break
    assert done.any()
    for _ in range(2):  # as it ends, and after a step that ignores its action
        ended = np.flatnonzero(done)
        assert (player[ended] == -1).all() and not obs[ended].any() and not mask[ended].any()
        obs, mask, _, done, player = env.step(env.sample())
        assert done[ended].all()
