"""Two Crazy Eights bots, each against the same three opponents on the same deals: the paired difference.

Game ``g`` of seed ``S`` deals the same cards for both bots and seats them alike (the seat rotates
with ``g``, as in ``strength.py``); the opponents are deterministic or seeded alike, so every game
where the two bots chose alike ends alike. The difference of their win shares is then measured
far more tightly than two separate win shares would be. Each game is one JSON line (``--out``);
``--pool`` sums such files::

    nice -n 10 python research/crazy_eights_ab.py --a search --b search:sims=4000 \\
        --games 100 --seed 1 --out /tmp/c8_ab_sims4000_s1.jsonl
    python research/crazy_eights_ab.py --pool /tmp/c8_ab_sims4000_s*.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))

from strength import play_game, wilson

import cardtable


def play(game: Any, opts: Any, deal: int, lineup: list[str], me: int) -> tuple[float, float, list[float]]:
    """One game: the win credit and penalty of seat ``me``, and its decision times."""
    _, outcome, times = play_game(game, opts, deal, lineup)
    credit = 1.0 / len(outcome.winners) if me in outcome.winners else 0.0
    return credit, float(outcome.scores[me]), times[me]


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Both win shares with Wilson intervals and their paired difference with a normal interval."""
    n = len(rows)
    a = [r["a"] for r in rows]
    b = [r["b"] for r in rows]
    diffs = [y - x for x, y in zip(a, b)]
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(n) if n > 1 else math.inf
    return {"games": n, "a": rows[0]["bot_a"], "b": rows[0]["bot_b"],
            "a_share": round(sum(a) / n, 4), "a_ci95": [round(v, 4) for v in wilson(sum(a), n)],
            "b_share": round(sum(b) / n, 4), "b_ci95": [round(v, 4) for v in wilson(sum(b), n)],
            "b_minus_a": round(mean, 4), "ci95_half": round(half, 4),
            "games_that_differ": sum(1 for d in diffs if d),
            "a_penalty": round(statistics.fmean(r["a_pen"] for r in rows), 2),
            "b_penalty": round(statistics.fmean(r["b_pen"] for r in rows), 2)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="search", help="the first bot (name with options)")
    parser.add_argument("--b", help="the second bot")
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="append one JSON line per game here")
    parser.add_argument("--pool", nargs="+", type=Path, help="only sum these files' games and print")
    args = parser.parse_args(argv)
    if args.pool:
        rows = [json.loads(line) for p in args.pool for line in p.read_text().splitlines() if line.strip()]
        if not rows:
            parser.error("no games in the files given")
        print(json.dumps(summary(rows)))
        return
    if not args.b:
        parser.error("--b is required unless --pool is given")
    game = cardtable.load_game("crazy_eights")
    opts = game.options({}, players=args.players)
    rng = random.Random(args.seed)
    rows = []
    for g in range(args.games):
        deal = rng.randrange(2**31)
        me = g % args.players
        row: dict[str, Any] = {"seed": args.seed, "game": g, "deal": deal, "seat": me,
                               "bot_a": args.a, "bot_b": args.b}
        for key, bot in (("a", args.a), ("b", args.b)):
            lineup = [bot if s == me else args.opponent for s in range(args.players)]
            credit, penalty, times = play(game, opts, deal, lineup, me)
            row[key], row[key + "_pen"] = credit, penalty
            row[key + "_ms"] = round(1000 * max(times, default=0.0), 1)
        rows.append(row)
        if args.out:
            with args.out.open("a") as f:
                f.write(json.dumps(row) + "\n")
    print(json.dumps(summary(rows)))


if __name__ == "__main__":
    main()
