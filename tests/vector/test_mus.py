"""The Mus core: one truth with the Python engine on every option, planted defects caught, and the batch API on Mus.

``cardtable.vector.check_mus`` compares, at every decision, the whole state, the legal ids, the
encodings, the rewards, the done flags, every finished game's outcome and the ``simple`` policy's
choices (see its docstring). Here it runs over ``OPTION_SETS`` (every option of ``MusGameOptions``,
each of its kinds of values: the first test checks that the sets do cover them), both reward modes,
more than 100,000 decisions; then with defects planted in the core and in the Python engine, each of
which must make it fail.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest

import cardtable
import cardtable.vector as vector
from cardtable.core import GameRecord, replay
from cardtable.core.options import option_specs
from cardtable.games.mus.encoding import ENCODING
from cardtable.games.mus.game import MusGame
from cardtable.games.mus.options import MusGameOptions
from cardtable.games.mus.players.simple import SimpleBot
from cardtable.vector import cores
from cardtable.vector.check import Mismatch
from cardtable.vector.check_mus import check, option_sets
from tests.vector.helpers import assert_pettingzoo_is_cardtable_rl

GAME = cardtable.load_game("mus")


def test_the_option_sets_give_every_option_each_kind_of_value() -> None:
    seen: dict[str, set[Any]] = {spec.name: set() for spec in option_specs(MusGameOptions)}
    for options in option_sets():
        for key, value, _ in cores._flat(options, ""):
            seen[key].add(value)
    for spec in option_specs(MusGameOptions):
        values = seen[spec.name]
        if spec.kind == "bool":
            assert values == {True, False}, spec.name
        elif spec.kind == "choice":
            assert values == set(spec.choices or ()), spec.name
        elif spec.name == "players":
            assert values == {4}  # the only value the game accepts
        else:  # ints and the float: the default and at least one other value
            assert spec.default in values and len(values) >= 2, (spec.name, values)
    assert seen["mus.min_discard"] == {1, 2, 3, 4}
    assert {0, 1} <= seen["mus.max_rounds"] and {0.0, 1.0} <= seen["signals.interception_p"]
    assert max(seen["scoring.target"]) == 494  # with raise_rule "double": the largest action space, 1,024 ids


def test_every_option_set_plays_the_same_games_on_both_sides() -> None:
    decisions = games = reshuffles = signals = 0
    results: Counter[str] = Counter()
    ends: Counter[str] = Counter()
    actions: Counter[str] = Counter()
    for k, options in enumerate(option_sets()):
        # Every fourth set gives mus whenever it may, so that decks run out and the discards are reshuffled.
        tally = check(options, seed=7919 * k, num_envs=8, steps=500, rewards=("game", "round")[k % 2], policy_seed=k,
                      mus_always=k % 4 == 3)
        decisions += tally.decisions
        games += tally.games
        reshuffles += tally.reshuffles
        signals += tally.signals
        results += tally.results
        ends += tally.ends
        actions += tally.actions
    assert decisions >= 100_000
    assert games > 3000 and reshuffles > 100 and signals > 1000
    # Every way a lance closes, every reason a game ends, every kind of action (the postre's "quiero y no
    # pierdo" with 33 against an órdago a juego is rare: three times in these games).
    assert set(results) == {"closed_accepted", "closed_rejected", "closed_passed", "ordago_showdown", "skipped",
                            "none"}
    assert set(ends) == {"órdago", "envite", "deje", "negada", "en paso", "pares", "juego", "punto"}
    assert set(actions) == {"Mus", "CutMus", "Discard", "Pass", "Bet", "Raise", "Accept", "AcceptNoLose", "Reject",
                            "Ordago", "Signal"}


# Planted defects: the check must fail on each.

SHORT = {"scoring.target": 10}


@pytest.mark.parametrize(("defect", "what", "mus_always"), [
    (1, "tanteo", False),           # a juego of 31 scores as any other juego
    (2, "rng", True),               # the deck rebuilt from the discards is not shuffled
    (4, "phase", False),            # the first "no quiero" closes the lance (FEM VI.4: the partner answers too)
    (5, "tanteo", False),           # a par scores 2
])
def test_a_defect_planted_in_the_core_is_caught(defect: int, what: str, mus_always: bool) -> None:
    with pytest.raises(Mismatch, match=f"{what} differs"):
        check(GAME.options(**SHORT), seed=1, num_envs=16, steps=400, defect=defect, mus_always=mus_always)


def test_the_postre_holding_33_planted_as_a_plain_accept_in_the_core_is_caught() -> None:
    # Defect 3: the postre with 33 against an órdago a juego is offered "quiero", not "quiero y no pierdo".
    # Rare in play: these seeds reach it at step 81 (env 14).
    with pytest.raises(Mismatch, match=r"step 81, env 14 .* the legal ids differs: core \[18, 20\], Python "
                                       r"engine \[19, 20\]"):
        check(GAME.options(), seed=80, num_envs=16, steps=90, defect=3, policy_every=0, all_seats_every=0)


def test_a_scoring_defect_planted_in_the_python_engine_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    bonus = MusGame._bonus

    def medias_pay_one_more(self: MusGame, s: Any, values: Any, lance: Any, pair: int) -> int:
        extra = sum(values[x].pares_kind == 2 for x in (pair, pair + 2)) if lance == "pares" else 0
        return bonus(self, s, values, lance, pair) + extra

    monkeypatch.setattr(MusGame, "_bonus", medias_pay_one_more)
    with pytest.raises(Mismatch, match=r"(tanteo|rewards) differs"):
        check(GAME.options(**SHORT), seed=1, num_envs=16, steps=400, rewards="round")


def test_a_legality_defect_planted_in_the_python_engine_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    matter = MusGame.tantos_that_matter
    # Bets may go one tanto past what either pair needs in the Python engine only.
    monkeypatch.setattr(MusGame, "tantos_that_matter", lambda self, state: matter(self, state) + 1)
    with pytest.raises(Mismatch, match="legal ids differs"):
        check(GAME.options(**SHORT), seed=1, num_envs=16, steps=400)


def test_the_check_itself_passes_on_the_unbroken_engines_with_the_same_settings() -> None:
    # The same runs as the defect tests, nothing planted: they pass, so the failures above come from the defects.
    check(GAME.options(**SHORT), seed=1, num_envs=16, steps=400)
    check(GAME.options(**SHORT), seed=1, num_envs=16, steps=400, mus_always=True)
    check(GAME.options(**SHORT), seed=1, num_envs=16, steps=400, rewards="round")
    check(GAME.options(), seed=80, num_envs=16, steps=90, policy_every=0, all_seats_every=0)


# The batch API on Mus.


def test_shapes_follow_the_options_action_space() -> None:
    for values, actions in (({}, 56), ({"betting.raise_rule": "double"}, 116), ({"betting.max_bet": 3}, 42)):
        env = vector.make("mus", num_envs=3, seed=2, **values)
        obs, mask, player = env.reset()
        assert obs.shape == (3, 585) and mask.shape == (3, actions) and env.players == 4
        assert actions == ENCODING.num_actions(env.options)
        for i in range(3):
            state, _ = GAME.new(env.options, 2 + i)
            assert player[i] == state.turn and obs[i].tobytes() == ENCODING.features(state, state.turn)
            assert np.flatnonzero(mask[i]).tolist() == ENCODING.legal_ids(state, state.turn)


def test_a_batch_game_replays_in_the_python_engine_as_a_record() -> None:
    options = {"scoring.target": 12, "signals.enabled": True}
    env = vector.make("mus", num_envs=3, seed=42, rewards="round", **options)
    env.reset()
    states = [GAME.new(env.options, s)[0] for s in env.seeds()]
    played: list[list[tuple[int, Any]]] = [[] for _ in range(3)]
    earned = np.zeros((3, 4))
    checked = 0
    while checked < 6:
        seeds, actions, seats = env.seeds(), env.sample("simple"), env.player.copy()
        _, _, rewards, done, _ = env.step(actions)
        earned += rewards
        for i in range(3):
            action = ENCODING.action_from_id(int(actions[i]), states[i])  # a discard's id needs the hand
            played[i].append((int(seats[i]), action))
            states[i] = GAME.apply(states[i], int(seats[i]), action)[0]
            if done[i]:
                state, _ = replay(GAME, GameRecord("mus", options, seeds[i], tuple(played[i])))
                assert GAME.outcome(state) is not None
                assert earned[i].tolist() == [float(state.tanteo[x & 1]) for x in range(4)]  # rewards add up
                played[i], earned[i] = [], 0
                states[i] = GAME.new(env.options, env.seeds()[i])[0]
                checked += 1


def test_the_simple_policy_is_the_simple_bot() -> None:
    env = vector.make("mus", num_envs=16, seed=5, **{"scoring.target": 15})
    env.reset()
    bot = SimpleBot()
    states = [GAME.new(env.options, s)[0] for s in env.seeds()]
    assert env.policies == ("random", "simple")
    for _ in range(150):
        actions = env.sample("simple")
        for i, state in enumerate(states):
            choice = bot.act(GAME.observe(state, state.turn), GAME.legal_actions(state, state.turn))
            assert actions[i] == ENCODING.action_id(choice, state)
        env.step(actions)
        states = [GAME.new(env.options, env.seeds()[i])[0] if env.done[i] else
                  GAME.apply(state, state.turn, ENCODING.action_from_id(int(actions[i]), state))[0]
                  for i, state in enumerate(states)]


def test_play_writes_or_skips_the_observations_and_plays_the_same_games() -> None:
    a, b = (vector.make("mus", num_envs=4, seed=9, **{"scoring.target": 20}) for _ in range(2))
    a.reset()
    b.reset()
    assert a.play(400, "simple", encode=True) == b.play(400, "simple", encode=False)
    assert [a.state(i) for i in range(4)] == [b.state(i) for i in range(4)]
    assert (a.obs == b.obs).all() and (a.mask == b.mask).all()


def test_an_illegal_discard_is_named_in_words_and_changes_nothing() -> None:
    env = vector.make("mus", num_envs=2, seed=3)
    env.reset()
    while env.state(1)["phase"] != "discard":  # give mus until env 1 discards
        actions = env.sample()
        actions[env.mask[:, 0] == 1] = 0
        env.step(actions)
    actions = env.sample()
    actions[1] = 17  # pass: not legal while discarding
    before = ([env.state(i) for i in range(2)], env.obs.copy())
    hand = env.state(1)["hands"][env.player[1]]
    first = cardtable.cards.SPANISH_40.format(hand[:1])
    with pytest.raises(vector.IllegalBatchAction, match=rf"^env 1: illegal action 17: pass is not legal for seat "
                                                        rf"{env.player[1]} now \(legal: 2 discard {first}, "):
        env.step(actions)
    assert before[0] == [env.state(i) for i in range(2)] and (before[1] == env.obs).all()


def test_options_beyond_the_core_are_refused_by_name() -> None:
    with pytest.raises(cores.UnsupportedOptions, match=r"betting\.max_bet: an amount cap of 495 \(the core's action "
                                                       r"space holds amounts up to 494\)"):
        vector.make("mus", num_envs=2, **{"betting.max_bet": 495})
    with pytest.raises(cores.UnsupportedOptions, match=r"scoring\.target \(with betting\.raise_rule='double'\)"):
        vector.make("mus", num_envs=2, **{"scoring.target": 495, "betting.raise_rule": "double"})
    with pytest.raises(cores.UnsupportedOptions, match=r"scoring\.target=10001 \(the core plays 1–10000\); "
                                                       r"mus\.max_rounds=20000 \(the core plays 0–10000\)"):
        vector.make("mus", num_envs=2, **{"scoring.target": 10_001, "mus.max_rounds": 20_000})
    vector.make("mus", num_envs=2, **{"scoring.target": 10_000, "betting.max_bet": 494})  # the largest it plays


def test_a_game_state_takes_under_200_bytes() -> None:
    env = vector.make("mus", num_envs=10_000)
    assert env.state_bytes < 200


def test_the_views_on_mus() -> None:
    assert_pettingzoo_is_cardtable_rl("mus", (1, 2), rewards="round", **{"scoring.target": 10})
    env = vector.gymnasium_env("mus", num_envs=4, seed=3, **{"scoring.target": 10})
    obs, _ = env.reset()
    assert obs in env.observation_space
    for _ in range(50):
        obs, *_ = env.step(np.array([np.flatnonzero(m)[-1] for m in obs["action_mask"]]))
        assert obs in env.observation_space



def test_the_conformance_option_sets_are_among_the_checked_ones_and_go_through_make() -> None:
    from tests.conformance.cases_mus import CASES

    checked = option_sets()
    for case in CASES:  # presets and dotted names through make, as cardtable.load_game("mus").options takes them
        env = vector.make("mus", num_envs=2, **case)
        assert env.options in checked, case
