"""The learned player sees exactly its seat's encoding, never plays an illegal action, and refuses a misfit table."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable.bots import bot_names, make_bot
from cardtable.bots.learned import LearnedBot, WeightsError, shipped
from cardtable.core.encoding import encoding_for

from .helpers import GAMES, write_random_net


def _play(game: Any, options: Any, seats: dict[int, Any], seed: int, other: random.Random,
          on_decision: Any = None) -> int:
    """One game: ``seats`` bots where given, random play elsewhere; the learned seats' decisions counted."""
    state, _ = game.new(options, seed)
    decisions = 0
    while (seat := game.to_act(state)) is not None:
        legal = game.legal_actions(state, seat)
        if seat in seats:
            obs = game.observe(state, seat)
            if on_decision is not None:
                on_decision(state, seat, obs)
            action = seats[seat].act(obs, legal)
            assert action in legal
            decisions += 1
        else:
            action = other.choice(legal)
        state, _ = game.apply(state, seat, action)
    return decisions


@pytest.mark.parametrize("name", list(GAMES))
def test_the_bot_encodes_exactly_what_the_true_state_encodes(name: str, tmp_path: Path) -> None:
    game = cardtable.load_game(name)
    options = game.options(**GAMES[name])
    enc = encoding_for(game)
    path = write_random_net(tmp_path / "w.npz", name, GAMES[name])
    bot = LearnedBot(game, weights=str(path))
    checked = []

    def check(state: Any, seat: int, obs: Any) -> None:
        x, world = bot.encode(obs)
        assert x.tobytes() == enc.features(state, seat)
        assert enc.legal_bits(world, seat) == enc.legal_bits(state, seat)
        checked.append(seat)

    for seed in range(3):
        _play(game, options, dict.fromkeys(range(options.players), bot), seed, random.Random(seed), check)
    assert len(checked) > 100


@pytest.mark.parametrize("name", list(GAMES))
def test_a_learned_bot_never_plays_an_illegal_action(name: str, tmp_path: Path) -> None:
    game = cardtable.load_game(name)
    options = game.options(**GAMES[name])
    decisions = 0
    seed = 0
    while decisions < 2000:
        path = write_random_net(tmp_path / f"w{seed}.npz", name, GAMES[name], seed=seed)
        bots = {s: make_bot(game, f"learned:weights={path}", seed, options=options) for s in range(options.players)}
        decisions += _play(game, options, bots, 100 + seed, random.Random(seed))
        seed += 1


SHIPPED = [(name, path) for name in GAMES for path, _ in shipped(name)]


@pytest.mark.parametrize(("name", "path"), SHIPPED, ids=[p.name for _, p in SHIPPED])
def test_a_shipped_net_never_plays_an_illegal_action(name: str, path: Path) -> None:
    game = cardtable.load_game(name)
    _, manifest = shipped(name)[[p for p, _ in shipped(name)].index(path)]
    options = game.options(**manifest.options)
    decisions, seed = 0, 0
    while decisions < 2000:
        seats = {s: make_bot(game, "learned", seed, options=options) for s in range(options.players) if s != seed % 2}
        decisions += _play(game, options, seats, 500 + seed, random.Random(seed))
        seed += 1


def test_every_game_ships_a_learned_player() -> None:
    for name in GAMES:
        assert shipped(name), f"no weights ship for {name}"
        assert "learned" in bot_names(cardtable.load_game(name))


def test_a_table_the_shipped_nets_were_not_trained_for_is_refused_by_name() -> None:
    game = cardtable.load_game("crazy_eights")
    trained = {m.players for _, m in shipped("crazy_eights")}
    players = next(n for n in range(2, 9) if n not in trained)
    with pytest.raises(WeightsError, match=rf"no learned player for crazy_eights with .*players={players}.*"
                                           r"the shipped nets play crazy_eights with"):
        make_bot(game, "learned", options=game.options(players=players))


def test_learned_takes_only_the_weights_option() -> None:
    game = cardtable.load_game("durak")
    with pytest.raises(ValueError, match="learned has no option 'sims'"):
        make_bot(game, "learned:sims=3")


def test_the_same_observation_gets_the_same_choice_whatever_the_seed(tmp_path: Path) -> None:
    game = cardtable.load_game("wizard")
    options = game.options()
    path = write_random_net(tmp_path / "w.npz", "wizard", {})
    a, b = (make_bot(game, f"learned:weights={path}", seed) for seed in (1, 2))
    state, _ = game.new(options, 9)
    rng = random.Random(0)
    for _ in range(40):
        seat = game.to_act(state)
        legal = game.legal_actions(state, seat)
        obs = game.observe(state, seat)
        assert a.act(obs, legal) == b.act(obs, legal)
        state, _ = game.apply(state, seat, rng.choice(legal))
