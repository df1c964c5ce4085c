"""``learned_search``: the net proposes, the search overrules it only on clear evidence; legal, reproducible."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardtable
from cardtable.bots import bot_names, make_bot
from cardtable.bots.guided import GUIDED_GAMES, paired_choice
from cardtable.bots.learned import LearnedBot, WeightsError
from cardtable.games.durak import world as durak_world
from cardtable.games.durak.players.endgame import EndgameBot, read_out
from cardtable.games.durak.players.solver import solve

#: Small budgets: the tests check behaviour, not strength.
SMALL = {"crazy_eights": ":sims=100:particles=20", "wizard": ":sims=16", "kaiser": ":sims=40", "durak": ""}
OPTIONS = {"crazy_eights": {}, "wizard": {}, "kaiser": {}, "durak": {"players": 2}}


def _game_actions(name: str, seed: int, bot_seed: int) -> list[Any]:
    """The actions of one game with ``learned_search`` in seat 0 and random play elsewhere (legal checked)."""
    game = cardtable.load_game(name)
    options = game.options(**OPTIONS[name])
    bot = make_bot(game, "learned_search" + SMALL[name], bot_seed, options=options)
    other = random.Random(seed)
    state, _ = game.new(options, seed)
    actions = []
    while (seat := game.to_act(state)) is not None:
        legal = game.legal_actions(state, seat)
        if seat == 0:
            action = bot.act(game.observe(state, seat), legal)
            assert action in legal
        else:
            action = other.choice(legal)
        actions.append(action)
        state, _ = game.apply(state, seat, action)
    return actions


def test_the_net_s_move_stands_unless_another_gains_clearly() -> None:
    noisy = [[0.0, 1.0], [1.0, 0.0], [0.0, 1.2], [1.0, 0.0]]  # column 1 ahead by 0.05, spread about 1
    assert paired_choice(noisy, 0, 1.0) == 0
    assert paired_choice(noisy, 0, 0.0) == 1  # z=0: the best mean wins
    clear = [[0.0, 1.0], [0.1, 1.0], [0.2, 1.1], [0.0, 0.9]]
    assert paired_choice(clear, 0, 3.0) == 1
    assert paired_choice(clear, 1, 3.0) == 1  # the default is already the best
    assert paired_choice([], 1, 1.0) == 1  # no deal scored: the default


@pytest.mark.parametrize("name", GUIDED_GAMES)
def test_learned_search_plays_whole_games_legally_and_the_same_for_the_same_seed(name: str) -> None:
    assert "learned_search" in bot_names(cardtable.load_game(name))
    first = _game_actions(name, seed=3, bot_seed=5)
    assert _game_actions(name, seed=3, bot_seed=5) == first


def test_the_durak_ending_is_solved_and_the_best_ending_kept() -> None:
    game = cardtable.load_game("durak")
    options = game.options(players=2)
    bot = make_bot(game, "learned_search", 0, options=options)
    net = LearnedBot(game)
    endings = overruled = 0
    for seed in range(12):
        state, _ = game.new(options, seed)
        while (seat := game.to_act(state)) is not None:
            legal = game.legal_actions(state, seat)
            obs = game.observe(state, seat)
            action = bot.act(obs, legal) if seat == 0 else legal[0]
            if seat == 0 and len(legal) > 1 and EndgameBot.known_endgame(obs):
                endings += 1
                known = durak_world.sample_world(obs, random.Random(0))
                ranked = [legal[i] for i in net.ranking(obs, legal)]  # the order the bot searches them in
                solved = solve(known, seat, ranked)
                if solved is not None:  # the first best is exact; later ones are searched only to beat it
                    assert action == ranked[solved.index(max(solved))]
                    assert solve(known, seat, [action]) == [max(solved)]
                else:
                    values = [read_out(known, seat, a) for a in ranked]
                    assert action == ranked[values.index(max(values))]
                overruled += action != net.act(obs, legal)
            elif seat == 0:
                assert action == net.act(obs, legal)  # the deck lasts: the net alone
            state, _ = game.apply(state, seat, action)
    assert endings > 20
    assert overruled > 0  # the ending changed some of the net's moves


def _minimax(game: Any, state: Any, seat: int, path: frozenset[Any]) -> float:
    """Plain minimax, no pruning, no memo: the solver's reference (a position repeated on its line is a draw)."""
    actor = game.to_act(state)
    if actor is None:
        return durak_world.game_value(state, seat)
    key = (state.held, state.attacker, state.defender, state.bout, state.left, actor)
    if key in path:
        return 0.0
    values = [_minimax(game, game.apply_unchecked(state, actor, a)[0], seat, path | {key})
              for a in game.legal_actions(state, actor)]
    return max(values) if actor == seat else min(values)


def test_the_solver_agrees_with_plain_minimax_on_small_endings() -> None:
    game = cardtable.load_game("durak")
    options = game.options(players=2)
    checked = 0
    for seed in range(60):
        rng = random.Random(seed)
        state, _ = game.new(options, seed)
        while (seat := game.to_act(state)) is not None:
            obs = game.observe(state, seat)
            legal = game.legal_actions(state, seat)
            if EndgameBot.known_endgame(obs) and sum(obs.hand_counts) <= 6 and len(legal) > 1:
                solved = solve(state, seat, legal)
                assert solved is not None
                exact = [_minimax(game, game.apply_unchecked(state, seat, a)[0], seat, frozenset()) for a in legal]
                assert solved[0] == exact[0] and max(solved) == max(exact)
                checked += 1
                break
            state, _ = game.apply(state, seat, rng.choice(legal))
    assert checked >= 10


@pytest.mark.parametrize(("name", "options"), [("crazy_eights", {"players": 3}), ("wizard", {"players": 5}),
                                               ("durak", {"players": 3}), ("kaiser", {"target": 62})])
def test_a_table_the_net_was_not_trained_for_is_refused_by_name(name: str, options: dict[str, Any]) -> None:
    game = cardtable.load_game(name)
    with pytest.raises(WeightsError, match=f"no learned player for {name} with .*: the shipped nets play {name}"):
        make_bot(game, "learned_search", 0, options=game.options(**options))


@pytest.mark.parametrize(("spec", "message"), [
    ("learned_search:z=abc", "z must be a number"),
    ("learned_search:z=-1", "z must be 0 to 10"),
    ("learned_search:sims=0", "sims must be 1 to"),
    ("learned_search:sims=2.5", "sims must be a whole number"),
    ("learned_search:depth=3", "no option 'depth'"),
])
def test_bad_options_are_refused_in_one_line(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot(cardtable.load_game("kaiser"), spec, 0)
