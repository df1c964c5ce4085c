"""The losing candidate of the technology choice (research/performance.md): the batched Crazy Eights loop in numba.

Kept for its figures only (``python benchmarks/vector.py --only technologies`` times it against the Cython
core it lost to). It is the same random-play loop and the same encoder as ``cardtable/vector/_crazy_eights.pyx``
(the pinned stream, the deal, play, draw with the stock rebuilt, pass, the limit, scoring, the 166 + 4n
bytes), checked to play the very same games as the core (``check_same_games``). Not part of the package.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

U = np.uint64
GAMMA = U(0x9E3779B97F4A7C15)
M1 = U(0xBF58476D1CE4E5B9)
M2 = U(0x94D049BB133111EB)
MASK32 = U(0xFFFFFFFF)
# Scalar columns of the state array.
TOP, SUIT, TURN, DRAWN, LAST, PASSES, ROUND, DEALER, OVER, SLEN, RACT, GAMES = range(12)
NO_CARD = 255


def bounds(max_items: int = 52, max_seats: int = 6) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per n: words, always-accept, qmax limbs of a draw below n! (rows 0..52) and below n (rows 53..)."""
    ms = [math.factorial(n) for n in range(max_items + 1)] + list(range(max_seats + 1))
    words = np.zeros(len(ms), np.int64)
    always = np.zeros(len(ms), np.int64)
    qmax = np.zeros((len(ms), 16), np.uint64)
    for k, m in enumerate(ms):
        if m == 0:
            continue
        w = (m.bit_length() + 127) // 64
        q = (1 << (64 * w)) // m
        words[k], always[k] = w, q.bit_length() > 64 * w
        for j in range(2 * w):
            qmax[k, j] = (q >> (32 * (2 * w - 1 - j))) & 0xFFFFFFFF
    return words, always, qmax


@nb.njit(cache=True, inline="always")
def mix(z):
    z = (z ^ (z >> U(30))) * M1
    z = (z ^ (z >> U(27))) * M2
    return z ^ (z >> U(31))


@nb.njit(cache=True, inline="always")
def next_word(rng, i):
    rng[i] = rng[i] + GAMMA
    return mix(rng[i])


@nb.njit(cache=True)
def draw_limbs(rng, i, w, limbs):
    for k in range(w):
        x = next_word(rng, i)
        limbs[2 * k] = x >> U(32)
        limbs[2 * k + 1] = x & MASK32


@nb.njit(cache=True)
def divide(limbs, first, count, d):
    rem = U(0)
    for k in range(first, count):
        cur = (rem << U(32)) | limbs[k]
        limbs[k] = cur // d
        rem = cur % d
    return rem


@nb.njit(cache=True)
def kept(limbs, b, words, always, qmax):
    if always[b]:
        return True
    for k in range(2 * words[b]):
        if limbs[k] != qmax[b, k]:
            return limbs[k] < qmax[b, k]
    return False


@nb.njit(cache=True)
def below_small(rng, i, m, b, words, always, qmax, limbs):
    while True:
        draw_limbs(rng, i, words[b], limbs)
        digit = divide(limbs, 0, 2 * words[b], U(m))
        if kept(limbs, b, words, always, qmax):
            return int(digit)


@nb.njit(cache=True)
def shuffle(rng, i, items, n, words, always, qmax, limbs, digits):
    count = 2 * words[n]
    while True:
        draw_limbs(rng, i, words[n], limbs)
        j = n - 1
        first = 0
        while j >= 1:
            product = 1
            top = j
            while j >= 1 and product * (j + 1) < (1 << 32):
                product *= j + 1
                j -= 1
            while first < count - 1 and limbs[first] == 0:
                first += 1
            x = int(divide(limbs, first, count, U(product)))
            for k in range(top, j, -1):
                digits[k] = x % (k + 1)
                x //= k + 1
        if kept(limbs, n, words, always, qmax):
            break
    for k in range(n - 1, 0, -1):
        t = items[k]
        items[k] = items[digits[k]]
        items[digits[k]] = t


