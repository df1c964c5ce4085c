"""Analyse ``wizard_rounds.py`` output: paired variant differences, and how predictable the search's misses are.

    python research/wizard_rounds_compare.py pair BASE.jsonl VARIANT.jsonl   # per round of the search seat
    python research/wizard_rounds_compare.py fit FILE.jsonl ...              # (tricks - bid) on hand features
    python research/wizard_rounds_compare.py where FILE.jsonl ...            # where exact bids are lost

``pair`` matches the search seat's rounds of two runs on the same seed (same hands) and prints the
mean difference (variant minus base) of its round points, of its points minus the others' mean and
of exact bids, each with a 95 % interval. ``where`` prints the search seats' exact rate per round size, per
bidding position and per rounding of the bid (bid − the heuristic's estimate, rounds of 5 cards and more).
``fit`` regresses, per bot, tricks and (tricks − bid) on the
heuristic's fitted estimate, the bids heard, the round size, wizards, jesters, no-trump and the
bidding position, and prints R² and the coefficients.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from cardtable.games.wizard.players.heuristic import expected_tricks

Record = dict[str, Any]


def _load(path: Path) -> list[Record]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def pair(base: Path, variant: Path) -> None:
    """Print the paired differences of the search seat's rounds."""
    runs = [_load(base), _load(variant)]
    seats = [{(r["game"], r["round"], r["seat"]): r for r in rs if r["bot"].split(":")[0] == "search"} for rs in runs]
    tables: list[dict[tuple[int, int], list[tuple[int, int]]]] = [{} for _ in runs]
    for rs, table in zip(runs, tables):
        for r in rs:
            table.setdefault((r["game"], r["round"]), []).append((r["seat"], r["points"]))
    keys = sorted(set(seats[0]) & set(seats[1]))

    def relative(i: int, k: tuple[int, int, int]) -> float:
        others = [p for s, p in tables[i][(k[0], k[1])] if s != k[2]]
        return float(seats[i][k]["points"] - sum(others) / len(others))

    measures: dict[str, Callable[[int, tuple[int, int, int]], float]] = {
        "points": lambda i, k: float(seats[i][k]["points"]),
        "points - others' mean": relative,
        "exact": lambda i, k: float(seats[i][k]["tricks"] == seats[i][k]["bid"]),
    }
    for name, f in measures.items():
        d = [f(1, k) - f(0, k) for k in keys]
        mean = sum(d) / len(d)
        sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (len(d) - 1))
        a = sum(f(0, k) for k in keys) / len(keys)
        b = sum(f(1, k) for k in keys) / len(keys)
        print(f"{name}: base {a:.3f} variant {b:.3f} difference {mean:+.3f} ± {1.96 * sd / math.sqrt(len(d)):.3f}"
              f" ({len(d)} rounds)")


def fit(paths: list[Path]) -> None:
    """Print, per bot, how well hand features predict tricks and (tricks − bid)."""
    records = [r for p in paths for r in _load(p)]
    for bot in sorted({r["bot"].split(":")[0] for r in records}):
        rows, tricks, bids = [], [], []
        for r in records:
            if r["bot"].split(":")[0] != bot:
                continue
            p, n = r["players"], r["round"]
            estimate = expected_tricks(r["hand"], r["trump"], p)
            heard = [b for s, b in enumerate(r["heard"]) if b is not None and s != r["seat"]]
            pressure = sum(heard) - len(heard) * n / p if heard else 0.0
            wizards = sum(52 <= c < 56 for c in r["hand"])
            jesters = sum(c >= 56 for c in r["hand"])
            position = [float(r["position"] == k) for k in range(1, p)]
            rows.append([1.0, estimate, pressure, n / 10, wizards, jesters, float(r["trump"] is None), *position])
            tricks.append(r["tricks"])
            bids.append(r["bid"])
        x, y, b = np.array(rows), np.array(tricks, dtype=float), np.array(bids, dtype=float)
        print(f"{bot}: {len(y)} seat-rounds, exact {np.mean(y == b):.3f}, mean tricks - bid {np.mean(y - b):+.3f}")
        for name, target in (("tricks", y), ("tricks - bid", y - b)):
            coef = np.linalg.lstsq(x, target, rcond=None)[0]
            r2 = 1 - float(((target - x @ coef) ** 2).sum() / ((target - target.mean()) ** 2).sum())
            print(f"  {name}: R² {r2:.3f}; coefficients (1, estimate, heard, size/10, wizards, jesters, no trump,"
                  f" positions 2..): {np.round(coef, 3).tolist()}")


def where(paths: list[Path]) -> None:
    """Print the search seats' exact rate (and tricks − bid) per round size, position and rounding of the bid."""
    from cardtable.games.wizard import bid_table
    from cardtable.games.wizard.players.heuristic import BID_SHADE, PRESSURE

    records = [r for p in paths for r in _load(p) if r["bot"].split(":")[0] == "search"]
    groups: dict[str, dict[Any, list[Record]]] = {"round size": {}, "position": {}, "bid - estimate": {}}
    for r in records:
        groups["round size"].setdefault(r["round"], []).append(r)
        groups["position"].setdefault(r["position"], []).append(r)
        p, n = r["players"], r["round"]
        if n < 5:
            continue
        heard = [b for s, b in enumerate(r["heard"]) if b is not None and s != r["seat"]]
        pressure = sum(heard) - len(heard) * n / p if heard else 0.0
        estimate = (expected_tricks(r["hand"], r["trump"], p) + bid_table.value(p, n, PRESSURE) * pressure
                    - BID_SHADE * n / 10)
        groups["bid - estimate"].setdefault(round((r["bid"] - estimate) * 5) / 5, []).append(r)
    hits = sum(r["tricks"] == r["bid"] for r in records)
    print(f"{len(records)} search seat-rounds, exact {hits / len(records):.3f}")
    for name, group in groups.items():
        print(f"by {name}:")
        for key in sorted(group):
            rs = group[key]
            if len(rs) < 20:
                continue
            exact = sum(r["tricks"] == r["bid"] for r in rs) / len(rs)
            over = sum(r["tricks"] > r["bid"] for r in rs) / len(rs)
            under = sum(r["tricks"] < r["bid"] for r in rs) / len(rs)
            mean = sum(r["tricks"] - r["bid"] for r in rs) / len(rs)
            print(f"  {key:>5}: {len(rs):4} exact {exact:.3f} over {over:.3f} under {under:.3f}"
                  f" tricks - bid {mean:+.2f}")


def main(argv: list[str] | None = None) -> None:
    """Run ``pair``, ``fit`` or ``where``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("pair")
    p.add_argument("base", type=Path)
    p.add_argument("variant", type=Path)
    f = sub.add_parser("fit")
    f.add_argument("files", nargs="+", type=Path)
    w = sub.add_parser("where")
    w.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args(argv)
    if args.command == "pair":
        pair(args.base, args.variant)
    elif args.command == "where":
        where(args.files)
    else:
        fit(args.files)


if __name__ == "__main__":
    main()
