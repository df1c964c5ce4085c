"""Shared checks for ``sample_world``: sampled worlds agree with the observation they came from."""

from __future__ import annotations

import random
from typing import Any

import cardtable


def random_positions(name: str, *, games: int, every: int, seed: int, **options: Any) -> list[tuple[Any, int]]:
    """Positions (state, seat to act) met in random games, one in ``every`` decisions."""
    game = cardtable.load_game(name)
    rng = random.Random(seed)
    out = []
    for g in range(games):
        state, _ = game.new(game.options(**options), seed * 1000 + g)
        step = 0
        while (seat := game.to_act(state)) is not None:
            if step % every == 0:
                out.append((state, seat))
            legal = game.legal_actions(state, seat)
            state, _ = game.apply(state, seat, legal[rng.randrange(len(legal))])
            step += 1
    return out


def random_moves(game: Any, state: Any, rng: random.Random, moves: int) -> Any:
    """``state`` after ``moves`` random legal moves, or fewer if nobody is left to act."""
    for _ in range(moves):
        seat = game.to_act(state)
        if seat is None:
            break
        legal = game.legal_actions(state, seat)
        state, _ = game.apply(state, seat, legal[rng.randrange(len(legal))])
    return state


def check_worlds_agree(name: str, positions: list[tuple[Any, int]], *, samples: int = 2, seed: int = 0) -> int:
    """Every sampled world shows its seat the same observation and legal actions, and hides the rest."""
    game = cardtable.load_game(name)
    rng = random.Random(seed)
    checked = 0
    for state, seat in positions:
        obs = game.observe(state, seat)
        for _ in range(samples):
            world = game.sample_world(obs, rng)
            assert game.observe(world, seat) == obs
            assert game.legal_actions(world, seat) == game.legal_actions(state, seat)
            assert game.hidden_cards(world, seat) == game.hidden_cards(state, seat)
            checked += 1
    return checked
