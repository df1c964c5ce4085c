"""Answers the handshake, then never answers a decision (blocked, no CPU)."""
import time

import _common

_common.run(lambda message: time.sleep(3600))
