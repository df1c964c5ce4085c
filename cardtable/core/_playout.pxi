# The pieces every compiled search playout shares (``games/crazy_eights/players/_fast.pyx``,
# ``games/wizard/players/_fast.pyx``, ``games/kaiser/_fast.pyx``): the planted defect, the bridge to the
# bots' ``random.Random`` (``core/_twister.pxd``) and the bit tricks. Included (``include``), not cimported:
# it declares the module's own ``DEFECT``, and ``give_back`` and ``sample`` read the module's ``LATE_DEFECT``,
# the number of its defect "the generator goes back to Python one word late".

from libc.stdint cimport uint64_t

from cardtable.core._twister cimport Twister, layout_is_cpythons, load, next32, store
from cardtable.core._twister cimport sample as _sample

import random as _random_module

#: A planted defect (tests only, ``plant``): 0 for none.
cdef int DEFECT = 0
#: Whether ``random.Random`` objects are CPython's ``RandomObject`` (their state then copied directly).
cdef bint DIRECT = layout_is_cpythons()
cdef object RANDOM = _random_module.Random

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define CT_CTZ(x) __builtin_ctzll(x)
    #define CT_TOP(x) (63 - __builtin_clzll(x))
    #else
    static int CT_CTZ(unsigned long long x) { int n = 0; while (!(x & 1ULL)) { x >>= 1; n++; } return n; }
    static int CT_TOP(unsigned long long x) { int n = -1; while (x) { x >>= 1; n++; } return n; }
    #endif
    """
    int ctz "CT_CTZ"(uint64_t x) nogil
    int top_bit "CT_TOP"(uint64_t x) nogil


cdef int take(Twister* g, object rng) except -1:
    """``load``: straight from the object where its layout is CPython's and it is exactly a ``random.Random``."""
    return load(g, rng, DIRECT and type(rng) is RANDOM)


cdef int give_back(Twister* g, object rng) except -1:
    """``store``, where the defect ``LATE_DEFECT`` can be planted."""
    if DEFECT == LATE_DEFECT:
        next32(g)
    return store(g, rng, DIRECT and type(rng) is RANDOM)


def sample(seed: int, rng: object) -> list:
    """``core/_twister.pxd``'s recipe of draws (``cardtable.core.twister.same_stream`` compares it with Python's)."""
    out = _sample(seed, rng, DIRECT and type(rng) is RANDOM)
    if DEFECT == LATE_DEFECT:
        rng.getrandbits(32)  # as give_back would
    return out


# Bits.

cdef inline uint64_t bit(int card) noexcept nogil:
    return <uint64_t>1 << card


cdef inline int popcount(uint64_t x) noexcept nogil:
    # No -mpopcnt build (wheels run on any x86-64): the builtin would be a library call.
    x = x - ((x >> 1) & 0x5555555555555555ULL)
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL
    return <int>((x * 0x0101010101010101ULL) >> 56)
