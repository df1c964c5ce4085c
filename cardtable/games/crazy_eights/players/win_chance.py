"""A seat's chance of winning a Crazy Eights game from the totals, with rounds still to play.

The search values a playout that ends a round before the last by the chance of winning the game.
The chance that we finish below one opponent is read from the distribution of the difference of
two seats' penalties over the rounds left (``gap_cdf``). The chance of finishing below all of them
is the product over the opponents raised to the power log2(n) / (n - 1): the opponents' results
are correlated (when one goes out the others do not), and the power makes equal totals give the
fair share 1/n. Against Monte Carlo over the rounds left played by four ``heuristic`` players
(``research/crazy_eights_win_chance.py``) it is off by 0.024 (RMS win chance) with two rounds
left and by 0.044 with one, where it is too hopeful: a power cannot tell an opponent out of the
race from one who leads. (A model of that last round by who goes out, off by under 0.01, won no
more games: research/crazy_eights.md.)

The per-round penalties come from rounds played out by the heuristic (``playout``)
from a fixed seed, once per table setup, so the values are the same in every run (in C where the
compiled ``_fast`` is built: the same rounds).
"""

from __future__ import annotations

import math
import random
from functools import cache
from itertools import accumulate
from typing import Final

from cardtable.core.types import Seat
from cardtable.games.crazy_eights.players.compiled import FAST
from cardtable.games.crazy_eights.players.playout import Table, hand_penalty, play_round

#: Rounds played out to learn the per-round penalty differences (about a second, once per setup).
SAMPLE_ROUNDS: Final = 3000
#: Their generator's seed.
SEED: Final = 20261201


@cache
def sample_rounds(players: int, cards_each: int, draw_until: bool) -> tuple[tuple[int, ...], ...]:
    """Every seat's penalty in ``SAMPLE_ROUNDS`` rounds of heuristic players (fixed seed, random leader)."""
    fast = FAST.get()
    if fast is not None:  # the same rounds in C
        rounds: tuple[tuple[int, ...], ...] = fast.sample_rounds(players, cards_each, draw_until, SAMPLE_ROUNDS, SEED)
        return rounds
    rng = random.Random(SEED)
    out = []
    dealt = players * cards_each
    for _ in range(SAMPLE_ROUNDS):
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[cards_each * i:cards_each * (i + 1)]) for i in range(players)]
        table = Table(hands, deck[dealt + 1:], 0, deck[dealt], deck[dealt] // 13, rng.randrange(players),
                      draw_until=draw_until, random_draws=True)
        play_round(table, rng)
        out.append(tuple(hand_penalty(h) for h in table.hands))
    return tuple(out)


@cache
def round_gaps(players: int, cards_each: int, draw_until: bool) -> tuple[int, ...]:
    """Sorted differences ``pen[j] - pen[i]`` of two seats in one round of heuristic players (fixed seed)."""
    gaps = [pj - pi for pens in sample_rounds(players, cards_each, draw_until)
            for i, pi in enumerate(pens) for j, pj in enumerate(pens) if i != j]
    gaps.sort()
    return tuple(gaps)


@cache
def gap_cdf(players: int, cards_each: int, draw_until: bool, rounds: int) -> tuple[int, tuple[float, ...]]:
    """The distribution of a seat's lead over another after ``rounds`` rounds: (lowest gap, P(gap <= lowest + k))."""
    gaps = round_gaps(players, cards_each, draw_until)
    low, high = gaps[0], gaps[-1]
    one = [0.0] * (high - low + 1)
    for g in gaps:
        one[g - low] += 1.0 / len(gaps)
    dist, start = one, low
    for _ in range(rounds - 1):
        out = [0.0] * (len(dist) + len(one) - 1)
        for i, p in enumerate(dist):
            if p:
                for j, q in enumerate(one):
                    out[i + j] += p * q
        dist, start = out, start + low
    return start, tuple(accumulate(dist))


def beat_chance(lead: int, cdf: tuple[int, tuple[float, ...]]) -> float:
    """P(we finish below one opponent) when we are ``lead`` points below him now (ties count half)."""
    start, cum = cdf
    # We finish below him when lead + (his future - our future) > 0, i.e. gap > -lead; equal is a tie.
    k = -lead - start
    if k < 0:
        return 1.0
    if k >= len(cum):
        return 0.0
    below = cum[k - 1] if k > 0 else 0.0
    return 1.0 - cum[k] + 0.5 * (cum[k] - below)


def win_chance(totals: list[int], seat: Seat, rounds_left: int, cards_each: int, draw_until: bool) -> float:
    """The seat's chance of winning: exact (ties shared) when no round is left, else the product model."""
    own = totals[seat]
    if rounds_left <= 0:
        best = min(totals)
        if own > best:
            return 0.0
        return 1.0 / totals.count(own)
    n = len(totals)
    cdf = gap_cdf(n, cards_each, draw_until, rounds_left)
    chance = 1.0
    for s, t in enumerate(totals):
        if s != seat:
            chance *= beat_chance(t - own, cdf)
    return float(chance ** (math.log2(n) / (n - 1)))

