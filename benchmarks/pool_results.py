"""Pool the JSON lines of ``benchmarks/strength.py --json`` runs of one matchup (several seeds) into one figure.

    python benchmarks/pool_results.py benchmarks/results/kaiser_search_v3_*.jsonl

Per bot name: games, win share with its Wilson 95 % interval, the game's rates pooled (successes
and trials added up), the mean score with its 95 % half-width (from the runs' means and
half-widths), and the range of the runs' decision medians and 99th percentiles (percentiles do
not pool).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from typing import Any

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from strength import wilson


def main() -> None:
    """Read the files, group by matchup, print the pooled figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--rename", nargs=2, action="append", default=[], metavar=("AS_RUN", "AS_POOLED"),
                        help="pool a bot spec under another name (e.g. search:sims=500 search: the default budget)")
    args = parser.parse_args()
    renames = dict(args.rename)
    runs: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for path in args.files:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    run = json.loads(line)
                    for old, new in renames.items():
                        run["bots"] = {new if k == old else k: v for k, v in run["bots"].items()}
                        run["matchup"] = " ".join(new if w == old else w for w in run["matchup"].split(" "))
                    runs[run["matchup"]].append(run)
    for matchup, group in runs.items():
        games = sum(r["games"] for r in group)
        print(f"{matchup}  ({games} games in {len(group)} runs)")
        for name in group[0]["bots"]:
            entries = [r["bots"][name] for r in group]
            wins = sum(e["win_share"] * e["games"] for e in entries)
            low, high = wilson(wins, games)
            parts = [f"win share {wins / games:.3f} [{low:.3f}, {high:.3f}] ({wins:g} of {games})"]
            for rate in [k for k, v in entries[0].items() if isinstance(v, dict) and "rate" in v]:
                n = sum(e[rate]["n"] for e in entries if rate in e)
                x = sum(round(e[rate]["rate"] * e[rate]["n"]) for e in entries if rate in e)
                lo, hi = wilson(x, n)
                parts.append(f"{rate} {x / n:.3f} [{lo:.3f}, {hi:.3f}] of {n}")
            scored = [e for e in entries if "mean_score" in e]
            if scored:
                n = sum(e["games"] for e in scored)
                mean = sum(e["mean_score"]["mean"] * e["games"] for e in scored) / n
                var = sum((e["games"] * e["mean_score"]["ci95_half"] / 1.96) ** 2 for e in scored) / n ** 2
                parts.append(f"mean score {mean:.1f} ± {1.96 * math.sqrt(var):.1f}")
            timed = [e["decision_ms"] for e in entries if "decision_ms" in e]
            if timed:
                medians = sorted(t["median"] for t in timed)
                p99s = sorted(t["p99"] for t in timed)
                parts.append(f"decision median {medians[0]:g}–{medians[-1]:g} ms, p99 {p99s[0]:g}–{p99s[-1]:g} ms")
            print(f"  {name}: " + "; ".join(parts))


if __name__ == "__main__":
    main()
