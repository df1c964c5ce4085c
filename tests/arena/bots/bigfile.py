"""Writes a file without end at its first decision (the file-size limit stops it)."""
import _common


def fill(message):
    with open("big.bin", "wb") as out:
        while True:
            out.write(b"x" * 65536)


_common.run(fill)
