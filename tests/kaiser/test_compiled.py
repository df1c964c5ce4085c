"""Kaiser's compiled playout and world sampler (``kaiser/_fast.pyx``): the Python results, draws and choices.

The playout is compared on positions of random and heuristic games in every phase (the hand's end,
the game's verdict), the sampler on the observations of those positions (the world's hands and its
seed, the generator's state after), and the search over whole seeded games (the choices, the
bot's generator, the simulations made). A defect planted in the compiled code (``_fast.plant``) must
make the comparison covering it fail.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest

from cardtable.bots import make_bot
from cardtable.core.twister import same_stream
from cardtable.games.kaiser import _fast, playout, world
from cardtable.games.kaiser.compiled import FAST
from cardtable.games.kaiser.state import BIDDING, OVER, PLAY, TRUMP
from cardtable.games.kaiser.testing import GAME
from tests.bots.compiled import no_defect
from tests.bots.worlds import random_positions

_no_defect = no_defect(FAST, _fast)


def test_the_stream_is_pythons_and_a_late_one_is_refused() -> None:
    assert same_stream(_fast.sample)
    _fast.plant(5)
    assert not same_stream(_fast.sample)


def _heuristic_positions(games: int, seed: int) -> list[tuple[Any, int]]:
    """Positions of games between heuristics (their bidding read by the sampler's bounds)."""
    out = []
    for g in range(games):
        state, _ = GAME.new(GAME.options(), seed + g)
        bots = [make_bot(GAME, "heuristic", s) for s in range(4)]
        while (seat := GAME.to_act(state)) is not None and state.hand_no <= 3:
            out.append((state, seat))
            state, _ = GAME.apply(state, seat, bots[seat].act(GAME.observe(state, seat), GAME.legal_actions(state,
                                                                                                         seat)))
    return out


@cache
def positions() -> list[tuple[Any, int]]:
    """Every position of three random games and of the first hands of two heuristic games."""
    return random_positions("kaiser", games=3, every=1, seed=17, target=32) + _heuristic_positions(2, 40)


def _playout_mismatches() -> tuple[int, int, dict[int, int]]:
    """(positions compared, how many ended otherwise, positions per phase)."""
    wrong = 0
    phases = {BIDDING: 0, TRUMP: 0, PLAY: 0, OVER: 0}
    for state, _ in positions():
        phases[state.phase] += 1
        compiled = playout.play_hand(state, random.Random(0))
        with FAST.python_only():
            python = playout.play_hand(state, random.Random(0))
        wrong += compiled != python
    return len(positions()), wrong, phases


def test_the_compiled_playout_ends_every_hand_as_the_python_one() -> None:
    compared, wrong, phases = _playout_mismatches()
    assert compared == sum(phases.values())
    assert wrong == 0
    assert phases[BIDDING] > 20 and phases[TRUMP] > 2 and phases[PLAY] > 300, phases


@pytest.mark.parametrize("defect", [1, 2])
def test_a_defect_in_the_compiled_playout_is_caught(defect: int) -> None:
    _fast.plant(defect)  # a bidder never draws trumps; the 5 of hearts worth 4
    _, wrong, _ = _playout_mismatches()
    assert wrong > 10


def _sampler_mismatches(draws: int = 3) -> tuple[int, int]:
    """(worlds compared, how many differ in hands, seed or the generator's state after)."""
    compared = wrong = 0
    for k, (state, seat) in enumerate(positions()[::3]):
        obs = GAME.observe(state, seat)
        a, b = random.Random(k), random.Random(k)
        for _ in range(draws):
            compiled = world.sample_fitting_world(obs, a)
            with FAST.python_only():
                python = world.sample_fitting_world(obs, b)
            compared += 1
            wrong += (compiled.hands, compiled.rng) != (python.hands, python.rng) or a.getstate() != b.getstate()
    return compared, wrong


def test_the_compiled_sampler_draws_the_python_worlds() -> None:
    compared, wrong = _sampler_mismatches()
    assert wrong == 0 and compared > 400
    bounded = [GAME.observe(s, seat) for s, seat in positions() if world.bid_bounds(GAME.observe(s, seat))]
    assert len(bounded) > 100  # most worlds are rated against the bidding


@pytest.mark.parametrize("defect", [3, 4])
def test_a_defect_in_the_compiled_sampler_is_caught(defect: int) -> None:
    _fast.plant(defect)  # a miss within the slack counted; the first deal's seed kept
    _, wrong = _sampler_mismatches(1)
    assert wrong > 5


def _twin_games(seeds: range, spec: str) -> tuple[int, list[str]]:
    """Seat 0 played by a compiled search and its Python twin fed the same observations: (choices, mismatches)."""
    choices, mismatches = 0, []
    for seed in seeds:
        state, _ = GAME.new(GAME.options(target=32), seed)
        fast, slow = make_bot(GAME, spec, seed), make_bot(GAME, spec, seed)
        others = [make_bot(GAME, "heuristic", seed + s) for s in range(4)]
        while (seat := GAME.to_act(state)) is not None:
            obs, legal = GAME.observe(state, seat), GAME.legal_actions(state, seat)
            if seat:
                state, _ = GAME.apply(state, seat, others[seat].act(obs, legal))
                continue
            action = fast.act(obs, legal)
            with FAST.python_only():
                twin = slow.act(obs, legal)
            choices += len(legal) > 1
            if action != twin or (fast.rng.getstate(), fast.simulations_done) != (slow.rng.getstate(),
                                                                                   slow.simulations_done):
                mismatches.append(f"seed {seed}: {action} against {twin}")
                break
            state, _ = GAME.apply(state, seat, action)
    return choices, mismatches


def test_the_search_decides_the_same_over_whole_games() -> None:
    choices, mismatches = _twin_games(range(3), "search:sims=40")
    assert mismatches == [] and choices > 40


def test_a_defect_in_the_compiled_search_hints_is_caught() -> None:
    _fast.plant(5)  # the generator handed back one word late
    _, mismatches = _twin_games(range(1), "search:sims=40")
    assert mismatches