@nb.njit(cache=True, inline="always")
def popcount(x):
    # The core's bit arithmetic (numba has no popcount intrinsic in its Python subset).
    x = x - ((x >> U(1)) & U(0x5555555555555555))
    x = (x & U(0x3333333333333333)) + ((x >> U(2)) & U(0x3333333333333333))
    x = (x + (x >> U(4))) & U(0x0F0F0F0F0F0F0F0F)
    return int((x * U(0x0101010101010101)) >> U(56))


@nb.njit(cache=True, inline="always")
def lowest(x):
    """The index of the lowest set bit (x != 0): the bits below it, counted."""
    return popcount((x & (~x + U(1))) - U(1))


@nb.njit(cache=True)
def deal(i, players, cards, hands, stock, sc, rng, discards, words, always, qmax, limbs, digits, order):
    for k in range(52):
        order[k] = k
    shuffle(rng, i, order, 52, words, always, qmax, limbs, digits)
    leader = (sc[i, DEALER] + 1) % players
    dealt = players * cards
    for k in range(players):
        hands[i, k] = U(0)
    for k in range(dealt):
        s = (leader + k % players) % players
        hands[i, s] |= U(1) << U(order[k])
    sc[i, TOP] = order[dealt]
    sc[i, SUIT] = order[dealt] // 13
    sc[i, SLEN] = 52 - dealt - 1
    for k in range(sc[i, SLEN]):
        stock[i, k] = order[51 - k]
    discards[i] = U(0)
    sc[i, TURN] = leader
    sc[i, DRAWN] = 0
    sc[i, PASSES] = 0
    sc[i, RACT] = 0
    sc[i, LAST] = NO_CARD


@nb.njit(cache=True)
def reset(i, seed, players, cards, hands, stock, sc, totals, rng, discards, words, always, qmax, limbs, digits,
          order):
    rng[i] = mix(U(seed))
    sc[i, DEALER] = below_small(rng, i, players, 53 + players, words, always, qmax, limbs)
    sc[i, ROUND] = 1
    sc[i, OVER] = 0
    for k in range(6):
        totals[i, k] = 0
    deal(i, players, cards, hands, stock, sc, rng, discards, words, always, qmax, limbs, digits, order)


@nb.njit(cache=True)
def end_round(i, players, cards, rounds, hands, stock, sc, totals, rng, discards, penalty, words, always, qmax,
              limbs, digits, order):
    for s in range(players):
        h = hands[i, s]
        p = 0
        while h:
            p += penalty[lowest(h)]
            h &= h - U(1)
        totals[i, s] += p
    if sc[i, ROUND] >= rounds:
        sc[i, OVER] = 1
        return
    sc[i, ROUND] += 1
    sc[i, DEALER] = (sc[i, DEALER] + 1) % players
    deal(i, players, cards, hands, stock, sc, rng, discards, words, always, qmax, limbs, digits, order)


@nb.njit(cache=True)
def legal(i, draw_until, hands, sc, discards, match, eights, plains, out):
    """The legal ids as two words in out[0], out[1]."""
    out[0] = U(0)
    out[1] = U(0)
    playable = hands[i, sc[i, TURN]] & match[sc[i, TOP] * 4 + sc[i, SUIT]]
    if playable:
        out[0] = playable & plains
        e = playable & eights
        while e:
            s = lowest(e) // 13
            if s < 3:
                out[0] |= U(0xF) << U(52 + 4 * s)
            else:
                out[1] |= U(0xF)
            e &= e - U(1)
    elif (sc[i, SLEN] or discards[i]) and (draw_until or sc[i, DRAWN] == 0):
        out[1] = U(1) << U(4)
    else:
        out[1] = U(1) << U(5)


@nb.njit(cache=True)
def encode(i, seat, players, rounds, hands, sc, totals, discards, obs):
    n = players
    row = obs[i]
    row[:] = 0
    h = hands[i, seat]
    while h:
        row[lowest(h)] = 1
        h &= h - U(1)
    row[52 + sc[i, TOP]] = 1
    row[104 + sc[i, SUIT]] = 1
    if not sc[i, OVER]:
        row[160 + (sc[i, TURN] - seat + n) % n] = 1
        if seat == sc[i, TURN] and sc[i, LAST] != NO_CARD:
            row[108 + sc[i, LAST]] = 1
    row[160 + n + (sc[i, DEALER] - seat + n) % n] = 1
    at = 160 + 2 * n
    for k in range(n):
        row[at + k] = popcount(hands[i, (seat + k) % n])
    at += n
    row[at] = sc[i, SLEN]
    row[at + 1] = popcount(discards[i]) + 1
    row[at + 2] = sc[i, DRAWN]
    row[at + 3] = sc[i, PASSES]
    row[at + 4] = sc[i, ROUND]
    row[at + 5] = rounds
    at += 6
    for k in range(n):
        t = totals[i, (seat + k) % n]
        row[at + k] = (t >> 1) if t < 511 else 255


