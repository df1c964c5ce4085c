# cython: language_level=3
"""CPython's ``random.Random`` in C (MT19937 and the draws the bots use), for the compiled playouts.

Cimported (inline) by every compiled playout module, so a compiled playout consumes exactly the
numbers the Python one does, in the same order. The specification is CPython's
``Modules/_randommodule.c`` and ``Lib/random.py`` (3.11):

- ``Random(n)`` for an int ``n``: ``init_by_array`` with the 32-bit words of ``abs(n)``, least
  significant first (one word 0 for ``n == 0``), on top of ``init_genrand(19650218)``;
- ``random()``: ``(a * 2**26 + b) / 2**53`` with ``a, b`` the next two outputs shifted right by 5 and 6;
- ``getrandbits(k)``: ``k <= 32``: one output shifted right by ``32 - k``; more: outputs filling the
  32-bit words from the least significant, the last shifted right to its ``k mod 32`` bits;
- ``_randbelow(n)`` (``randrange(n)``, ``choice``, ``shuffle``): ``getrandbits(n.bit_length())``
  until it is below ``n``; ``shuffle``: for ``i = len - 1 … 1`` swap items ``i`` and ``_randbelow(i + 1)``.

``load`` and ``store`` move the state (624 words and the index) in and out of a ``random.Random``, so
the Python code after a compiled playout sees the stream where the playout left it: copied straight
from the object where its layout is CPython's ``RandomObject`` (``layout_is_cpythons``, checked once
per module), else through ``_random.Random.getstate`` / ``setstate``. ``cardtable.core.twister`` checks at
import, in the running interpreter, that these draws are Python's (``sample``); where they are not,
the compiled playouts are not used.
"""

from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy

cdef enum:
    MT_N = 624
    MT_M = 397

cdef struct Twister:
    uint32_t words[MT_N]
    int index


cdef inline void init_genrand(Twister* g, uint32_t s) noexcept nogil:
    """The state from one 32-bit seed (the base of ``init_by_array``)."""
    cdef int i
    g.words[0] = s
    for i in range(1, MT_N):
        g.words[i] = <uint32_t>(<uint32_t>1812433253 * (g.words[i - 1] ^ (g.words[i - 1] >> 30)) + <uint32_t>i)
    g.index = MT_N


cdef inline void init_by_array(Twister* g, const uint32_t* key, int length) noexcept nogil:
    """The state from ``length`` (at least 1) 32-bit key words: CPython's seeding of an int."""
    init_genrand(g, <uint32_t>19650218)
    mix_key(g, key, length)


cdef inline void mix_key(Twister* g, const uint32_t* key, int length) noexcept nogil:
    """``init_by_array`` after its ``init_genrand(19650218)``: the key mixed into the words."""
    cdef int i = 1, j = 0, k
    cdef uint32_t* w = g.words
    k = MT_N if MT_N > length else length
    while k > 0:
        w[i] = <uint32_t>((w[i] ^ <uint32_t>((w[i - 1] ^ (w[i - 1] >> 30)) * <uint32_t>1664525))
                          + key[j] + <uint32_t>j)
        i += 1
        j += 1
        if i >= MT_N:
            w[0] = w[MT_N - 1]
            i = 1
        if j >= length:
            j = 0
        k -= 1
    k = MT_N - 1
    while k > 0:
        w[i] = <uint32_t>((w[i] ^ <uint32_t>((w[i - 1] ^ (w[i - 1] >> 30)) * <uint32_t>1566083941)) - <uint32_t>i)
        i += 1
        if i >= MT_N:
            w[0] = w[MT_N - 1]
            i = 1
        k -= 1
    w[0] = <uint32_t>0x80000000


cdef inline void seed_u64(Twister* g, uint64_t seed) noexcept nogil:
    """``random.Random(seed)`` for ``0 <= seed < 2**64``."""
    init_genrand(g, <uint32_t>19650218)
    seed_u64_from(g, g, seed)


cdef inline void seed_u64_from(Twister* g, const Twister* base, uint64_t seed) noexcept nogil:
    """``seed_u64`` with ``init_genrand(19650218)`` already done in ``base`` (which may be ``g``): a playout's
    generator seeded afresh for every sampled world costs a third less."""
    cdef uint32_t key[2]
    key[0] = <uint32_t>seed
    key[1] = <uint32_t>(seed >> 32)
    if g != base:
        memcpy(g, base, sizeof(Twister))
    mix_key(g, key, 2 if seed >> 32 else 1)


cdef inline void twist(Twister* g) noexcept nogil:
    """The next 624 words of the state (the twist)."""
    cdef int kk
    cdef uint32_t y
    cdef uint32_t* w = g.words
    for kk in range(MT_N - MT_M):
        y = (w[kk] & <uint32_t>0x80000000) | (w[kk + 1] & <uint32_t>0x7fffffff)
        w[kk] = w[kk + MT_M] ^ (y >> 1) ^ (<uint32_t>0x9908b0df if y & 1 else <uint32_t>0)
    for kk in range(MT_N - MT_M, MT_N - 1):
        y = (w[kk] & <uint32_t>0x80000000) | (w[kk + 1] & <uint32_t>0x7fffffff)
        w[kk] = w[kk + MT_M - MT_N] ^ (y >> 1) ^ (<uint32_t>0x9908b0df if y & 1 else <uint32_t>0)
    y = (w[MT_N - 1] & <uint32_t>0x80000000) | (w[0] & <uint32_t>0x7fffffff)
    w[MT_N - 1] = w[MT_M - 1] ^ (y >> 1) ^ (<uint32_t>0x9908b0df if y & 1 else <uint32_t>0)
    g.index = 0


