# Bit helpers over 64-bit card and legal-id sets, shared by the compiled rules modules (``include "_bits.pxi"``
# after their ``from libc.stdint cimport ... uint64_t``).


cdef inline int popcount(uint64_t x) noexcept nogil:
    # Bit arithmetic: without a -mpopcnt build (wheels run on any x86-64) the builtin is a library call.
    x = x - ((x >> 1) & 0x5555555555555555ULL)
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL
    return <int>((x * 0x0101010101010101ULL) >> 56)


cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_clzll(unsigned long long) nogil


cdef inline int lowest(uint64_t x) noexcept nogil:
    return __builtin_ctzll(x)


cdef inline int nth_bit2(const uint64_t* words, int k) noexcept nogil:
    """The k-th set bit (0-based, ascending) of a 128-bit set held in two words: the k-th legal id of a two-word
    legal set."""
    cdef uint64_t w = words[0]
    cdef int base = 0, count = popcount(w)
    if k >= count:
        k -= count
        w = words[1]
        base = 64
    while k:
        w &= w - 1
        k -= 1
    return base + lowest(w)


cdef inline uint64_t bit_at(int p, int base) noexcept nogil:
    """The bit of position ``p`` in the 64-bit word of positions ``base`` … ``base + 63`` (0 outside it)."""
    cdef unsigned d = <unsigned>(p - base)
    return (<uint64_t>(d < 64)) << (d & 63)
