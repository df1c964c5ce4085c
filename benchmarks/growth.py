"""How much memory a finished game leaves in a server process: games of computer players, one after another.

    python benchmarks/growth.py [--games 1000] [--game crazy_eights] [--warmup 100] [--top 0] [--json]

The real app (``cardtable.server.create_app``: its manager, writer thread, group commit, social state, Bot API)
on SQLite in a temp directory, driven in process (Starlette's TestClient): each game is a new table of two
computer players (``random``, one round of Crazy Eights by default), created, dealt, and followed until it is
finished; nobody watches. Python's allocations are traced (``tracemalloc``, after a full collection) once the
first ``--warmup`` games are over (by then the cache of finished tables, ``Limits.finished_cache`` = 64, is
full) and again after the last game: their difference divided by the games in between is the memory each
finished game leaves behind, in KiB. A bounded server prints about 0. The process's resident set is printed
too (it moves with the allocator's arenas, so it is only a cross-check). ``--top N`` also prints the N source
lines whose allocations grew most (where to look when the figure is not 0).
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def rss_kib() -> int:
    """This process's resident set (KiB), from /proc."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def play_one(client: Any, game: str, options: dict[str, Any], timeout: float = 60.0) -> None:
    """Create a table of two computer players, deal it, wait until it is finished."""
    seats = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    made = client.post("/api/tables", json={"game": game, "options": options, "seats": seats})
    if made.status_code != 201:
        raise SystemExit(f"error: cannot create a table: {made.text}")
    table_id, token = made.json()["table_id"], made.json()["token"]
    started = client.post(f"/api/tables/{table_id}/start", json={"token": token})
    if started.status_code != 200:
        raise SystemExit(f"error: cannot start table {table_id}: {started.text}")
    deadline = time.monotonic() + timeout
    while client.get(f"/api/tables/{table_id}").json()["status"] == "playing":
        if time.monotonic() > deadline:
            raise SystemExit(f"error: table {table_id} did not finish within {timeout:g} s")
        time.sleep(0.002)


def traced() -> int:
    """Bytes Python holds now, after a full collection."""
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


def main(argv: list[str] | None = None) -> int:
    """Run the games; print (or ``--json``) the KiB each finished game leaves behind."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games in all (default 1000)")
    parser.add_argument("--warmup", type=int, default=100, help="games before the first measure (default 100)")
    parser.add_argument("--game", default="crazy_eights", help="the game (default crazy_eights)")
    parser.add_argument("--top", type=int, default=0, help="also print the N source lines that grew most")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if not 0 < args.warmup < args.games:
        parser.error("--warmup must be at least 1 and below --games")

    from fastapi.testclient import TestClient

    from cardtable.server import create_app
    from cardtable.server.limits import Limits

    options = {"rounds": 1} if args.game == "crazy_eights" else {}
    limits = Limits(tables_per_minute=1e9, tables_burst=1e9)
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(f"sqlite:///{Path(folder) / 'growth.db'}", bot_delay=0, limits=limits,
                         sqlite_sync="NORMAL")
        with TestClient(app) as client:
            tracemalloc.start(25 if args.top else 1)
            for _ in range(args.warmup):
                play_one(client, args.game, options)
            before, rss_before = traced(), rss_kib()
            snapshot = tracemalloc.take_snapshot() if args.top else None
            for _ in range(args.games - args.warmup):
                play_one(client, args.game, options)
            after, rss_after = traced(), rss_kib()
            grown = tracemalloc.take_snapshot().compare_to(snapshot, "traceback") if snapshot else []
            tracemalloc.stop()
    games = args.games - args.warmup
    result = {"game": args.game, "games": args.games, "warmup": args.warmup,
              "kib_per_game": round((after - before) / 1024 / games, 3),
              "traced_kib": [round(before / 1024), round(after / 1024)],
              "rss_kib": [rss_before, rss_after], "rss_kib_per_game": round((rss_after - rss_before) / games, 3)}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{args.game}: {args.games} games, measured over the last {games} (after {args.warmup})")
        print(f"memory each finished game leaves behind: {result['kib_per_game']:.2f} KiB "
              f"(traced {result['traced_kib'][0]} -> {result['traced_kib'][1]} KiB)")
        print(f"resident set: {rss_before} -> {rss_after} KiB ({result['rss_kib_per_game']:.2f} KiB per game; "
              "allocator arenas make this coarse)")
    for stat in grown[:args.top]:
        print(f"{stat.size_diff / 1024:9.1f} KiB {stat.count_diff:+7d} blocks")
        for line in stat.traceback.format()[-8:]:
            print("    " + line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
