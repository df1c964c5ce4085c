"""The cost of the external-bot protocol per decision, against the same random policy in process.

    python benchmarks/external_overhead.py [--game durak] [--decisions 2000] [--rounds 3]

Prints one JSON object: median microseconds per decision (wall and CPU) of the same
decisions answered in process, by a forked worker (what a time limit costs an
in-process bot) and by an external program (examples/bots/random_bot.py through
the sandbox), the differences, and the program's start-up time. The project's
goal: the external protocol costs less than 500 µs per decision.
"""

from __future__ import annotations

import argparse
import json

from cardtable.arena.overhead import measure


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="durak")
    parser.add_argument("--decisions", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(json.dumps(measure(args.game, count=args.decisions, rounds=args.rounds)))


if __name__ == "__main__":
    main()
