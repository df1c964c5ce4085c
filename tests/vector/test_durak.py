"""The Durak core: one truth with the Python engine on every option set, its players, planted defects, bad input.

``cardtable.vector.check_durak`` compares at every decision the whole state, the legal ids, the
encodings, the rewards, the done flags and the built-in players' choices (see ``lockstep``). Here
it runs over every ``DurakOptions`` value (2–5 players, both player limits, both shuffles, both
deals, both first attackers, both attack caps; the bout limit at 1000, 12 and 1), more than
100,000 decisions; then whole games of each built-in player alone (the 2020 program's endless
game among them); then with defects planted in the core and in the Python engine, each of which
must make it fail.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import cardtable
import cardtable.vector as vector
from cardtable.core import GameRecord, replay
from cardtable.core.options import options_to_dict
from cardtable.games.durak import game as flow
from cardtable.games.durak import state as durak_state
from cardtable.games.durak.encoding import ENCODING
from cardtable.vector.check import Mismatch
from cardtable.vector.check_durak import check, option_sets
from tests.vector.helpers import assert_gymnasium_steps_and_replaces_finished_games, assert_pettingzoo_is_cardtable_rl

GAME = cardtable.load_game("durak")
FIXTURE = Path(__file__).parent.parent / "fixtures" / "reference-log-seed60493-Rick-Morty-Summer.txt"


def test_every_option_set_plays_the_same_games_on_both_sides() -> None:
    sets = option_sets()
    # (3 tables with player_limit 4 + 4 with 5) × 2 shuffles × 2 deals × 2 first attackers × 2 caps, then
    # bout limits 1 and 12 at 2, 3 and 5 players.
    assert len(sets) == 7 * 16 + 2 * 3
    decisions = games = 0
    ends: Counter[str] = Counter()
    for k, options in enumerate(sets):
        tally = check(options, seed=7919 * k, num_envs=8, steps=110, policy_seed=k)
        decisions += tally.decisions
        games += tally.games
        ends += tally.ends
    assert decisions >= 100_000
    assert games > 1000  # whole games, each replaced by its env's next one
    assert ends["fool"] > 300 and ends["bout limit"] > 300 and ends["draw"] > 0  # every way a game ends


@pytest.mark.parametrize(("policy", "options"), [
    (1, {"players": 3}), (2, {"players": 4, "preset": "reference"}), (3, {"players": 5, "attack_cap": "defender_hand"}),
])
def test_each_built_in_player_alone_makes_the_python_players_choices(policy: int, options: dict[str, Any]) -> None:
    # Every seat played by one player (heuristic, scripted, lowest), whole games: its choice is the Python
    # bot's at every decision (the check compares them), and so are the games.
    tally = check(GAME.options(**options), seed=3, num_envs=8, steps=250, schedule=(policy,), all_seats_every=0)
    assert tally.games >= 8


def test_the_2020_programs_endless_game_ends_by_the_bout_limit_on_both_sides() -> None:
    # The default preset, three scripted players and deck number 785 repeat positions for ever (docs/rules/durak.md,
    # "Endless games"): 2680 decisions to the bout limit, 1000.
    tally = check(GAME.options(players=3), seed=785, num_envs=1, steps=2700, schedule=(2,), all_seats_every=0)
    assert tally.ends["bout limit"] == 1


def test_the_reference_game_is_the_published_log_s() -> None:
    # The 2020 program's published game (deck 60493: Rick, Morty, Summer) played by the core's scripted player:
    # its record replays in the Python engine, and the fool is the log's.
    env = vector.make("durak", num_envs=1, seed=60493, players=3, preset="reference", autoreset=False)
    env.reset()
    played = []
    while not env.done[0]:
        seat, action = int(env.player[0]), env.sample("scripted")
        played.append((seat, ENCODING.action_from_id(int(action[0]))))
        env.step(action)
    state, _ = replay(GAME, GameRecord("durak", options_to_dict(env.options), 60493, tuple(played)))
    assert FIXTURE.read_text().rstrip().endswith("Fool: Rick") and state.fool == 0
    assert env.state(0)["fool"] == 0


# Planted defects: the check must fail on each.


@pytest.mark.parametrize(("defect", "what"), [(1, "hands"), (2, "attacker"), (3, "rewards")])
def test_a_defect_planted_in_the_core_is_caught(defect: int, what: str) -> None:
    # 1: the attacker hands over trumps too on a take; 2: the taker attacks next; 3: the last to leave wins.
    with pytest.raises(Mismatch, match=f"{what} differs"):
        check(GAME.options(players=3), seed=1, num_envs=16, steps=400, defect=defect)


def test_a_drawing_order_defect_planted_in_the_python_engine_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = tuple(tuple(tuple(reversed(order)) for order in row) for row in durak_state.REFILL_ORDER[3])
    monkeypatch.setattr(durak_state, "REFILL_ORDER", (*durak_state.REFILL_ORDER[:3], broken,
                                                      *durak_state.REFILL_ORDER[4:]))
    with pytest.raises(Mismatch, match="hands differs"):  # the last in line draws first in the Python engine
        check(GAME.options(players=3), seed=1, num_envs=16, steps=400)


def test_a_winner_defect_planted_in_the_python_engine_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(flow, "first_leavers", lambda left: ())  # nobody ever wins in the Python engine
    with pytest.raises(Mismatch, match="rewards differs"):
        check(GAME.options(players=3), seed=1, num_envs=16, steps=400)


def test_the_check_itself_passes_on_the_unbroken_engines_with_the_same_settings() -> None:
    # The same runs as the defect tests, nothing planted: they pass, so the failures above come from the defects.
    tally = check(GAME.options(players=3), seed=1, num_envs=16, steps=400)
    assert tally.games > 20


# The batch API on Durak.


def test_shapes_seeds_and_a_batch_game_replayed_as_a_record() -> None:
    env = vector.make("durak", num_envs=3, seed=42, players=4, deal="blocks")
    obs, mask, _ = env.reset()
    assert (obs.shape, mask.shape, env.rewards.shape) == ((3, 189 + 5 * 4), (3, 74), (3, 4))
    assert env.obs_shape == ENCODING.shape(env.options) and env.policies == ("random", "heuristic", "scripted",
                                                                                "lowest")
    played: list[list[tuple[int, Any]]] = [[] for _ in range(3)]
    checked = 0
    while checked < 6:
        seeds, actions, seats = env.seeds(), env.sample("heuristic"), env.player.copy()
        _, _, rewards, done, _ = env.step(actions)
        for i in range(3):
            played[i].append((int(seats[i]), ENCODING.action_from_id(int(actions[i]))))
            if done[i]:
                record = GameRecord("durak", options_to_dict(env.options), seeds[i], tuple(played[i]))
                state, _ = replay(GAME, record)
                outcome = GAME.outcome(state)
                assert outcome is not None
                assert rewards[i].tolist() == [1.0 if s in outcome.winners else -1.0 for s in range(4)] or (
                    len(outcome.winners) == 4 and not rewards[i].any())
                assert env.seeds()[i] == seeds[i] + 3  # game k of env i: seed + i + k * num_envs
                played[i] = []
                checked += 1


def test_an_illegal_action_names_the_env_and_the_action_and_changes_nothing() -> None:
    env = vector.make("durak", num_envs=4, players=2, seed=3)
    env.reset()
    actions = env.sample()
    actions[1] = 72  # stop: never legal on an empty table
    before = ([env.state(i) for i in range(4)], env.obs.copy(), env.mask.copy())
    with pytest.raises(vector.IllegalBatchAction, match=r"^env 1: illegal action 72: stop is not legal for seat "):
        env.step(actions)
    assert before[0] == [env.state(i) for i in range(4)]
    assert (before[1] == env.obs).all() and (before[2] == env.mask).all()


def test_options_the_core_does_not_play_are_refused_by_name() -> None:
    with pytest.raises(vector.UnsupportedOptions, match=r"bout_limit=2147483648 \(the core plays 1–2147483647\)"):
        vector.make("durak", num_envs=2, bout_limit=2**31)
    with pytest.raises(ValueError, match="durak scores no rounds"):
        vector.make("durak", num_envs=2, rewards="round")
    with pytest.raises(cardtable.core.errors.InvalidOptions, match="2–4 players"):
        vector.make("durak", num_envs=2, players=5, preset="reference")


def test_the_illegal_action_loses_convention_ends_that_game_only() -> None:
    env = vector.make("durak", num_envs=3, players=3, seed=8, illegal="lose")
    env.reset()
    seeds, seat = env.seeds(), int(env.player[0])
    actions = env.sample()
    actions[0] = 72
    _, _, rewards, done, _ = env.step(actions)
    assert done.tolist() == [True, False, False] and rewards[0].tolist() == [-1.0 if s == seat else 0.0
                                                                              for s in range(3)]
    assert env.seeds()[0] == seeds[0] + 3 and not rewards[1:].any()


def test_the_pettingzoo_view_is_cardtable_rl_on_the_same_seed() -> None:
    assert_pettingzoo_is_cardtable_rl("durak", (1, 2), players=3, preset="reference")


def test_the_gymnasium_view_steps_and_replaces_finished_games() -> None:
    env = vector.gymnasium_env("durak", num_envs=4, players=3, seed=2)
    assert_gymnasium_steps_and_replaces_finished_games(
        env, 2, 400, ([-1.0, -1.0, 1.0], [-1.0, 1.0, 1.0], [-1.0] * 3, [0.0] * 3), sort=True)


def test_the_conformance_option_sets_through_make_play_the_same_games() -> None:
    from tests.conformance.cases_durak import CASES

    for k, case in enumerate(CASES):  # presets through make, as cardtable.load_game("durak").options takes them
        env = vector.make("durak", num_envs=2, **case)
        tally = check(env.options, seed=31 * k, num_envs=4, steps=80, policy_seed=k)
        assert tally.decisions == 320
