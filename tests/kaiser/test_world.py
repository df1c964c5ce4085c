"""Kaiser determinization: sampled worlds agree with the seat's view and can be any consistent deal."""

from __future__ import annotations

import itertools
import random

import cardtable
from cardtable.games.kaiser.state import PLAY
from tests.bots.worlds import check_worlds_agree, random_positions

GAME = cardtable.load_game("kaiser")


def test_sampled_worlds_agree_with_the_observation() -> None:
    positions = random_positions("kaiser", games=2, every=6, seed=1, target=32)
    assert check_worlds_agree("kaiser", positions) > 40


def _replays(state: object, hands: dict[int, int]) -> bool:
    """Whether the tricks played this hand were legal (followed suit) had the seats held ``hands`` now."""
    held = dict(hands)
    plays = [*state.played, *state.trick]  # type: ignore[attr-defined]
    for seat, card in plays:
        held[seat] |= 1 << card
    for start in range(0, len(plays), 4):
        trick = plays[start:start + 4]
        led = trick[0][1] >> 3
        for seat, card in trick:
            if card >> 3 != led and held[seat] >> (8 * led) & 0xFF:
                return False
            held[seat] &= ~(1 << card)
    return True


def test_every_consistent_deal_of_the_last_cards_can_be_drawn_and_no_other() -> None:
    rng = random.Random(2)
    checked = 0
    for state, seat in random_positions("kaiser", games=6, every=1, seed=4, target=32):
        if state.phase != PLAY or any(h.bit_count() != 1 for h in state.hands) or state.trick:
            continue
        others = [s for s in range(4) if s != seat]
        hidden = [state.hands[s] for s in others]
        consistent = {perm for perm in itertools.permutations(hidden)
                      if _replays(state, {**dict(zip(others, perm)), seat: state.hands[seat]})}
        obs = GAME.observe(state, seat)
        worlds = [GAME.sample_world(obs, rng) for _ in range(150)]
        drawn = {tuple(world.hands[s] for s in others) for world in worlds}
        assert drawn == consistent
        checked += 1
        if checked >= 4:
            break
    assert checked >= 2
