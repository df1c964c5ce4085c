"""Arena throughput and the cost of an external bot per decision.

    python benchmarks/arena.py [--game wizard] [--games 40] [--seeds 3] [--no-external]

1. Games per second between four built-in entries at ``--workers 1`` and ``--workers 2``, two ways:
   *play*: the games alone (``run_tasks``); *arena*: a whole ``cardtable arena`` run (playing, storing
   every game in its own transaction in a temporary SQLite file, standings and ratings). One run per
   seed, the four ways interleaved so the machine's load hits all alike; the mean over seeds with its
   95 % t interval. ``--workers 2`` pays for starting its two processes (spawn) in every run.
2. The external protocol's cost per decision (``cardtable.arena.overhead.measure``, the runner's helper): the
   same random policy in process and as a program speaking the protocol through the sandbox; goal < 500 µs.

Prints a table, then one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import cardtable
from cardtable.arena.backends import run_tasks
from cardtable.arena.entries import Entry
from cardtable.arena.tournament import define, run_tournament
from cardtable.store import Store
from cardtable.store.tournaments import TournamentStore

#: Two-sided 95 % quantiles of Student's t by degrees of freedom (beyond the table: the normal 1.96).
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228}
ENTRIES = {
    "wizard": [("heuristic", "heuristic"), ("random", "random"), ("h2", "heuristic"), ("r2", "random")],
    "durak": [("scripted", "scripted"), ("heuristic", "heuristic"), ("random", "random"), ("r2", "random")],
}
OPTIONS: dict[str, dict[str, Any]] = {"wizard": {"rounds": "all"}, "durak": {}}
WAYS = [("play", 1), ("play", 2), ("arena", 1), ("arena", 2)]


def games_per_second(game_name: str, games: int, seed: int, workers: int, directory: Path, *, store_games: bool
                     ) -> float:
    """One run (a whole arena run into a fresh SQLite file, or only the games); games per wall-clock second."""
    game = cardtable.load_game(game_name)
    entries = [Entry(n, s) for n, s in ENTRIES[game_name]]
    tournament = define(game, entries, values=OPTIONS[game_name], games=games, seed=seed)
    if not store_games:
        tasks = [tournament.task(p) for p in tournament.schedule()]
        start = time.perf_counter()
        for _ in run_tasks(tasks, workers=workers):
            pass
        return games / (time.perf_counter() - start)
    store = Store(f"sqlite:///{directory / f'arena-{seed}-{workers}.db'}")
    try:
        start = time.perf_counter()
        run_tournament(tournament, TournamentStore(store.engine), workers=workers)
        return games / (time.perf_counter() - start)
    finally:
        store.close()


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95 % t interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.nan, math.nan
    half = T95.get(len(values) - 1, 1.96) * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="wizard", choices=sorted(ENTRIES))
    parser.add_argument("--games", type=int, default=40, help="games per arena run")
    parser.add_argument("--seeds", type=int, default=3, help="arena runs per worker count")
    parser.add_argument("--no-external", action="store_true", help="skip the external-bot measurement")
    args = parser.parse_args()
    samples: dict[tuple[str, int], list[float]] = {way: [] for way in WAYS}
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, args.seeds + 1):
            for kind, workers in WAYS:
                samples[kind, workers].append(games_per_second(args.game, args.games, seed, workers, Path(tmp),
                                                               store_games=kind == "arena"))
    out: dict[str, Any] = {"game": args.game, "entries": [n for n, _ in ENTRIES[args.game]],
                           "options": OPTIONS[args.game], "games_per_run": args.games, "seeds": args.seeds,
                           "games_per_second": {}}
    print(f"{', '.join(out['entries'])} ({args.game} {OPTIONS[args.game]}), {args.games} games per run, "
          f"{args.seeds} seeds")
    print(f"{'way':>6} {'workers':>8} {'games/s':>9} {'95 % interval':>20}  runs")
    for (kind, workers), values in samples.items():
        mean, lo, hi = mean_interval(values)
        out["games_per_second"][f"{kind}_workers_{workers}"] = {
            "mean": round(mean, 2), "ci95": [round(lo, 2), round(hi, 2)], "runs": [round(v, 2) for v in values]}
        print(f"{kind:>6} {workers:>8} {mean:>9.2f} {f'[{lo:.2f}, {hi:.2f}]':>20}  "
              f"{' '.join(f'{v:.2f}' for v in values)}")
    if not args.no_external:
        from cardtable.arena.overhead import measure

        overhead = measure("durak", rounds=3)
        out["external"] = overhead
        wall, cpu = overhead["wall_us"], overhead["cpu_us"]
        print(f"\nper decision, durak random policy, median of {overhead['rounds']} rounds of "
              f"{overhead['decisions']} decisions (µs wall / CPU): in process {wall['in_process']} / "
              f"{cpu['in_process']}, external {wall['external']} / {cpu['external']}")
        extra = overhead["external_overhead_wall_us"]
        verdict = "meets" if extra < 500 else "misses"
        print(f"external overhead {extra} µs wall per decision ({verdict} the goal < 500 µs); "
              f"load average {overhead['load_average']}")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
