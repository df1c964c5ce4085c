"""The pinned RNG: SplitMix64's published stream, exact uniform draws, replay, and scripted chance."""

from __future__ import annotations

import pickle
from collections import Counter

import pytest

import cardtable
from cardtable.core.rng import (
    ChanceRequired,
    Scripted,
    below,
    chance,
    digits_per_word,
    draws,
    randrange,
    seeded,
    shuffled,
    word,
)


def test_words_follow_splitmix64s_published_stream() -> None:
    """The reference implementation (Vigna's splitmix64.c) from state 0 starts with these outputs."""
    first, state = word(0)
    second, _ = word(state)
    assert (first, second) == (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4)


def test_the_rng_is_one_small_int_that_replays_exactly() -> None:
    rng = seeded(42)
    assert type(rng) is int and 0 <= rng < 2**64
    deck, after = shuffled(rng, list(range(60)))
    again, after_again = shuffled(seeded(42), list(range(60)))
    assert deck == again and after == after_again
    assert sorted(deck) == list(range(60)) and deck != list(range(60))
    assert seeded(-1) == seeded(2**64 - 1) and seeded(1) != seeded(2)


def test_draws_below_a_bound_are_uniform_and_cover_it() -> None:
    rng = seeded(7)
    counts: Counter[int] = Counter()
    for _ in range(6000):
        value, rng = randrange(rng, 6)
        counts[value] += 1
    assert set(counts) == set(range(6))
    assert all(850 < c < 1150 for c in counts.values()), counts
    big, _ = below(seeded(7), 10**40)
    assert 0 <= big < 10**40
    with pytest.raises(ValueError):
        below(seeded(7), 0)


def test_shuffles_put_every_item_everywhere_about_equally() -> None:
    rng = seeded(3)
    first: Counter[int] = Counter()
    for _ in range(4000):
        deck, rng = shuffled(rng, list(range(8)))
        first[deck[0]] += 1
    assert set(first) == set(range(8)) and all(400 < c < 600 for c in first.values()), first


def test_chance_happens_about_as_often_as_its_probability() -> None:
    rng = seeded(5)
    hits = 0
    for _ in range(4000):
        happened, rng = chance(rng, 0.25)
        hits += happened
    assert 850 < hits < 1150
    assert chance(seeded(5), 0.0)[0] is False and chance(seeded(5), 1.0)[0] is True


def test_several_draws_per_word() -> None:
    assert digits_per_word(36) == 11 and 36**12 <= 2**64 < 36**13
    values, _ = draws(seeded(9), 36, 1000)
    assert len(values) == 1000 and set(values) == set(range(36))


def test_a_script_hands_out_its_outcomes_then_names_what_it_lacks() -> None:
    script = Scripted(((2, 0, 1), 4, True))
    items, rng = shuffled(script, ["a", "b", "c"])
    assert items == ["c", "a", "b"]
    value, rng = randrange(rng, 5)
    happened, rng = chance(rng, 0.1)
    assert (value, happened) == (4, True)
    with pytest.raises(ChanceRequired, match="a permutation of 3 items") as info:
        shuffled(rng, ["a", "b", "c"])
    assert (info.value.kind, info.value.size) == ("permutation", 3)
    with pytest.raises(ValueError, match="not a permutation"):
        shuffled(Scripted(((0, 0, 1),)), ["a", "b", "c"])
    with pytest.raises(ValueError, match="not a permutation"):
        shuffled(Scripted((("a", 0, 1),)), ["a", "b", "c"])
    with pytest.raises(ValueError, match=r"not an int in \[0, 5\)"):
        randrange(Scripted((5,)), 5)


def test_a_script_can_continue_with_a_seeded_stream() -> None:
    items, rng = shuffled(Scripted(((1, 0),), then=seeded(8)), ["x", "y"])
    assert items == ["y", "x"] and rng == seeded(8)


def test_a_game_dealt_from_a_script_needs_no_change_to_the_game() -> None:
    """Wizard with a fixed first dealer draws nothing but the shuffle: script the whole first deck."""
    game = cardtable.load_game("wizard")
    options = game.options(players=3, first_dealer=2)
    order = tuple(reversed(range(60)))
    state, events = game.new(options, Scripted((order,)))
    hands = [e for e in events if e.TYPE == "hand_dealt"]
    assert [h.cards for h in hands] == [(59,), (58,), (57,)]
    assert pickle.loads(pickle.dumps(state)).rng == state.rng
    seat = game.to_act(state)
    with pytest.raises(ChanceRequired):  # the end of round 1 needs round 2's shuffle
        while seat is not None:
            state, _ = game.apply(state, seat, game.legal_actions(state, seat)[0])
            seat = game.to_act(state)
