"""Answers the handshake, then exits at its first decision."""
import sys

import _common

_common.run(lambda message: sys.exit(3))
