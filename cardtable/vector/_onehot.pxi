# How the encoders' memos move one one-hot byte of an observation row, shared by the rules modules that keep
# one (``include "_onehot.pxi"`` before their rules_encode). A memo slot holds the position of the byte it set:
# ``one_hot`` for uint8_t slots (255: no byte set), ``one_hot16`` for uint16_t slots (0xFFFF: none).

from libc.stdint cimport uint8_t, uint16_t


cdef inline void one_hot(uint8_t* out, uint8_t* was, int now) noexcept nogil:
    """Move a one-hot byte from ``out[was]`` to ``out[now]`` (255: no byte set)."""
    if was[0] != now:
        if was[0] != 255:
            out[was[0]] = 0
        if now != 255:
            out[now] = 1
        was[0] = now


cdef inline void one_hot16(uint8_t* out, uint16_t* was, int now) noexcept nogil:
    """Move a one-hot byte from ``out[was]`` to ``out[now]`` (0xFFFF: no byte set)."""
    if was[0] != now:
        if was[0] != 0xFFFF:
            out[was[0]] = 0
        if now != 0xFFFF:
            out[now] = 1
        was[0] = now
