"""Hand evaluation over all 91,390 four-card hands, against an independent reference built from card names."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, pairwise

import pytest

from cardtable.cards import SPANISH_40
from cardtable.games.mus.rules import (
    DUPLES,
    MEDIAS,
    PAR,
    PARES_NONE,
    HandValue,
    Lance,
    best_seat,
    evaluate,
    percentile,
)
from cardtable.games.mus.testing import cards

ALL_HANDS = list(combinations(range(40), 4))

# The reference reads each card's rank symbol, not its id.
GRANDE_8R8A = {"R": 12, "3": 12, "C": 11, "S": 10, "7": 7, "6": 6, "5": 5, "4": 4, "2": 1, "1": 1}
GRANDE_4R = {**GRANDE_8R8A, "3": 3, "2": 2}
JUEGO_ORDER = [33, 34, 35, 36, 37, 40, 32, 31]  # worst to best


def ref_values(hand: tuple[int, ...], table: dict[str, int]) -> list[int]:
    return [table[SPANISH_40.card(c).rank.symbol] for c in hand]


def ref_total(values: list[int]) -> int:
    return sum(10 if v >= 10 else v for v in values)


def ref_pares(values: list[int]) -> tuple[int, ...]:
    counts = sorted(Counter(values).items(), key=lambda kv: (-kv[1], -kv[0]))
    shape = [n for _, n in counts]
    if shape == [4]:
        return (3, counts[0][0], counts[0][0])
    if shape[0] == 3:
        return (2, counts[0][0])
    if shape[:2] == [2, 2]:
        return (3, *sorted((counts[0][0], counts[1][0]), reverse=True))
    if shape[0] == 2:
        return (1, counts[0][0])
    return (0,)


def ref_key(hand: tuple[int, ...], lance: Lance, table: dict[str, int]) -> tuple[int, ...]:
    values = ref_values(hand, table)
    total = ref_total(values)
    if lance == "grande":
        return tuple(sorted(values, reverse=True))
    if lance == "chica":
        return tuple(-v for v in sorted(values))
    if lance == "pares":
        return ref_pares(values)
    if lance == "juego":
        return (JUEGO_ORDER.index(total) + 1,) if total >= 31 else (0,)
    return (total,)


@pytest.mark.parametrize("modalidad", ["8R8A", "4R"])
@pytest.mark.parametrize("lance", ["grande", "chica", "pares", "juego", "punto"])
def test_convencion_lance_order_matches_reference_on_all_91390_hands(lance: Lance, modalidad: str) -> None:
    """Strength order == reference order, and equal strength exactly when the reference keys tie."""
    table = GRANDE_8R8A if modalidad == "8R8A" else GRANDE_4R
    assert len(ALL_HANDS) == 91_390
    rows = sorted((evaluate(h, modalidad).strength(lance), ref_key(h, lance, table)) for h in ALL_HANDS)
    for (s1, k1), (s2, k2) in pairwise(rows):
        assert (s1 < s2) == (k1 < k2) and (s1 == s2) == (k1 == k2), (lance, k1, k2)


def test_convencion_totals_pares_and_juego_counts_over_all_hands() -> None:
    """Totals are 4..40 (never 38 or 39); juego iff total >= 31; pares kinds match the reference."""
    kinds: Counter[int] = Counter()
    for hand in ALL_HANDS:
        value = evaluate(hand)
        values = ref_values(hand, GRANDE_8R8A)
        assert value.total == ref_total(values)
        assert value.total not in (38, 39) and 4 <= value.total <= 40
        assert value.has_juego == (value.total >= 31) == (value.juego > 0)
        assert value.pares_kind == ref_pares(values)[0]
        kinds[value.pares_kind] += 1
    # Independent count of hands without pares: 8 distinct classes (as, 4, 5, 6, 7, S, C, rey)
    # with 8, 4, 4, 4, 4, 4, 4, 8 cards: sum over 4-subsets of classes of the product of sizes.
    sizes = [8, 4, 4, 4, 4, 4, 4, 8]
    no_pares = sum(a * b * c * d for a, b, c, d in combinations(sizes, 4))
    assert kinds[PARES_NONE] == no_pares
    assert sum(kinds.values()) == 91_390


def test_convencion_strength_depends_only_on_ranks_not_suits() -> None:
    """Rotating the suits of every hand never changes its value."""
    for hand in ALL_HANDS[::7]:
        rotated = tuple((c + 10) % 40 for c in hand)
        assert evaluate(hand) == evaluate(rotated)


def test_fem_ii_3_ocho_reyes_three_is_rey_and_two_is_as() -> None:
    """In 8R8A a 3 pairs with a rey and a 2 with an as; in 4R they do not."""
    assert evaluate(cards("3o Rc 5e 6b")).pares_kind == PAR
    assert evaluate(cards("2o 1c 5e 6b")).pares_kind == PAR
    assert evaluate(cards("3o Rc 5e 6b"), "4R").pares_kind == PARES_NONE
    assert evaluate(cards("3o 3c 3e 6b")).total == 36
    assert evaluate(cards("3o 3c 3e 6b"), "4R").total == 15


def test_convencion_grande_rey_beats_caballo_beats_sota_beats_seven() -> None:
    """Grande: R(3) > C > S > 7 > 6 > 5 > 4 > A(1, 2)."""
    order = ["3o 4c 4e 4b", "Co 4c 4e 4b", "So 4c 4e 4b", "7o 4c 4e 4b", "6o 4c 4e 4b", "5o 4c 4e 4b"]
    strengths = [evaluate(cards(h)).grande for h in order]
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == len(strengths)
    assert evaluate(cards("Ro 1c 1e 1b")).grande == evaluate(cards("3o 2c 1e 2b")).grande


def test_convencion_chica_as_beats_four_and_two_equals_as() -> None:
    """Chica is the reverse: the lowest cards win; the 2 is an as."""
    assert evaluate(cards("1o 2c 4e 5b")).chica > evaluate(cards("1o 4c 4e 5b")).chica
    assert evaluate(cards("1o 2c 1e 2b")).chica == max(evaluate(h).chica for h in ALL_HANDS)


def test_convencion_pares_duples_beat_medias_beat_par() -> None:
    """Par < medias < duples; within a kind by rank; duples by the higher pair, then the lower."""
    par_r, medias_4 = evaluate(cards("Ro Rc 5e 6b")), evaluate(cards("4o 4c 4e 6b"))
    duples_low, duples_r1 = evaluate(cards("4o 4c 5e 5b")), evaluate(cards("Ro Rc 1e 1b"))
    duples_rs = evaluate(cards("Ro Rc So Sc"))
    assert (par_r.pares_kind, medias_4.pares_kind, duples_low.pares_kind) == (PAR, MEDIAS, DUPLES)
    assert par_r.pares < medias_4.pares < duples_low.pares < duples_r1.pares < duples_rs.pares
    assert evaluate(cards("Ro Rc 3e 3b")).pares > duples_rs.pares  # four reyes: duples of reyes


def test_fem_vi_7_juego_order_31_32_40_37_36_35_34_33() -> None:
    """31 is the best juego, then 32, 40, 37, 36, 35, 34 and 33 the worst."""
    hands = ["Ro Rc Re 1b", "Ro Rc Re 2b", "Ro Rc Re Rb", "Ro Rc Re 7b", "Ro Rc Re 6b",
             "Ro Rc Re 5b", "Ro Rc Re 4b", "Ro Rc 6e 7b"]
    values = [evaluate(cards(h)) for h in hands]
    assert [v.total for v in values] == [31, 31, 40, 37, 36, 35, 34, 33]
    assert values[0].juego == values[1].juego
    juegos = [v.juego for v in values[1:]]
    assert juegos == sorted(juegos, reverse=True) and len(set(juegos)) == len(juegos)
    assert evaluate(cards("So Sc Se 2b")).total == 31


def test_convencion_tie_goes_to_player_nearest_the_mano() -> None:
    """Equal hands: the first seat in speaking order wins."""
    values: list[HandValue] = [evaluate(cards(h)) for h in ("Ro 4o 5o 6o", "Rc 4c 5c 6c", "1e 4e 5e 6e",
                                                             "1b 4b 5b 6b")]
    assert best_seat(values, "grande", (0, 1, 2, 3)) == 0
    assert best_seat(values, "grande", (1, 2, 3, 0)) == 1
    assert best_seat(values, "chica", (3, 0, 1, 2)) == 3


def test_percentiles_are_monotone_and_reach_one() -> None:
    """Bots' percentiles grow with strength; the best hand of a lance is at 1.0."""
    sample = [evaluate(h) for h in ALL_HANDS[::37]]
    for lance in ("grande", "chica", "punto"):
        ordered = sorted(sample, key=lambda v: v.strength(lance))
        pct = [percentile(v, lance) for v in ordered]
        assert pct == sorted(pct)
    assert percentile(evaluate(cards("Ro Rc Re Rb")), "grande") == 1.0
    assert percentile(evaluate(cards("Ro Rc Re 1b")), "juego") == 1.0
