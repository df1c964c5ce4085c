"""Pure hand evaluation for Mus: grande, chica, pares, juego and punto.

Cards are :data:`cardtable.cards.SPANISH_40` ids: suit = id // 10 (oros, copas,
espadas, bastos) and rank index = id % 10 (1, 2, 3, 4, 5, 6, 7, sota, caballo,
rey). Every evaluation depends only on the ranks, so it is computed once per
multiset of rank indexes (715 of them) and cached.

Strengths are ints: a larger strength wins the lance; equal strengths go to
the player nearest the mano (see :func:`best_seat`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

Modalidad = Literal["8R8A", "4R"]
Lance = Literal["grande", "chica", "pares", "juego", "punto"]
LANCES: tuple[Lance, ...] = ("grande", "chica", "pares", "juego", "punto")

#: Grande value of each rank index (1, 2, 3, 4, 5, 6, 7, S, C, R) per modalidad.
#: In "8R8A" the 3 is a rey (12) and the 2 an as (1) [FEM II.3].
GRANDE_VALUE: dict[str, tuple[int, ...]] = {
    "8R8A": (1, 1, 12, 4, 5, 6, 7, 10, 11, 12),
    "4R": (1, 2, 3, 4, 5, 6, 7, 10, 11, 12),
}
#: Value for juego and punto [CONVENCIÓN]: figures 10, ases 1, the rest their number.
POINT_VALUE: dict[str, tuple[int, ...]] = {
    "8R8A": (1, 1, 10, 4, 5, 6, 7, 10, 10, 10),
    "4R": (1, 2, 3, 4, 5, 6, 7, 10, 10, 10),
}
#: Juego order [FEM VI.7-8 / CONVENCIÓN]: 31 > 32 > 40 > 37 > 36 > 35 > 34 > 33.
JUEGO_ORDER: dict[int, int] = {31: 8, 32: 7, 40: 6, 37: 5, 36: 4, 35: 3, 34: 2, 33: 1}

PARES_NONE, PAR, MEDIAS, DUPLES = 0, 1, 2, 3
PARES_NAMES = ("nada", "par", "medias", "duples")
REY, AS = 12, 1


@dataclass(frozen=True, slots=True)
class HandValue:
    """Everything a four-card hand is worth, lance by lance."""

    grande: int
    chica: int
    pares_kind: int
    pares: int
    total: int
    juego: int
    values: tuple[int, ...]

    @property
    def has_pares(self) -> bool:
        """Whether the hand holds par, medias or duples."""
        return self.pares_kind != PARES_NONE

    @property
    def has_juego(self) -> bool:
        """Whether the hand's total is 31 or more."""
        return self.total >= 31

    @property
    def punto(self) -> int:
        """Strength for punto: the total (only compared when nobody has juego)."""
        return self.total

    def strength(self, lance: Lance) -> int:
        """The strength for ``lance`` (larger wins)."""
        if lance == "grande":
            return self.grande
        if lance == "chica":
            return self.chica
        if lance == "pares":
            return self.pares
        if lance == "juego":
            return self.juego
        return self.total

    def count(self, value: int) -> int:
        """How many cards of this grande value (12 = rey, 1 = as) the hand holds."""
        return self.values.count(value)


def _encode(values: Iterable[int]) -> int:
    out = 0
    for v in values:
        out = out * 13 + v
    return out


def pares_of(values: Sequence[int]) -> tuple[int, int]:
    """(kind, strength) of the pares in four grande values; strength 0 without pares."""
    groups = sorted(Counter(values).items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    (top, n_top) = groups[0]
    if n_top == 4:
        return DUPLES, DUPLES * 1000 + top * 13 + top
    if n_top == 3:
        return MEDIAS, MEDIAS * 1000 + top * 13
    if n_top == 2 and groups[1][1] == 2:
        hi, lo = max(top, groups[1][0]), min(top, groups[1][0])
        return DUPLES, DUPLES * 1000 + hi * 13 + lo
    if n_top == 2:
        return PAR, PAR * 1000 + top * 13
    return PARES_NONE, 0


@cache
def _evaluate_ranks(ranks: tuple[int, ...], modalidad: str) -> HandValue:
    values = tuple(sorted((GRANDE_VALUE[modalidad][r] for r in ranks), reverse=True))
    total = sum(POINT_VALUE[modalidad][r] for r in ranks)
    kind, pares = pares_of(values)
    return HandValue(
        grande=_encode(values),
        chica=-_encode(reversed(values)),
        pares_kind=kind,
        pares=pares,
        total=total,
        juego=JUEGO_ORDER.get(total, 0),
        values=values,
    )


def evaluate(cards: Iterable[int], modalidad: str = "8R8A") -> HandValue:
    """The value of a four-card hand (SPANISH_40 ids) under ``modalidad``."""
    return _evaluate_ranks(tuple(sorted(c % 10 for c in cards)), modalidad)


def best_seat(values: Sequence[HandValue], lance: Lance, order: Sequence[int]) -> int | None:
    """The seat that wins ``lance`` among ``order`` (seats from the mano); ties go to the earliest."""
    best: int | None = None
    best_strength = 0
    for seat in order:
        strength = values[seat].strength(lance)
        if best is None or strength > best_strength:
            best, best_strength = seat, strength
    return best


def holds(value: HandValue, lance: Lance) -> bool:
    """Whether the hand takes part in ``lance`` (pares and juego need holders)."""
    if lance == "pares":
        return value.has_pares
    if lance == "juego":
        return value.has_juego
    return True


def describe(value: HandValue) -> str:
    """A short Spanish summary of a hand: its pares and its total."""
    parts = [PARES_NAMES[value.pares_kind]] if value.has_pares else ["sin pares"]
    parts.append(f"juego de {value.total}" if value.has_juego else f"{value.total} al punto")
    return ", ".join(parts)


# Percentiles for bots: the share of all hands a hand beats (or ties) in a lance.

_RANK_COPIES = 4


@cache
def _distribution(lance: Lance, modalidad: str) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """Sorted strengths of every four-card hand in ``lance`` and their cumulative shares."""
    weights: Counter[int] = Counter()
    for ranks, weight in _rank_multisets():
        value = _evaluate_ranks(ranks, modalidad)
        if holds(value, lance):
            weights[value.strength(lance)] += weight
    strengths = tuple(sorted(weights))
    total = sum(weights.values())
    running, cumulative = 0, []
    for s in strengths:
        running += weights[s]
        cumulative.append(running / total)
    return strengths, tuple(cumulative)


@cache
def _rank_multisets() -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every multiset of four rank indexes with the number of hands that have it."""
    from itertools import combinations_with_replacement
    from math import comb

    out = []
    for ranks in combinations_with_replacement(range(10), 4):
        weight = 1
        for n in Counter(ranks).values():
            weight *= comb(_RANK_COPIES, n)
        if weight:
            out.append((ranks, weight))
    return tuple(out)


def percentile(value: HandValue, lance: Lance, modalidad: str = "8R8A") -> float:
    """The share of hands (holders only, for pares and juego) that this hand beats or ties in ``lance``."""
    import bisect

    strengths, cumulative = _distribution(lance, modalidad)
    i = bisect.bisect_right(strengths, value.strength(lance)) - 1
    return cumulative[i] if i >= 0 else 0.0
