"""What a seat can infer about the other three hands, lance by lance, without sampling.

Every four-card hand is one of 715 multisets of rank indexes. For the other seats this module
weighs each multiset by how many ways the unseen cards make it (the seat's own cards removed),
keeps those that agree with the seat's pares/juego declarations, and multiplies in how likely a
player holding it was to say what was said in this hand (pass, envite, raise, órdago, quiero, no
quiero), from a generic threshold model on the hand's percentile in the lance. From these weights
:func:`pair_win_chance` works out exactly (seats treated as independent) the chance that a pair
wins a lance, ties going to the seat nearest the mano.

:func:`game_win_chance` turns a tanteo into the chance of winning the game by playing on, from a
table of tantos per pair and hand measured in bot self-play.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from math import comb

from cardtable.games.mus.rules import (
    DUPLES,
    LANCES,
    MEDIAS,
    PAR,
    Lance,
    _evaluate_ranks,
    holds,
    percentile,
)

#: Pares and juego values per holder (the default scoring; only used to weigh the lance's bonus).
PARES_BONUS = {PAR: 1, MEDIAS: 2, DUPLES: 3}


@dataclass(frozen=True)
class HandTable:
    """The 715 rank multisets of one modalidad with what each is worth in every lance.

    ``level[lance][i]`` is 0 when multiset ``i`` does not take part in the lance (pares, juego) and
    otherwise its strength's rank among all strengths (1 = weakest); ``q`` its percentile.
    """

    counts: tuple[tuple[int, ...], ...]
    level: dict[str, tuple[int, ...]]
    levels: dict[str, int]
    q: dict[str, tuple[float, ...]]
    has_pares: tuple[bool, ...]
    has_juego: tuple[bool, ...]
    bonus: dict[str, tuple[int, ...]]


@cache
def hand_table(modalidad: str) -> HandTable:
    """The table of every rank multiset under ``modalidad`` (built once)."""
    multisets = list(combinations_with_replacement(range(10), 4))
    values = [_evaluate_ranks(ms, modalidad) for ms in multisets]
    counts = tuple(tuple(Counter(ms).get(r, 0) for r in range(10)) for ms in multisets)
    level: dict[str, tuple[int, ...]] = {}
    levels: dict[str, int] = {}
    q: dict[str, tuple[float, ...]] = {}
    for lance in LANCES:
        strengths = sorted({v.strength(lance) for v in values if holds(v, lance)})
        index = {s: i + 1 for i, s in enumerate(strengths)}
        level[lance] = tuple(index[v.strength(lance)] if holds(v, lance) else 0 for v in values)
        levels[lance] = len(strengths)
        q[lance] = tuple(percentile(v, lance, modalidad) if holds(v, lance) else 0.0 for v in values)
    bonus = {
        "pares": tuple(PARES_BONUS.get(v.pares_kind, 0) for v in values),
        "juego": tuple((3 if v.total == 31 else 2) if v.has_juego else 0 for v in values),
    }
    return HandTable(counts, level, levels, q, tuple(v.has_pares for v in values),
                     tuple(v.has_juego for v in values), bonus)


_INDEX: dict[tuple[int, ...], int] = {ms: i for i, ms in enumerate(combinations_with_replacement(range(10), 4))}


def multiset_index(ranks: tuple[int, ...]) -> int:
    """The position of a sorted multiset of four rank indexes in :func:`hand_table`."""
    return _INDEX[ranks]


@cache
def unseen_weights(modalidad: str, own_ranks: tuple[int, ...]) -> tuple[float, ...]:
    """How many hands of the unseen 36 cards make each multiset (own cards removed)."""
    table = hand_table(modalidad)
    mine = Counter(own_ranks)
    out = []
    for counts in table.counts:
        w = 1
        for r, n in enumerate(counts):
            if n:
                w *= comb(4 - mine.get(r, 0), n)
        out.append(float(w))
    return tuple(out)


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


#: The generic speaker: the percentile around which it bets, raises, accepts… and how sharply.
BET_AT, RAISE_AT, ACCEPT_AT, ACCEPT_ORDAGO_AT, SHARPNESS = 0.78, 0.9, 0.66, 0.84, 0.03
#: Nobody is that predictable: every word keeps at least this likelihood.
FLOOR = 0.01


def likelihood(kind: str, q: float, *, ordago: bool = False) -> float:
    """How likely a player whose hand has percentile ``q`` in the lance says ``kind``."""
    if kind == "pass":
        p = 1 - _sigmoid((q - BET_AT) / SHARPNESS)
    elif kind == "bet":
        p = _sigmoid((q - BET_AT) / SHARPNESS)
    elif kind in ("raise", "ordago"):
        p = _sigmoid((q - RAISE_AT) / (SHARPNESS * 0.7))
    elif kind in ("accept", "accept_no_lose"):
        p = _sigmoid((q - (ACCEPT_ORDAGO_AT if ordago else ACCEPT_AT)) / SHARPNESS)
    elif kind == "reject":
        p = 1 - _sigmoid((q - (ACCEPT_ORDAGO_AT if ordago else ACCEPT_AT)) / SHARPNESS)
    else:
        return 1.0
    return FLOOR + (1 - 2 * FLOOR) * p


@cache
def likelihoods(modalidad: str, lance: str, kind: str, ordago: bool = False) -> tuple[float, ...]:
    """:func:`likelihood` for every multiset of the table (0 where it does not take part)."""
    table = hand_table(modalidad)
    return tuple(likelihood(kind, q, ordago=ordago) if lv else 0.0
                 for q, lv in zip(table.q[lance], table.level[lance], strict=True))


@dataclass(frozen=True)
class Said:
    """One word a seat said in this hand: the lance, the kind and whether it answered an órdago."""

    lance: str
    kind: str
    ordago: bool = False


def seat_weights(modalidad: str, own_ranks: tuple[int, ...], pares: bool | None, juego: bool | None,
                 said: Iterable[Said] = ()) -> list[float]:
    """The weight of each multiset for one other seat: unseen ways × declarations × what it said."""
    table = hand_table(modalidad)
    base = unseen_weights(modalidad, own_ranks)
    weights = list(base)
    if pares is not None or juego is not None:
        for i, w in enumerate(weights):
            if w and ((pares is not None and table.has_pares[i] != pares)
                      or (juego is not None and table.has_juego[i] != juego)):
                weights[i] = 0.0
    for word in said:
        weights = [w * x for w, x in zip(weights, likelihoods(modalidad, word.lance, word.kind, word.ordago),
                                         strict=True)]
    if not any(weights):  # the model ruled out everything: fall back on the declarations alone
        return seat_weights(modalidad, own_ranks, pares, juego)
    return weights


def level_pmf(modalidad: str, lance: Lance, weights: Sequence[float]) -> list[float]:
    """The normalised distribution of a seat's level (0 = not in the lance) from multiset weights."""
    table = hand_table(modalidad)
    pmf = [0.0] * (table.levels[lance] + 1)
    for lv, w in zip(table.level[lance], weights, strict=True):
        if w:
            pmf[lv] += w
    total = sum(pmf)
    return [x / total for x in pmf] if total else pmf


