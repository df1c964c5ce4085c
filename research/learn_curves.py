"""Draw the learning curves of several `cardtable train` runs side by side (docs/learning-curves.png).

Question: how did each shipped net, and the variants it was chosen over, learn? Each argument is
`GAME:LABEL=RUN_DIR` (a run's folder, holding its curve.csv); runs of one game share a panel.
Answer (2026-12-06): docs/learning.md, "The shipped nets"; the runs' folders are not committed.

    python research/learn_curves.py --out docs/learning-curves.png \
        "crazy_eights:hand returns=runs/crazy_eights" "crazy_eights:game returns=runs/crazy_eights.game" ...
"""

from __future__ import annotations

import argparse
import csv
from collections import defaultdict
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", metavar="GAME:LABEL=DIR")
    parser.add_argument("--out", required=True)
    parser.add_argument("--until", action="append", default=[], metavar="LABEL=EPOCH",
                        help="draw a run only up to this epoch (the epoch its shipped net comes from)")
    args = parser.parse_args()
    until = {k: int(v) for k, _, v in (u.partition("=") for u in args.until)}
    panels: dict[str, list[tuple[str, list[dict[str, str]]]]] = defaultdict(list)
    for spec in args.runs:
        head, _, folder = spec.partition("=")
        game, _, label = head.partition(":")
        with open(Path(folder) / "curve.csv") as f:
            rows = [r for r in csv.DictReader(f) if int(r["epoch"]) <= until.get(label, 10**9)]
        panels[game].append((label, rows))
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 3.4), squeeze=False)
    for ax, (game, runs) in zip(axes[0], panels.items()):
        for i, (label, rows) in enumerate(runs):
            xs = [int(r["epoch"]) for r in rows]
            ax.plot(xs, [float(r["win_rate"]) for r in rows], color=f"C{i}", label=label)
            ax.fill_between(xs, [float(r["low"]) for r in rows], [float(r["high"]) for r in rows], color=f"C{i}",
                            alpha=0.15)
        ax.set_title(game.replace("_", " "))
        ax.set_xlabel("epoch")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="lower right")
    axes[0][0].set_ylabel("won against the core's policy")
    fig.tight_layout()
    fig.savefig(args.out, dpi=90)


if __name__ == "__main__":
    main()
