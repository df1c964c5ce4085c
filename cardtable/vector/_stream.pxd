# cython: language_level=3
"""The pinned SplitMix64 stream of ``cardtable.core.rng`` in C: the same words, the same digits, the same draws.

Cimported (inline) by every compiled rules module. ``below`` and ``shuffle`` follow the definition in
``core/rng.py`` exactly: a draw below ``m`` takes ``(bits(m) + 127) // 64`` words (first word most
significant), is redrawn when ``r // m`` reaches ``2**(64 w) // m`` (the same test as
``r >= 2**(64 w) - 2**(64 w) % m``), and a shuffle of ``n`` items takes the factorial-base digits of
one draw below ``n!``: ``r, j = divmod(r, i + 1)`` for ``i = n-1 … 1``, swapping items ``i`` and ``j``.
The digits come from successive divisions of ``r`` itself (they equal those of ``r mod n!``), several
radices at a time (products below 2**32), on 32-bit limbs, so no big-number division is needed.
"""

from libc.stdint cimport uint8_t, uint32_t, uint64_t

cdef enum:
    MAX_ITEMS = 64   # the largest shuffle (a deck of 64 cards; Wizard's 60 needs 6 words)
    MAX_LIMBS = 16   # 32-bit limbs of one draw: up to 8 words

cdef extern from *:
    """
    static const uint64_t CT_GAMMA = 0x9E3779B97F4A7C15ULL;
    static const uint64_t CT_M1 = 0xBF58476D1CE4E5B9ULL;
    static const uint64_t CT_M2 = 0x94D049BB133111EBULL;
    """
    const uint64_t CT_GAMMA
    const uint64_t CT_M1
    const uint64_t CT_M2


cdef struct Bound:
    # How a draw below some m is made and checked: words, and 2**(64 words) // m as 2*words limbs
    # (most significant first). ``always`` when that quotient needs one limb more (m = 1): never redrawn.
    int words
    int always
    uint32_t qmax[MAX_LIMBS]


cdef inline uint64_t mix(uint64_t z) noexcept nogil:
    """SplitMix64's finaliser: ``seeded(seed)`` is ``mix(seed)``."""
    z = (z ^ (z >> 30)) * CT_M1
    z = (z ^ (z >> 27)) * CT_M2
    return z ^ (z >> 31)


cdef inline uint64_t next_word(uint64_t* state) noexcept nogil:
    """One word of the stream; advances ``state``."""
    state[0] += CT_GAMMA
    return mix(state[0])


cdef inline void draw_limbs(uint64_t* state, int words, uint32_t* limbs) noexcept nogil:
    cdef int k
    cdef uint64_t w
    for k in range(words):
        w = next_word(state)
        limbs[2 * k] = <uint32_t>(w >> 32)
        limbs[2 * k + 1] = <uint32_t>w
    return


cdef inline uint32_t divide(uint32_t* limbs, int count, uint32_t d) noexcept nogil:
    """``limbs //= d`` in place (``count`` limbs, most significant first); returns the remainder."""
    cdef uint64_t rem = 0, cur
    cdef int k
    for k in range(count):
        cur = (rem << 32) | limbs[k]
        limbs[k] = <uint32_t>(cur // d)
        rem = cur % d
    return <uint32_t>rem


cdef inline bint below_limit(const uint32_t* q, const Bound* b) noexcept nogil:
    """Whether the quotient ``q`` (2 * words limbs) is below ``b.qmax``: the draw is kept."""
    cdef int k
    if b.always:
        return True
    for k in range(2 * b.words):
        if q[k] != b.qmax[k]:
            return q[k] < b.qmax[k]
    return False


cdef inline uint32_t below_small(uint64_t* state, uint32_t m, const Bound* b) noexcept nogil:
    """``rng.below(state, m)`` for ``m`` below 2**32 (``b``: the bound of ``m``)."""
    cdef uint32_t limbs[MAX_LIMBS]
    cdef uint32_t digit
    while True:
        draw_limbs(state, b.words, limbs)
        digit = divide(limbs, 2 * b.words, m)
        if below_limit(limbs, b):
            return digit


cdef inline void shuffle(uint64_t* state, uint8_t* items, int n, const Bound* b) noexcept nogil:
    """``rng.shuffled(state, items)`` in place (``b``: the bound of ``n!``)."""
    cdef uint32_t limbs[MAX_LIMBS]
    cdef uint8_t digits[MAX_ITEMS]
    cdef uint64_t product
    cdef uint32_t x
    cdef int i, top, k, count, first
    cdef uint8_t tmp
    count = 2 * b.words
    while True:
        draw_limbs(state, b.words, limbs)
        i = n - 1
        first = 0
        while i >= 1:
            product = 1
            top = i
            while i >= 1 and product * <uint64_t>(i + 1) < (<uint64_t>1 << 32):
                product *= <uint64_t>(i + 1)
                i -= 1
            while first < count - 1 and limbs[first] == 0:  # the quotient shrinks: skip its zero limbs
                first += 1
            x = divide(limbs + first, count - first, <uint32_t>product)
            for k in range(top, i, -1):
                digits[k] = <uint8_t>(x % <uint32_t>(k + 1))
                x //= <uint32_t>(k + 1)
        if below_limit(limbs, b):
            break
    for k in range(n - 1, 0, -1):
        tmp = items[k]
        items[k] = items[digits[k]]
        items[digits[k]] = tmp


cdef inline uint32_t uniform(uint64_t* state, uint32_t count) noexcept nogil:
    """A uniform int below ``count`` (>= 1) for the built-in policies: one 32-bit multiply, exact by rejection.

    Not the pinned ``below`` (a policy's choices are not part of a game record); Lemire's method.
    """
    cdef uint64_t m
    cdef uint32_t threshold
    m = (next_word(state) >> 32) * <uint64_t>count
    if <uint32_t>m < count:
        threshold = <uint32_t>(-count) % count
        while <uint32_t>m < threshold:
            m = (next_word(state) >> 32) * <uint64_t>count
    return <uint32_t>(m >> 32)


cdef inline void fill_bound(Bound* b, object m):
    """Set ``b`` to the bound of a draw below ``m`` (a Python int: exact, once at import)."""
    cdef int k
    words = (int(m).bit_length() + 127) // 64
    if 2 * words > MAX_LIMBS:
        raise ValueError(f"a draw below {m} needs {words} words; the compiled stream takes at most {MAX_LIMBS // 2}")
    q = (1 << (64 * words)) // m
    b.words = words
    b.always = q.bit_length() > 64 * words
    for k in range(2 * words):
        b.qmax[k] = (q >> (32 * (2 * words - 1 - k))) & 0xFFFFFFFF
