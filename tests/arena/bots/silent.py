"""Reads its input and never writes a thing, not even the handshake."""
import sys

for _line in sys.stdin:
    pass
