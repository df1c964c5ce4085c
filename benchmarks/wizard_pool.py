"""Pool several ``strength.py --json`` runs of one Wizard line-up (different seeds) into one figure per bot.

Wins and exact bids are summed over the runs and given Wilson 95 % intervals; decision times are
shown as the range of the runs' medians and 99th percentiles (medians cannot be pooled from medians)::

    python benchmarks/wizard_pool.py benchmarks/results/wizard_final_4p_s*.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from strength import wilson


def main(argv: list[str] | None = None) -> None:
    """Print the pooled figures of the runs named on the command line (one JSON object per line in each)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args(argv)
    runs = [json.loads(line) for f in args.files for line in f.read_text().splitlines() if line.strip()]
    keys = {r["matchup"] for r in runs}
    for key in sorted(keys):
        chosen = [r for r in runs if r["matchup"] == key]
        games = sum(r["games"] for r in chosen)
        print(f"{key}: {len(chosen)} runs, {games} games")
        for name in chosen[0]["bots"]:
            wins = sum(r["bots"][name]["win_share"] * r["games"] for r in chosen)
            low, high = wilson(wins, games)
            line = f"  {name:<10} win share {wins / games:.3f} [{low:.3f}, {high:.3f}]"
            rates = [r["bots"][name].get("exact_bid_rate") for r in chosen]
            if all(rates):
                hit = sum(x["rate"] * x["n"] for x in rates if x)
                n = sum(x["n"] for x in rates if x)
                lo, hi = wilson(hit, n)
                line += f"  exact {hit / n:.3f} [{lo:.3f}, {hi:.3f}] of {n}"
            scores = [r["bots"][name].get("mean_score") for r in chosen]
            if all(scores):
                mean = sum(s["mean"] * r["games"] for s, r in zip(scores, chosen) if s) / games
                line += f"  mean score {mean:.1f}"
            times = [t for t in (r["bots"][name].get("decision_ms") for r in chosen) if t]
            if times:
                line += (f"  decision ms: median {min(t['median'] for t in times)}–{max(t['median'] for t in times)},"
                         f" p99 {min(t['p99'] for t in times)}–{max(t['p99'] for t in times)} (range over the runs;"
                         f" {sum(t['decisions'] for t in times)} decisions)")
            print(line)


if __name__ == "__main__":
    main()
