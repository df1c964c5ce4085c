"""Forks until the process limit refuses, every child sleeping; never answers (bounded by the sandbox)."""
import os
import sys
import time

import _common


def bomb(message):
    children = 0
    while children < 200:  # a bound of its own, in case the sandbox has none
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            time.sleep(3600)
            os._exit(0)
        children += 1
    print(f"forked {children} children", file=sys.stderr, flush=True)
    time.sleep(3600)


_common.run(bomb)