def point_pmf(modalidad: str, lance: Lance, level: int) -> list[float]:
    """A known hand's level as a distribution."""
    pmf = [0.0] * (hand_table(modalidad).levels[lance] + 1)
    pmf[level] = 1.0
    return pmf


def pair_win_chance(pmfs: Sequence[Sequence[float]], order: Sequence[int], pair: int) -> float:
    """The chance that ``pair`` (0: seats 0 and 2) wins the lance; ``pmfs[seat]`` are level distributions.

    The highest level wins; among equals the seat earliest in ``order`` (from the mano); level 0
    never wins. Seats are independent.
    """
    cdfs: list[list[float]] = []
    for pmf in pmfs:
        running, cdf = 0.0, []
        for x in pmf:
            running += x
            cdf.append(running)
        cdfs.append(cdf)
    total = 0.0
    for k, seat in enumerate(order):
        if seat % 2 != pair:
            continue
        pmf = pmfs[seat]
        before, after = [cdfs[t] for t in order[:k]], [cdfs[t] for t in order[k + 1:]]
        for v in range(1, len(pmf)):
            p = pmf[v]
            if not p:
                continue
            for c in before:
                p *= c[v - 1]
            for c in after:
                p *= c[v]
            total += p
    return total


def expected_bonus(modalidad: str, lance: Lance, weights: Sequence[float]) -> float:
    """A seat's expected pares or juego value (0 for the other lances)."""
    if lance not in ("pares", "juego"):
        return 0.0
    values = hand_table(modalidad).bonus[lance]
    total = sum(weights)
    return sum(w * v for w, v in zip(weights, values, strict=True)) / total if total else 0.0


#: Share of hands in which one pair scores 0, 1, …, 15 or more tantos (bot self-play, 2400 hands,
#: órdago hands left out).
GAIN_SHARES = (0.09, 0.17, 0.084, 0.064, 0.087, 0.092, 0.09, 0.092, 0.085, 0.054, 0.035, 0.028, 0.012,
               0.007, 0.005, 0.004)


@cache
def _game_table(target: int) -> tuple[tuple[float, ...], ...]:
    """``table[a][b]``: the chance of winning from a tanteo of a against b (both below ``target``).

    Each hand both pairs score independently by :data:`GAIN_SHARES`; both reaching the target in
    one hand counts half. ``row[a'][b]`` sums over the rivals' gain for a pair standing at ``a'``.
    """
    total = sum(GAIN_SHARES)
    shares = [s / total for s in GAIN_SHARES]
    p0 = shares[0]
    # Rows at or past the target: won, or half when the rivals reach it in the same hand.
    done = [sum(py * (0.5 if b + y >= target else 1.0) for y, py in enumerate(shares)) for b in range(target)]
    v = [[0.0] * target for _ in range(target)]
    row: dict[int, list[float]] = {}
    for a in range(target - 1, -1, -1):
        full = [0.0] * target
        for b in range(target - 1, -1, -1):
            later = sum(py * v[a][b + y] for y, py in enumerate(shares) if y and b + y < target)
            ahead = sum(px * (row[a + x][b] if a + x < target else done[b]) for x, px in enumerate(shares) if x)
            v[a][b] = (p0 * later + ahead) / (1 - p0 * p0)
            full[b] = p0 * v[a][b] + later
        row[a] = full
    return tuple(tuple(r) for r in v)


def game_win_chance(mine: float, theirs: float, target: int) -> float:
    """The chance of winning the game by playing on from a tanteo (fractional tantos interpolate)."""
    if mine >= target:
        return 1.0 if theirs < target else 0.5
    if theirs >= target:
        return 0.0
    table = _game_table(target)
    a0, b0 = int(mine), int(theirs)
    fa, fb = mine - a0, theirs - b0

    def at(a: int, b: int) -> float:
        if a >= target:
            return 1.0
        if b >= target:
            return 0.0
        return table[a][b]

    return ((1 - fa) * (1 - fb) * at(a0, b0) + fa * (1 - fb) * at(a0 + 1, b0)
            + (1 - fa) * fb * at(a0, b0 + 1) + fa * fb * at(a0 + 1, b0 + 1))
