"""Durak determinization: worlds agree with the seat's view; cards taken in view of all stay where they went."""

from __future__ import annotations

import random
from collections import Counter

import cardtable
from tests.bots.worlds import check_worlds_agree, random_positions

GAME = cardtable.load_game("durak")


def test_sampled_worlds_agree_with_the_observation() -> None:
    positions = random_positions("durak", games=3, every=3, seed=1, players=2)
    positions += random_positions("durak", games=2, every=4, seed=2, players=4)
    assert check_worlds_agree("durak", positions) > 40


def test_taken_cards_are_public_and_stay_in_the_takers_hand_in_every_world() -> None:
    rng = random.Random(0)
    seen = 0
    for state, seat in random_positions("durak", games=6, every=2, seed=4, players=3):
        obs = GAME.observe(state, seat)
        for other, known in enumerate(obs.known_cards):
            if other == seat or not known:
                continue
            assert set(known) <= set(state.hands[other])  # what is public is true
            world = GAME.sample_world(obs, rng)
            assert set(known) <= set(world.hands[other])
            if world.deck:
                assert world.deck[-1] == state.trump_card
            seen += 1
    assert seen > 5


def test_every_split_of_the_unseen_cards_can_be_drawn() -> None:
    # Late in a heads-up game with an empty deck, the other hand is exactly the unseen cards:
    # then only one world exists; with a deck of k cards every k-subset can be the deck.
    rng = random.Random(3)
    for state, seat in random_positions("durak", games=20, every=1, seed=5, players=2):
        obs = GAME.observe(state, seat)
        if obs.deck_count != 3 or obs.known_cards[1 - seat]:
            continue
        worlds = [GAME.sample_world(obs, rng) for _ in range(600)]
        unseen = {c for w in worlds for c in w.deck[:-1]} | {c for w in worlds for c in w.hands[1 - seat]}
        splits = Counter(frozenset(w.deck[:-1]) for w in worlds)
        n = len(unseen)
        assert len(splits) == n * (n - 1) // 2  # every pair of unseen cards can be the deck above the trump
        return
    raise AssertionError("no position with three cards in the deck was met")
