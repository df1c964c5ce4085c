"""Measure a Wizard line-up that is not one of ``strength.py``'s matchups (bot options, variants), same output.

Used to compare search variants on the same deals before changing a default::

    nice -n 10 python benchmarks/wizard_variants.py --lineup search:z=1.5 heuristic heuristic heuristic \\
        --games 40 --seed 3 --json >> benchmarks/results/wizard_variants.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from strength import Matchup, _print, play_matchup


def main(argv: list[str] | None = None) -> None:
    """Play one line-up and print its figures (``--json``: one object)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lineup", nargs="+", required=True, help="one bot name (with options) per seat")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    result = play_matchup(Matchup("wizard", tuple(args.lineup), options, "variant"), args.games, args.seed)
    result["seed"] = args.seed
    print(json.dumps(result)) if args.json else _print(result)


if __name__ == "__main__":
    main()