@nb.njit(cache=True)
def play(steps, encode_obs, players, cards, draw_until, rounds, base_seed, hands, stock, sc, totals, rng, prng,
         discards, obs, mask, match, eights, plains, penalty, words, always, qmax):
    """The batch loop of ``Core.play`` with the random policy; returns (decisions, games ended)."""
    num = hands.shape[0]
    limbs = np.zeros(16, np.uint64)
    digits = np.zeros(64, np.int64)
    order = np.zeros(52, np.int64)
    lg = np.zeros(2, np.uint64)
    ended = 0
    for _ in range(steps):
        for i in range(num):
            seat = sc[i, TURN]
            legal(i, draw_until, hands, sc, discards, match, eights, plains, lg)
            if encode_obs:
                for a in range(70):
                    mask[i, a] = (lg[a >> 6] >> U(a & 63)) & U(1)
                encode(i, seat, players, rounds, hands, sc, totals, discards, obs)
            count = popcount(lg[0]) + popcount(lg[1])
            m = (next_word(prng, i) >> U(32)) * U(count)  # the core's uniform(): Lemire, exact
            if (m & MASK32) < U(count):
                threshold = (U(1 << 32) - U(count)) % U(count)
                while (m & MASK32) < threshold:
                    m = (next_word(prng, i) >> U(32)) * U(count)
            k = int(m >> U(32))
            w = lg[0]
            base = 0
            if k >= popcount(w):
                k -= popcount(w)
                w = lg[1]
                base = 64
            while k:
                w &= w - U(1)
                k -= 1
            action = base + lowest(w)
            round_before = sc[i, ROUND]
            sc[i, RACT] += 1
            if action < 68:
                if action < 52:
                    card, suit = action, action // 13
                else:
                    card, suit = 6 + 13 * ((action - 52) // 4), (action - 52) % 4
                hands[i, seat] ^= U(1) << U(card)
                discards[i] |= U(1) << U(sc[i, TOP])
                sc[i, TOP] = card
                sc[i, SUIT] = suit
                sc[i, DRAWN] = 0
                sc[i, PASSES] = 0
                sc[i, LAST] = NO_CARD
                if hands[i, seat] == 0:
                    end_round(i, players, cards, rounds, hands, stock, sc, totals, rng, discards, penalty, words,
                              always, qmax, limbs, digits, order)
                else:
                    sc[i, TURN] = (seat + 1) % players
            elif action == 68:
                if sc[i, SLEN] == 0:
                    pile = discards[i]
                    n = 0
                    while pile:
                        order[n] = lowest(pile)
                        n += 1
                        pile &= pile - U(1)
                    shuffle(rng, i, order, n, words, always, qmax, limbs, digits)
                    for k2 in range(n):
                        stock[i, k2] = order[k2]
                    sc[i, SLEN] = n
                    discards[i] = U(0)
                sc[i, SLEN] -= 1
                card = stock[i, sc[i, SLEN]]
                hands[i, seat] |= U(1) << U(card)
                sc[i, DRAWN] += 1
                sc[i, LAST] = card
                sc[i, PASSES] = 0
            else:
                sc[i, PASSES] += 1
                sc[i, DRAWN] = 0
                sc[i, LAST] = NO_CARD
                if sc[i, PASSES] >= players:
                    end_round(i, players, cards, rounds, hands, stock, sc, totals, rng, discards, penalty, words,
                              always, qmax, limbs, digits, order)
                else:
                    sc[i, TURN] = (seat + 1) % players
            if sc[i, ROUND] == round_before and not sc[i, OVER] and sc[i, RACT] >= 2000:
                end_round(i, players, cards, rounds, hands, stock, sc, totals, rng, discards, penalty, words,
                          always, qmax, limbs, digits, order)
            if sc[i, OVER]:
                ended += 1
                sc[i, GAMES] += 1
                reset(i, U(base_seed) + U(i) + U(sc[i, GAMES]) * U(num), players, cards, hands, stock, sc, totals,
                      rng, discards, words, always, qmax, limbs, digits, order)
    return steps * num, ended


class NumbaBatch:
    """N Crazy Eights games in numpy arrays, stepped by the numba loop (the core's ``play`` with random play)."""

    def __init__(self, num_envs: int, seed: int, players: int = 4, cards: int = 5, draw_until: bool = True,
                 rounds: int = 1, policy_seed: int = 0) -> None:
        self.args = (players, cards, int(draw_until), rounds, seed)
        n = num_envs
        self.hands = np.zeros((n, 6), np.uint64)
        self.stock = np.zeros((n, 52), np.int64)
        self.sc = np.zeros((n, 12), np.int64)
        self.totals = np.zeros((n, 6), np.int64)
        self.rng = np.zeros(n, np.uint64)
        self.prng = np.array([mix_py(policy_seed + i) for i in range(n)], np.uint64)
        self.discards = np.zeros(n, np.uint64)
        self.obs = np.zeros((n, 166 + 4 * players), np.uint8)
        self.mask = np.zeros((n, 70), np.int8)
        suit = [sum(1 << (s * 13 + r) for r in range(13)) for s in range(4)]
        rank = [sum(1 << (s * 13 + r) for s in range(4)) for r in range(13)]
        self.eights = U(rank[6])
        self.plains = U(((1 << 52) - 1) & ~rank[6])
        self.match = np.array([suit[s] | rank[t % 13] | rank[6] for t in range(52) for s in range(4)], np.uint64)
        self.penalty = np.array([50 if c % 13 == 6 else 1 if c % 13 == 12 else 10 if c % 13 >= 8 else c % 13 + 2
                                 for c in range(52)], np.int64)
        self.words, self.always, self.qmax = bounds()
        limbs, digits, order = np.zeros(16, np.uint64), np.zeros(64, np.int64), np.zeros(52, np.int64)
        for i in range(n):
            reset(i, U((seed + i) % (1 << 64)), players, cards, self.hands, self.stock, self.sc, self.totals,
                  self.rng, self.discards, self.words, self.always, self.qmax, limbs, digits, order)

    def play(self, steps: int, encode: bool) -> tuple[int, int]:
        """``steps`` random decisions per env; the observation and mask written first when ``encode``."""
        players, cards, draw_until, rounds, seed = self.args
        d, e = play(steps, encode, players, cards, draw_until, rounds, seed, self.hands, self.stock, self.sc,
                    self.totals, self.rng, self.prng, self.discards, self.obs, self.mask, self.match, self.eights,
                    self.plains, self.penalty, self.words, self.always, self.qmax)
        return int(d), int(e)


def mix_py(z: int) -> int:
    """SplitMix64's finaliser in Python ints (the policy streams' seeds)."""
    z &= (1 << 64) - 1
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & ((1 << 64) - 1)
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & ((1 << 64) - 1)
    return z ^ (z >> 31)


def check_same_games(num_envs: int = 64, steps: int = 3000) -> None:
    """The numba loop and the Cython core play the same games: states, totals and the last observation agree."""
    import cardtable
    from cardtable.vector._crazy_eights import Core

    options = cardtable.load_game("crazy_eights").options(players=4, rounds=1)
    core = Core(num_envs, 5, options, 9)
    obs = np.zeros((num_envs, 182), np.uint8)
    mask = np.zeros((num_envs, 70), np.int8)
    player = np.zeros(num_envs, np.int32)
    core.reset(obs, mask, player)
    fast = NumbaBatch(num_envs, 5, policy_seed=9)
    assert core.play(steps, 0, True, obs, mask) == fast.play(steps, True)
    for i in range(num_envs):
        state = core.state(i)
        assert state["hands"] == tuple(int(h) for h in fast.hands[i, :4]), i
        assert state["totals"] == tuple(int(t) for t in fast.totals[i, :4]), i
        assert state["rng"] == int(fast.rng[i]), i
    assert (obs == fast.obs).all() and (mask == fast.mask).all()


if __name__ == "__main__":
    check_same_games()
    print("numba loop == Cython core on 64 envs x 3000 decisions")
