"""Allocates without bound on its first decision (the memory limit stops it)."""
import _common


def allocate(message):
    hoard = []
    while True:
        hoard.append(bytearray(16 * 2**20))


_common.run(allocate)