cdef inline uint32_t next32(Twister* g) noexcept nogil:
    """One 32-bit output (``genrand_uint32``), tempered."""
    cdef uint32_t y
    if g.index >= MT_N:
        twist(g)
    y = g.words[g.index]
    g.index += 1
    y ^= y >> 11
    y ^= (y << 7) & <uint32_t>0x9d2c5680
    y ^= (y << 15) & <uint32_t>0xefc60000
    y ^= y >> 18
    return y


cdef inline double random(Twister* g) noexcept nogil:
    """``Random.random()``: 53 bits from two outputs."""
    cdef uint32_t a = next32(g) >> 5
    cdef uint32_t b = next32(g) >> 6
    return (<double>a * 67108864.0 + <double>b) * (1.0 / 9007199254740992.0)


cdef inline uint64_t getrandbits(Twister* g, int k) noexcept nogil:
    """``Random.getrandbits(k)`` for ``0 <= k <= 64``."""
    cdef uint64_t low
    if k == 0:
        return 0
    if k <= 32:
        return next32(g) >> (32 - k)
    low = next32(g)
    return low | (<uint64_t>(next32(g) >> (64 - k)) << 32)


cdef inline int bit_length(uint64_t n) noexcept nogil:
    """``n.bit_length()``."""
    cdef int k = 0
    while n:
        n >>= 1
        k += 1
    return k


cdef inline uint64_t randbelow(Twister* g, uint64_t n) noexcept nogil:
    """``Random._randbelow(n)`` (``randrange(n)``) for ``1 <= n < 2**64``."""
    cdef int k = bit_length(n)
    cdef uint64_t r = getrandbits(g, k)
    while r >= n:
        r = getrandbits(g, k)
    return r


cdef inline void shuffle_u8(Twister* g, uint8_t* items, int n) noexcept nogil:
    """``Random.shuffle`` of ``n`` bytes in place."""
    cdef int i, j
    cdef uint8_t tmp
    for i in range(n - 1, 0, -1):
        j = <int>randbelow(g, <uint64_t>(i + 1))
        tmp = items[i]
        items[i] = items[j]
        items[j] = tmp


cdef extern from *:
    """
    /* CPython's RandomObject (Modules/_randommodule.c): its layout is checked before use (layout_is_cpythons). */
    typedef struct { PyObject_HEAD int index; uint32_t state[624]; } ct_RandomObject;
    """
    ctypedef struct ct_RandomObject:
        int index
        uint32_t state[MT_N]


cdef inline bint layout_is_cpythons():
    """Whether ``random.Random`` objects hold their state as CPython's ``RandomObject`` does (the index, then the
    624 words), read and written: checked against ``getstate`` and ``setstate``. Then ``load`` and ``store``
    copy the words directly (``direct``), instead of through a tuple of 625 ints (some 20 µs a call)."""
    import random
    cdef ct_RandomObject* view
    cdef int i
    for seed in (1, 2**40 + 3):
        r = random.Random(seed)
        r.random()
        state = r.getstate()[1]
        view = <ct_RandomObject*><void*>r
        if view.index != state[MT_N]:
            return False
        for i in range(MT_N):  # (no generator expressions in an inline function of a .pxd)
            if view.state[i] != state[i]:
                return False
        view.state[7] ^= 1
        view.index = 3
        changed = r.getstate()[1]
        if changed[7] != state[7] ^ 1 or changed[MT_N] != 3:
            return False
    return True


cdef inline int load(Twister* g, object rng, bint direct) except -1:
    """Take the state of the ``random.Random`` ``rng`` (``direct``: its layout checked by ``layout_is_cpythons``
    and ``rng`` exactly a ``random.Random``)."""
    import _random
    cdef ct_RandomObject* view
    cdef int i
    if direct:
        view = <ct_RandomObject*><void*>rng
        memcpy(g.words, view.state, sizeof(g.words))
        g.index = view.index
        return 0
    state = _random.Random.getstate(rng)
    for i in range(MT_N):
        g.words[i] = <uint32_t>state[i]
    g.index = <int>state[MT_N]
    return 0


cdef inline int store(Twister* g, object rng, bint direct) except -1:
    """Give ``rng`` this state: its next draws are the ones this generator would make."""
    import _random
    cdef ct_RandomObject* view
    cdef int i
    if direct:
        view = <ct_RandomObject*><void*>rng
        memcpy(view.state, g.words, sizeof(g.words))
        view.index = g.index
        return 0
    state = [g.words[i] for i in range(MT_N)]
    state.append(g.index)
    _random.Random.setstate(rng, tuple(state))
    return 0


cdef inline list sample(object seed, object rng, bint direct):
    """A fixed recipe of draws (``cardtable.core.twister.reference_sample`` in Python): seeding from ``seed``, then
    ``rng``'s state loaded, drawn from and stored back."""
    cdef Twister g
    cdef uint8_t items[52]
    cdef int i, k
    out = []
    seed_u64(&g, <uint64_t>seed)
    for i in range(3):
        out.append(random(&g))
    for k in (0, 1, 5, 31, 32, 33, 52, 62, 63, 64):
        out.append(getrandbits(&g, k))
    for n in (1, 2, 3, 7, 52, 1000, 2 ** 31, 2 ** 32 + 1, 2 ** 62, 2 ** 63 + 12345):
        out.append(randbelow(&g, <uint64_t>n))
    for i in range(52):
        items[i] = <uint8_t>i
    shuffle_u8(&g, items, 52)
    out.append([items[i] for i in range(52)])
    for i in range(700):  # past one regeneration of the 624 words
        next32(&g)
    out.append(random(&g))
    load(&g, rng, direct)
    out.append(random(&g))
    out.append(randbelow(&g, 2 ** 62))
    store(&g, rng, direct)
    return out
