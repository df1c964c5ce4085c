"""The search bot: options, determinism, the time cap, and a legal move in every game."""

from __future__ import annotations

import json
import random

import pytest

import cardtable
from cardtable.bots import bot_names, make_bot, parse_bot_spec
from cardtable.bots.search import SearchBot

GAMES = ("wizard", "mus", "durak", "kaiser", "crazy_eights")


def _positions(name: str, count: int, seed: int) -> list[tuple[object, int]]:
    """Positions with a real choice (two or more legal actions) from a random game."""
    game = cardtable.load_game(name)
    rng = random.Random(seed)
    state, _ = game.new(game.options(), seed)
    out = []
    while (seat := game.to_act(state)) is not None and len(out) < count:
        legal = game.legal_actions(state, seat)
        if len(legal) > 1:
            out.append((state, seat))
        state, _ = game.apply(state, seat, legal[rng.randrange(len(legal))])
    return out


@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_a_search_bot_that_plays_legal_moves(name: str) -> None:
    game = cardtable.load_game(name)
    assert "search" in bot_names(game)
    bot = make_bot(game, "search:samples=12" if name == "mus" else "search:sims=12", 1)
    positions = _positions(name, 4, 2)
    assert positions
    for state, seat in positions:
        legal = game.legal_actions(state, seat)
        assert bot.act(game.observe(state, seat), legal) in legal


@pytest.mark.parametrize("name", ["wizard", "durak"])
def test_the_same_seed_gives_the_same_moves(name: str) -> None:
    game = cardtable.load_game(name)
    first, second = make_bot(game, "search:sims=20", 7), make_bot(game, "search:sims=20", 7)
    for state, seat in _positions(name, 5, 3):
        obs, legal = game.observe(state, seat), game.legal_actions(state, seat)
        assert first.act(obs, legal) == second.act(obs, legal)


def test_flat_monte_carlo_scores_every_move_on_the_same_worlds() -> None:
    game = cardtable.load_game("crazy_eights")
    first, second = make_bot(game, "search:sims=24:flat=1", 5), make_bot(game, "search:sims=24:flat=1", 5)
    for state, seat in _positions("crazy_eights", 4, 6):
        obs, legal = game.observe(state, seat), game.legal_actions(state, seat)
        choice = first.act(obs, legal)
        assert choice in legal and choice == second.act(obs, legal)


def test_a_time_cap_stops_the_search_with_its_best_move_so_far() -> None:
    game = cardtable.load_game("kaiser")
    bot = make_bot(game, "search:sims=1000000:ms=30", 1)
    assert isinstance(bot, SearchBot)
    state, seat = _positions("kaiser", 1, 4)[0]
    legal = game.legal_actions(state, seat)
    assert bot.act(game.observe(state, seat), legal) in legal
    assert 1 <= bot.simulations_done < 1000000  # the cap, not the count, ended it (no wall-clock bound)


@pytest.mark.parametrize(("spec", "message"), [
    ("search:sims=-3", "sims must be at least 1"),
    ("search:ms=-1", "ms must be 0"),
    ("search:depth=3", "no option 'depth'"),
    ("search:sims=many", "must be a whole number"),
    ("search:sims", "is not key=value"),
    ("search:flat=2", "flat must be 0 or 1"),
    ("random:sims=3", "takes no options"),
    ("best", "no bot 'best'"),
])
def test_bad_bot_options_give_one_clear_line(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message) as info:
        make_bot(cardtable.load_game("durak"), spec)
    assert "\n" not in str(info.value)


def test_mus_search_estimates_lances_from_sampled_showdowns() -> None:
    game = cardtable.load_game("mus")
    bot = make_bot(game, "search:samples=50", 3)
    with pytest.raises(ValueError, match="samples must be at least 1"):
        make_bot(game, "search:samples=0")
    with pytest.raises(ValueError, match=r"samples must be a whole number, not '2\.5'"):
        make_bot(game, "search:samples=2.5")
    for state, seat in _positions("mus", 30, 5):
        obs = game.observe(state, seat)
        if obs.betting is not None:
            chance = bot.win_chance(obs, obs.betting.lance)  # type: ignore[attr-defined]
            assert 0.0 <= chance <= 1.0
            return
    raise AssertionError("no betting decision was met")


def test_bot_specs_parse_into_a_name_and_options() -> None:
    assert parse_bot_spec("search:sims=400: ms=800") == ("search", {"sims": "400", "ms": "800"})
    assert parse_bot_spec("heuristic") == ("heuristic", {})


def test_selfplay_takes_bot_options_and_refuses_bad_ones_in_one_line() -> None:
    from typer.testing import CliRunner

    from cardtable.cli import app

    runner = CliRunner()
    bad = runner.invoke(app, ["selfplay", "durak", "--bots", "search:sims=-1,heuristic", "--games", "1"])
    assert bad.exit_code == 2 and "sims must be at least 1" in bad.output and "Traceback" not in bad.output
    good = runner.invoke(app, ["selfplay", "durak", "--bots", "search:sims=5,heuristic", "--games", "1", "--json"])
    assert good.exit_code == 0, good.output
    assert set(json.loads(good.stdout)["bots"]) == {"search:sims=5", "heuristic"}
