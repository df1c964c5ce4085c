"""Randomness that lives in the game state: a small value with a pinned, version-independent stream.

A state holds an :data:`Rng`. Normally that is one ``int``: the 64-bit state of a SplitMix64
generator (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014).
A chance step passes it to one of the few functions below and stores the ``Rng`` they return
in the new state, so ``(options, seed, actions)`` replays the same game, on any Python version
and any platform: the stream is defined here, in integer arithmetic, not by the ``random``
module (whose ``shuffle`` and ``randrange`` Python does not promise to keep).

The stream, exactly:

- ``seeded(seed)``: the state is ``mix(seed mod 2**64)``.
- Each *word*: ``state = (state + 0x9E3779B97F4A7C15) mod 2**64``, then the output is
  ``mix(state)``, where ``mix(z)`` is ``z ^= z >> 30; z *= 0xBF58476D1CE4E5B9; z ^= z >> 27;
  z *= 0x94D049BB133111EB; z ^= z >> 31`` (products mod 2**64).
- ``below(m)``, a uniform integer in ``[0, m)``: ``w = (bits(m) + 127) // 64`` words make
  ``r`` (the first word most significant); if ``r >= 2**(64 w) - 2**(64 w) mod m`` draw
  ``w`` words again (rejection: the result is exactly uniform); the value is ``r mod m``.
- ``randrange(n)`` is ``below(n)``; ``chance(p)`` is ``below(2**53) < p * 2**53``.
- ``shuffled(items)``: ``r = below(n!)``; then for ``i = n-1 … 1``: ``r, j = divmod(r, i + 1)``
  and swap items ``i`` and ``j`` (Fisher–Yates driven by the digits of ``r`` in the factorial
  number system: every permutation is exactly equally likely, from a handful of words).
- ``draws(n, count)``, ``count`` uniform integers below ``n``, ``k`` at a time: ``k`` is the
  largest with ``n**(k+1) <= 2**64`` (at least 1); each word below ``2**64 - 2**64 mod n**k``
  gives ``k`` draws, its base-``n`` digits from the lowest (the last word's unused digits are
  dropped); other words are skipped.

**Scripted chance.** Anything that draws takes an ``Rng``, which may also be a
:class:`ChanceSource`: :class:`Scripted` holds given outcomes (permutations, choices, coin
results) and hands them out in order; when it runs out it raises :class:`ChanceRequired` naming
what the game needs (or continues with a seeded stream, ``then``). ``Game.new(options, seed)``
accepts a ``ChanceSource`` as ``seed`` (every game starts its RNG with :func:`seeded`, which
passes a source through), so a bridge that models chance explicitly (OpenSpiel chance nodes)
scripts the deal without any change to the games: catch ``ChanceRequired``, choose an outcome,
start again with it appended to the script.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

T = TypeVar("T")

MASK = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15


class ChanceSource(abc.ABC):
    """A stand-in for the seeded stream: hands out chance outcomes itself (see :class:`Scripted`)."""

    @abc.abstractmethod
    def permutation(self, n: int) -> tuple[tuple[int, ...], Rng]:
        """A permutation of ``range(n)`` (the new order: position i takes item ``perm[i]``), and what follows."""

    @abc.abstractmethod
    def randrange(self, n: int) -> tuple[int, Rng]:
        """An int in ``[0, n)``, and what follows."""

    @abc.abstractmethod
    def chance(self, p: float) -> tuple[bool, Rng]:
        """An event of probability ``p``: whether it happens, and what follows."""


Rng = int | ChanceSource
"""The RNG value a state holds: a SplitMix64 state (an int), or a :class:`ChanceSource`."""
Seed = int | ChanceSource
"""What ``Game.new`` accepts as a seed: a number, or a :class:`ChanceSource` that scripts chance."""

# Kept for the name games' states use in their annotations.
RngState = Rng


class ChanceRequired(LookupError):
    """A scripted chance source ran out: the game needs ``kind`` (``permutation``, ``randrange``, ``chance``)."""

    def __init__(self, kind: str, size: int | float) -> None:
        what = {"permutation": f"a permutation of {size} items",
                "randrange": f"an int in [0, {size})",
                "chance": f"whether an event of probability {size} happens"}.get(kind, kind)
        super().__init__(f"the game needs a chance outcome the script does not hold: {what}")
        self.kind = kind
        self.size = size


@dataclass(frozen=True, slots=True)
class Scripted(ChanceSource):
    """Chance outcomes given in advance, used in order; afterwards ``then`` (a seeded stream) or ``ChanceRequired``.

    Each outcome is what the next draw needs: a permutation (a tuple of ``0 … n-1``, the new
    order) for a shuffle, an int for ``randrange``, a bool for ``chance``.
    """

    outcomes: tuple[Any, ...] = ()
    then: int | None = None

    def _next(self, kind: str, size: int | float) -> tuple[Any, Rng]:
        if not self.outcomes:
            raise ChanceRequired(kind, size)
        rest: Rng = Scripted(self.outcomes[1:], self.then)
        if len(self.outcomes) == 1 and self.then is not None:
            rest = self.then
        return self.outcomes[0], rest

    def _seeded(self) -> int | None:
        """The seeded stream to continue with, if the script is used up and one was given."""
        return self.then if not self.outcomes else None

    def permutation(self, n: int) -> tuple[tuple[int, ...], Rng]:
        """The next outcome, which must be a permutation of ``range(n)``."""
        if (then := self._seeded()) is not None:
            perm, after = _permutation(then, n)
            return perm, after
        perm, rest = self._next("permutation", n)
        if (not isinstance(perm, (tuple, list)) or not all(type(i) is int for i in perm)
                or sorted(perm) != list(range(n))):
            raise ValueError(f"scripted outcome {perm!r} is not a permutation of 0–{n - 1}")
        return tuple(perm), rest

    def randrange(self, n: int) -> tuple[int, Rng]:
        """The next outcome, which must be an int in ``[0, n)``."""
        if (then := self._seeded()) is not None:
            return below(then, n)
        value, rest = self._next("randrange", n)
        if type(value) is not int or not 0 <= value < n:
            raise ValueError(f"scripted outcome {value!r} is not an int in [0, {n})")
        return value, rest

    def chance(self, p: float) -> tuple[bool, Rng]:
        """The next outcome, which must be a bool."""
        if (then := self._seeded()) is not None:
            return chance(then, p)
        value, rest = self._next("chance", p)
        if type(value) is not bool:
            raise ValueError(f"scripted outcome {value!r} is not a bool")
        return value, rest


# The seeded stream.


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def seeded(seed: Seed) -> Rng:
    """The RNG a game with this seed starts from (a :class:`ChanceSource` is passed through)."""
    if isinstance(seed, ChanceSource):
        return seed
    return _mix(seed & MASK)


def rng_state(seed: int) -> int:
    """The seeded stream of ``seed`` (an int): ``seeded`` for callers that hold a number."""
    return _mix(seed & MASK)


def word(state: int) -> tuple[int, int]:
    """One 64-bit output of the stream, and the state after it."""
    state = (state + GOLDEN_GAMMA) & MASK
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31), state


def below(state: int, m: int) -> tuple[int, int]:
    """A uniform int in ``[0, m)`` from the seeded stream (see the module docstring), and the state after."""
    bounds = _BOUNDS.get(m)
    if bounds is None:
        bounds = _bounds(m)
    words, limit, lanes = bounds
    if lanes is not None:  # several words at once: the same words, in one pass over packed lanes
        rep, gammas, mask, squeeze = lanes
        while True:
            z = (state * rep + gammas) & mask  # lane k holds the state of word ``len(words) - k``
            state = z & MASK  # lane 0: the state after the last word
            z = ((z ^ (z >> 30)) & mask) * 0xBF58476D1CE4E5B9 & mask
            z = ((z ^ (z >> 27)) & mask) * 0x94D049BB133111EB & mask
            r = (z ^ (z >> 31)) & mask
            for shift, keep in squeeze:  # 128-bit lanes to adjacent 64-bit words, first word on top
                r = (r | r >> shift) & keep
            if r < limit:
                return r % m, state
    while True:
        r = 0
        for _ in words:  # word(), inlined
            state = (state + GOLDEN_GAMMA) & MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            r = (r << 64) | z ^ (z >> 31)
        if r < limit:
            return r % m, state


Lanes = tuple[int, int, int, tuple[tuple[int, int], ...]]

#: ``below``'s words, rejection limit and packed-lane constants per bound, computed once (a shuffle draws
#: below n! every deal).
_BOUNDS: dict[int, tuple[range, int, Lanes | None]] = {}


def _bounds(m: int) -> tuple[range, int, Lanes | None]:
    """How many words a draw below ``m`` takes (as a range to loop over), the limit above which it is
    redrawn, and for several words the constants of :func:`_lanes`."""
    if m < 1:
        raise ValueError(f"cannot draw below {m}")
    words = (m.bit_length() + 127) // 64
    span = 1 << (64 * words)
    bounds = (range(words), span - span % m, _lanes(words) if words > 1 else None)
    if len(_BOUNDS) < 4096:  # the bounds games use are few (factorials, seats, ranges of bids)
        _BOUNDS[m] = bounds
    return bounds


def _lanes(words: int) -> Lanes:
    """Constants to compute ``words`` consecutive words of the stream as one big int (arithmetic, not a new stream).

    Lane k (bits 128k…128k+127) holds word ``words - k``: its state ``state + (words - k) * gamma``
    (``state * rep + gammas``), then ``mix`` lane-wise: every product of a 64-bit lane and a 64-bit
    constant fits in its 128-bit lane, and masking with ``mask`` after each shift keeps lanes apart.
    ``squeeze`` then closes the gaps, pairs of lanes first, so the words sit side by side, the
    first word most significant: the ``r`` that the word-by-word loop builds.
    """
    rep = sum(1 << (128 * k) for k in range(words))
    gammas = sum((((words - k) * GOLDEN_GAMMA) & MASK) << (128 * k) for k in range(words))
    squeeze = []
    width, stride, groups = 64, 128, words
    while groups > 1:  # groups of ``width`` bits every ``stride`` bits: merge neighbours
        keep = sum(((1 << (2 * width)) - 1) << (2 * stride * k) for k in range((groups + 1) // 2))
        squeeze.append((stride - width, keep))
        width, stride, groups = 2 * width, 2 * stride, (groups + 1) // 2
    return rep, gammas, MASK * rep, tuple(squeeze)


_FACTORIALS: list[int] = [1]


def _factorial(n: int) -> int:
    while len(_FACTORIALS) <= n:
        _FACTORIALS.append(_FACTORIALS[-1] * len(_FACTORIALS))
    return _FACTORIALS[n]


def _permutation(state: int, n: int) -> tuple[tuple[int, ...], int]:
    """A uniform permutation of ``range(n)`` (Fisher–Yates on the factorial digits of one draw)."""
    r, state = below(state, _factorial(n))
    out = list(range(n))
    _fisher_yates(out, r)
    return tuple(out), state


@cache
def _digit_groups(n: int) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """Fisher–Yates' steps ``(i, i + 1)`` for ``i = n-1 … 1``, in groups whose radices multiply below 2**30.

    ``divmod(r, product)`` of a group gives a small int holding that group's digits, which then
    come out with small-int arithmetic: the same digits as ``divmod(r, i + 1)`` step by step.
    """
    groups, i = [], n - 1
    while i >= 1:
        product, steps = 1, []
        while i >= 1 and product * (i + 1) < 1 << 30:
            product *= i + 1
            steps.append((i, i + 1))
            i -= 1
        groups.append((product, tuple(steps)))
    return tuple(groups)


def _fisher_yates(out: list[Any], r: int) -> None:
    """Shuffle ``out`` in place: for ``i = n-1 … 1``, ``r, j = divmod(r, i + 1)`` and swap items ``i`` and ``j``."""
    steps = _STEPS.get(len(out))
    if steps is None:
        steps = _straight_line(len(out))
        if len(_STEPS) < 256:  # item counts are few: a deck, a discard pile's sizes
            _STEPS[len(out)] = steps
    steps(out, r)


def _straight_line(n: int) -> Callable[[list[Any], int], None]:
    """Fisher–Yates for ``n`` items as straight-line code, its radices written in (no loop, no tuple unpacking).

    Generated from :func:`_digit_groups` only: ``r, x = divmod(r, product)`` per group, then per
    step ``j = x % radix; x //= radix; out[i], out[j] = out[j], out[i]``.
    """
    lines = ["def steps(out, r):", "    x = 0"]
    for product, group in _digit_groups(n):
        lines.append(f"    r, x = divmod(r, {product})")
        for i, radix in group:
            lines.append(f"    j = x % {radix}; x //= {radix}; out[{i}], out[j] = out[j], out[{i}]")
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), namespace)  # generated from ints only
    steps: Callable[[list[Any], int], None] = namespace["steps"]
    return steps


#: The generated shuffles by item count (a deck size or two per game).
_STEPS: dict[int, Callable[[list[Any], int], None]] = {}


# What games call: the only ways randomness enters a game.


def shuffled(rng: Rng, items: Sequence[T], *,
             method: Callable[[int, int], tuple[Sequence[int], int]] | None = None) -> tuple[list[T], Rng]:
    """A shuffled copy of ``items`` and the RNG after it.

    ``method(state, n) -> (order, state)`` replaces the uniform shuffle of the seeded stream by a
    game's own (Durak's 1000 moves of a random card to the top); a :class:`ChanceSource` is asked
    for the permutation either way.
    """
    n = len(items)
    if type(rng) is int:
        if method is None:
            r, rng = below(rng, _factorial(n))
            out = list(items)
            _fisher_yates(out, r)
            return out, rng
        order, rng = method(rng, n)
        return [items[i] for i in order], rng
    assert isinstance(rng, ChanceSource)
    perm, after = rng.permutation(n)
    return [items[i] for i in perm], after


Hands = tuple[int, ...]


def dealt(rng: Rng, n: int, players: int, count: int) -> tuple[Hands, int | None, Rng]:
    """``shuffled(rng, range(n))`` dealt one at a time: ``count`` cards to each of ``players`` hands, then one turned.

    Returns the hands as bitmasks (hand ``k`` holds the cards at positions ``k``, ``k + players``, … below
    ``players * count``), the card at position ``players * count`` (None if that is ``n``) and the RNG after:
    exactly what dealing from ``shuffled`` gives, with less work (a seeded stream goes through code generated
    per deal size that makes only the Fisher–Yates steps a deal needs, see :func:`_straight_deal`).
    """
    deal = players * count
    if players < 1 or count < 0 or deal > n:
        raise ValueError(f"cannot deal {count} cards to each of {players} hands from {n}")
    if type(rng) is int:
        key = (n, players, count)
        known = _DEALS.get(key)
        if known is None:
            known = _straight_deal(n, players, count), _factorial(n)
            if len(_DEALS) < 1024:  # deal sizes are few: a game's rounds and table sizes
                _DEALS[key] = known
        steps, orders = known
        r, rng = below(rng, orders)
        hands, turned = steps(r)
        return hands, turned, rng
    deck, rng = shuffled(rng, range(n))
    hands = tuple(sum(1 << card for card in deck[k:deal:players]) for k in range(players))
    return hands, deck[deal] if deal < n else None, rng


def _straight_deal(n: int, players: int, count: int) -> Callable[[int], tuple[Hands, int | None]]:
    """:func:`_straight_line`'s Fisher–Yates for a deal: ``r`` to the hands and the turned card.

    Step ``i`` (``i = n-1 … 1``) fixes position ``i`` for good. Above the cards dealt and turned
    (``i > players * count``) the item leaving position ``i`` is never looked at again, so the swap is one
    assignment ``out[j] = out[i]``; below, the item that lands on position ``i`` goes straight into its hand.
    Each digit ``j`` is read from its group's small int as ``x // d % radix`` (``d``: the radices before it in
    the group), the same digits as ``_straight_line``'s ``x % radix; x //= radix``, in fewer steps.
    """
    deal = players * count
    lines = ["def steps(r):", f"    out = list(range({n}))"]
    lines += [f"    h{k} = 0" for k in range(players)] + ["    turned = None"]
    for product, group in _digit_groups(n):
        lines.append(f"    r, x = divmod(r, {product})")
        below_digit = 1  # the product of the group's radices before this digit: the digit is x // below_digit % radix
        for i, radix in group:
            digit = "x" if below_digit == 1 else f"x // {below_digit}"
            if below_digit * radix != product:
                digit += f" % {radix}"
            below_digit *= radix
            if i > deal:
                lines.append(f"    out[{digit}] = out[{i}]")
            elif i == deal:
                lines.append(f"    j = {digit}; turned = out[j]; out[j] = out[{i}]")
            else:
                lines.append(f"    j = {digit}; h{i % players} |= 1 << out[j]; out[j] = out[{i}]")
    if deal > 0:
        lines.append("    h0 |= 1 << out[0]")
    elif n > 0:
        lines.append("    turned = out[0]")
    lines.append(f"    return ({''.join(f'h{k}, ' for k in range(players))}), turned")
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), namespace)  # generated from ints only
    steps: Callable[[int], tuple[Hands, int | None]] = namespace["steps"]
    return steps


#: The generated deals by ``(n, players, count)``, each with ``n!``.
_DEALS: dict[tuple[int, int, int], tuple[Callable[[int], tuple[Hands, int | None]], int]] = {}


def randrange(rng: Rng, n: int) -> tuple[int, Rng]:
    """A uniform int in ``[0, n)`` and the RNG after it."""
    if type(rng) is int:
        return below(rng, n)
    assert isinstance(rng, ChanceSource)
    return rng.randrange(n)


def chance(rng: Rng, p: float) -> tuple[bool, Rng]:
    """Whether an event of probability ``p`` happens (to within 2**-53), and the RNG after it."""
    if type(rng) is int:
        x, rng = below(rng, 1 << 53)
        return x < p * (1 << 53), rng
    assert isinstance(rng, ChanceSource)
    return rng.chance(p)


@cache
def digits_per_word(n: int) -> int:
    """How many draws below ``n`` one word gives in :func:`draws`: the largest ``k`` with ``n**(k+1) <= 2**64``."""
    if n < 2:
        raise ValueError(f"cannot draw several values below {n}")
    k = 1
    while n ** (k + 2) <= 1 << 64:
        k += 1
    return k


@cache
def _word_limit(n: int) -> int:
    """Words at or above this are skipped by :func:`draws`: the rest give ``digits_per_word(n)`` uniform digits."""
    block: int = n ** digits_per_word(n)
    return (1 << 64) - (1 << 64) % block


def draws(state: int, n: int, count: int) -> tuple[list[int], int]:
    """``count`` uniform ints in ``[0, n)`` from the seeded stream, several per word (see the module docstring)."""
    k, limit = digits_per_word(n), _word_limit(n)
    out: list[int] = []
    while len(out) < count:
        z, state = word(state)
        if z >= limit:
            continue
        for _ in range(min(k, count - len(out))):
            z, digit = divmod(z, n)
            out.append(digit)
    return out, state
