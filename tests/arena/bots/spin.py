"""Answers the handshake, then spins on every decision."""
import _common


def spin(message):
    while True:
        pass


_common.run(spin)
