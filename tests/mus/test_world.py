"""Mus determinization: worlds agree with the seat's view and with every pares/juego declaration."""

from __future__ import annotations

import random

import cardtable
from cardtable.games.mus.rules import evaluate, holds
from cardtable.games.mus.world import fits, sample_hands
from tests.bots.worlds import check_worlds_agree, random_positions

GAME = cardtable.load_game("mus")


def _positions(games: int, seed: int) -> list[tuple[object, int]]:
    """Positions from games between simple bots (random play ends most hands by an early órdago)."""
    from cardtable.bots import make_bot

    out = []
    for g in range(games):
        bots = [make_bot(GAME, "simple", g * 4 + s) for s in range(4)]
        state, _ = GAME.new(GAME.options(), seed * 100 + g)
        step = 0
        while (seat := GAME.to_act(state)) is not None and step < 300:
            if step % 3 == 0:
                out.append((state, seat))
            action = bots[seat].act(GAME.observe(state, seat), GAME.legal_actions(state, seat))
            state, _ = GAME.apply(state, seat, action)
            step += 1
    return out


def test_sampled_worlds_agree_with_the_observation() -> None:
    positions = _positions(2, 1) + random_positions("mus", games=3, every=1, seed=2)
    assert check_worlds_agree("mus", positions) > 60


def test_other_hands_agree_with_their_declarations() -> None:
    rng = random.Random(0)
    declared = 0
    for state, seat in _positions(3, 3):
        obs = GAME.observe(state, seat)
        if all(p is None for p in obs.pares):
            continue
        hands, _ = sample_hands(obs, rng)
        for other in range(4):
            if obs.pares[other] is not None:
                declared += 1
                assert holds(evaluate(hands[other], obs.modalidad), "pares") == obs.pares[other]
            if obs.juego[other] is not None:
                assert holds(evaluate(hands[other], obs.modalidad), "juego") == obs.juego[other]
    assert declared > 20


def test_fits_reads_declarations() -> None:
    # Two reyes (ids: rank index 9 = rey in SPANISH_40 ids, c % 10) make a par; 31 is juego.
    par = (9, 19, 0, 1)
    assert fits(par, True, None, "8R8A")
    assert not fits(par, False, None, "8R8A")
    assert fits(par, None, None, "8R8A")
