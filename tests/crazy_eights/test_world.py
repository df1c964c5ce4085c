"""Crazy Eights determinization: sampled worlds agree with the seat's view; every deal can come out."""

from __future__ import annotations

import random
from collections import Counter

import cardtable
from cardtable.games.crazy_eights.rules import DECK_SIZE
from cardtable.games.crazy_eights.testing import cards, state_from_hands
from tests.bots.worlds import check_worlds_agree, random_positions

GAME = cardtable.load_game("crazy_eights")


def test_sampled_worlds_agree_with_the_observation() -> None:
    positions = random_positions("crazy_eights", games=3, every=5, seed=1, players=4, rounds=1)
    positions += random_positions("crazy_eights", games=2, every=5, seed=2, players=2, rounds=1,
                                  draw_until_playable=False)
    assert check_worlds_agree("crazy_eights", positions) > 40


def test_the_pile_under_the_top_card_is_never_dealt_again() -> None:
    positions = random_positions("crazy_eights", games=2, every=4, seed=3, players=3, rounds=1)
    rng = random.Random(1)
    for state, seat in positions:
        obs = GAME.observe(state, seat)
        world = GAME.sample_world(obs, rng)
        assert world.discards == state.discards
        assert world.top == state.top


def test_every_deal_of_three_hidden_cards_can_be_drawn_and_no_other() -> None:
    # Seat 0 holds two cards, seat 1 two unseen cards, the stock one unseen card; all else is on the pile.
    mine, theirs, stock = cards("5♠ 9♥"), cards("K♦ 2♣"), cards("Q♠")
    top = cards("7♠")
    pile = [c for c in range(DECK_SIZE) if c not in mine + theirs + stock + top]
    state = state_from_hands(GAME.options(players=2, rounds=1), ["5♠ 9♥", "K♦ 2♣"], "7♠", "Q♠",
                             discards=pile, dealer=1)
    obs = GAME.observe(state, 0)
    hidden = sorted(theirs + stock)
    rng = random.Random(0)
    drawn = Counter(GAME.sample_world(obs, rng).stock for _ in range(600))
    # The three consistent worlds: which hidden card is left in the stock.
    assert set(drawn) == {(c,) for c in hidden}
    assert min(drawn.values()) > 120  # uniform: each about 200 of 600
