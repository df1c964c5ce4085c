"""Wizard determinization: sampled worlds agree with the seat's view and respect shown voids."""

from __future__ import annotations

import random

import cardtable
from cardtable.games.wizard import rules
from cardtable.games.wizard.world import shown_voids
from tests.bots.worlds import check_worlds_agree, random_positions

GAME = cardtable.load_game("wizard")


def test_sampled_worlds_agree_with_the_observation() -> None:
    positions = random_positions("wizard", games=2, every=7, seed=1, players=4, rounds=5)
    positions += random_positions("wizard", games=1, every=9, seed=2, players=3, rounds=5, hidden_bids=True,
                                  bids_may_not_equal_tricks=True)
    assert check_worlds_agree("wizard", positions) > 40


def test_a_seat_never_gets_a_suit_it_has_shown_void_in() -> None:
    rng = random.Random(5)
    voids_seen = 0
    for state, seat in random_positions("wizard", games=3, every=3, seed=3, players=4, rounds=10):
        obs = GAME.observe(state, seat)
        voids = shown_voids(obs)
        for other, void in enumerate(voids):
            if other == seat or not void:
                continue
            voids_seen += 1
            # The void is real: the true hand holds none of it.
            assert not state.hands[other] & void
            world = GAME.sample_world(obs, rng)
            assert not world.hands[other] & void
    assert voids_seen > 10


def test_every_consistent_deal_of_the_last_cards_can_be_drawn() -> None:
    # Round 1 of 3 players, house rules off: each seat holds one card; seat 0 sees its own card and
    # the trump card; the other two hands and the 56-card stack are unseen. Restrict to who holds
    # which: both other seats' cards must be drawn from every unseen card over many samples.
    state, _ = GAME.new(GAME.options(players=3, rounds=5, first_dealer=2), 11)
    seat = GAME.to_act(state)
    assert seat is not None
    obs = GAME.observe(state, seat)
    unseen = rules.ALL_MASK & ~state.hands[seat] & ~(1 << state.trump_card if state.trump_card is not None else 0)
    rng = random.Random(0)
    held: set[int] = set()
    for _ in range(3000):
        world = GAME.sample_world(obs, rng)
        for other in range(3):
            if other != seat:
                held.add(world.hands[other])
    assert {1 << c for c in rules.cards_of(unseen)} == held
