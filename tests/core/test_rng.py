"""The pinned RNG: SplitMix64's published stream, exact uniform draws, replay, and scripted chance."""

from __future__ import annotations

import math
import pickle
from collections import Counter

import pytest

import cardtable
from cardtable.core.rng import (
    GOLDEN_GAMMA,
    ChanceRequired,
    Scripted,
    below,
    chance,
    dealt,
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


def _reference_below(state: int, m: int, limit: int) -> tuple[int, int]:
    """``below`` as the module docstring defines it: word by word, redrawn at or above ``limit``."""
    words = (m.bit_length() + 127) // 64
    while True:
        r = 0
        for _ in range(words):
            z, state = word(state)
            r = (r << 64) | z
        if r < limit:
            return r % m, state


def _reference_shuffle(state: int, n: int) -> tuple[list[int], int]:
    """``shuffled(range(n))`` as the module docstring defines it: one digit per ``divmod``."""
    r, state = _reference_below(state, math.factorial(n), _limit(math.factorial(n)))
    out = list(range(n))
    for i in range(n - 1, 0, -1):
        r, j = divmod(r, i + 1)
        out[i], out[j] = out[j], out[i]
    return out, state


def _limit(m: int) -> int:
    span = 1 << (64 * ((m.bit_length() + 127) // 64))
    return span - span % m


def test_fast_draws_give_the_documented_stream_for_every_word_count() -> None:
    """The packed-lane ``below`` and the grouped Fisher–Yates equal the definition, word by word."""
    states = [0, 1, 2**64 - 1, *(seeded(s) for s in range(40))]
    bounds = [2, 6, 2**63, 2**64 + 1, 10**40, 2**190 + 7, *(math.factorial(n) for n in (20, 32, 36, 52, 60, 90))]
    for m in bounds:
        for state in states:
            assert below(state, m) == _reference_below(state, m, _limit(m)), (m, state)
    for n in (2, 3, 13, 32, 36, 52, 60, 61, 100):
        for state in states[:12]:
            deck, after = shuffled(state, list(range(n)))
            assert (deck, after) == _reference_shuffle(state, n), (n, state)


def test_a_rejected_draw_is_redrawn_from_where_the_stream_stands(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a limit that rejects about half the draws, both paths redraw the same way."""
    from cardtable.core import rng as rng_module

    for m in (10**30, math.factorial(60)):
        words, _, lanes = rng_module._bounds(m)
        low = 1 << (64 * len(words) - 1)  # rejects every r with the top bit set
        monkeypatch.setitem(rng_module._BOUNDS, m, (words, low, lanes))
        results = [below(seeded(s), m) for s in range(60)]
        assert results == [_reference_below(seeded(s), m, low) for s in range(60)]
        one_draw = [(seeded(s) + len(words) * GOLDEN_GAMMA) % 2**64 for s in range(60)]
        redrawn = sum(after != first for (_, after), first in zip(results, one_draw))
        assert 10 < redrawn < 50  # about half were redrawn


def _dealt_from_shuffle(rng: object, n: int, players: int, count: int) -> tuple[tuple[int, ...], int | None, object]:
    """Dealing from ``shuffled`` one card at a time: what ``dealt`` must give."""
    deck, after = shuffled(rng, list(range(n)))  # type: ignore[arg-type]
    deal = players * count
    hands = tuple(sum(1 << card for card in deck[k:deal:players]) for k in range(players))
    return hands, deck[deal] if deal < n else None, after


def test_a_deal_is_dealing_from_the_shuffle_for_every_size() -> None:
    """``dealt``'s generated Fisher-Yates (single assignments above the deal) gives the shuffle's deal exactly."""
    for n in (1, 2, 3, 7, 13, 36, 60):
        for players in range(1, 7):
            for count in range(n // players + 1):
                for state in (0, 2**64 - 1, *(seeded(s) for s in range(n, n + 3))):
                    assert dealt(state, n, players, count) == _dealt_from_shuffle(state, n, players, count), (
                        n, players, count, state)


def test_a_scripted_deal_and_an_impossible_one() -> None:
    perm = (3, 1, 4, 0, 2)
    hands, turned, after = dealt(Scripted((perm,), then=5), 5, 2, 2)
    assert hands == (1 << 3 | 1 << 4, 1 << 1 | 1 << 0) and turned == 2 and after == 5
    assert dealt(Scripted((perm,)), 5, 1, 5)[:2] == ((0b11111,), None)
    for players, count in ((0, 1), (2, 3), (1, -1)):
        with pytest.raises(ValueError):
            dealt(seeded(1), 5, players, count)
