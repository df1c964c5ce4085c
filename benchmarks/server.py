"""The server against in-process play: a table of four computer players at ``--bot-delay 0``, and view costs.

    python benchmarks/server.py [--game wizard] [--runs 5] [--seconds 3] [--sqlite-sync FULL|NORMAL] [--json]

1. In process: the same game, the same computer players (the server's default bot, seeded the same way),
   each decision through ``observe`` + ``legal_actions`` + ``bot.act`` + ``apply``: actions per second.
2. Served: a real ``cardtable serve --bot-delay 0`` (SQLite in a temp dir) and a spectator on a real
   WebSocket; a table of four computer players is started and timed until the spectator sees it finish:
   actions per second (the spectator receives the latest view when it can take one; with no seated person
   at the table the computer players' moves are committed in groups, see ``cardtable/server/ahead.py``).
   The ratio served / in process, per run, with a 95 % interval over the runs (t distribution).
3. A Wizard view (mid-game, one seat): microseconds to encode the view (msgspec) and to build it
   (observation + legal actions + events, for a new engine state) per distinct audience, and the size of
   the patch after one more move against the full view.

The machine matters: print the figures with ``date`` and ``nproc``; on a shared, busy machine they move.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cardtable
from cardtable.bots import make_bot
from cardtable.server.views import default_bot

T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23}


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % interval (t distribution)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, float("nan")
    return mean, T95.get(len(values) - 1, 2.0) * statistics.stdev(values) / len(values) ** 0.5


def in_process(game: Any, options: dict[str, Any], seed: int, bot: str) -> tuple[int, float]:
    """One game of four ``bot`` computer players in process: (actions, seconds)."""
    opts = game.options(options)
    bots = {seat: make_bot(game, bot, zlib.crc32(f"{seed}:{seat}".encode())) for seat in range(4)}
    started = time.perf_counter()
    state, _ = game.new(opts, seed)
    actions = 0
    while (seat := game.to_act(state)) is not None:
        legal = game.legal_actions(state, seat)
        action = bots[seat].act(game.observe(state, seat), legal)
        if action not in legal:
            action = random.choice(legal)
        state, _ = game.apply(state, seat, action)
        actions += 1
    return actions, time.perf_counter() - started


def served(server: Any, game: str, options: dict[str, Any], seed: int, bot: str) -> tuple[int, float]:
    """One game of four computer players on the real server, watched by a spectator: (actions, seconds)."""
    from websockets.sync.client import connect

    status, created = server.request("POST", "/api/tables", {"game": game, "options": options, "seed": seed,
                                                             "seats": [{"kind": "bot", "bot": bot}] * 4})
    assert status == 201, created
    table_id = created["table_id"]
    with connect(f"{server.ws}/ws/tables/{table_id}", max_size=None) as ws:
        json.loads(ws.recv(timeout=30))
        started = time.perf_counter()
        server.request("POST", f"/api/tables/{table_id}/start", {"token": created["token"]})
        while True:
            view = json.loads(ws.recv(timeout=120))
            if view.get("type") == "view" and view["status"] in ("finished", "error"):
                return int(view["version"]), time.perf_counter() - started


def view_costs(repeats: int = 2000) -> dict[str, float]:
    """Microseconds to build and to encode one Wizard view (a seat mid-game)."""
    from cardtable.server.live import Connection, LiveTable
    from cardtable.server.views import ViewBuilder, encode, view_message
    from cardtable.store import StoredSeat, StoredTable

    game = cardtable.load_game("wizard")
    options = game.options({"players": 4})
    state, events = game.new(options, 3)
    rng = random.Random(3)
    for _ in range(12):
        seat = game.to_act(state)
        state, more = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        events = [*events, *more]
    stored = StoredTable("bench", "wizard", {"players": 4}, 3, "playing", "h",
                         seats=[StoredSeat(i, "human", f"P{i}", None, None, True) for i in range(4)])
    table = LiveTable(stored, game, options, state=state, events=list(events))
    seat = game.to_act(state)
    view = ViewBuilder(table).view(Connection(seat))
    started = time.perf_counter()
    for _ in range(repeats):
        encode(view)
    encode_us = (time.perf_counter() - started) / repeats * 1e6
    started = time.perf_counter()
    for _ in range(repeats // 10):  # a new engine state: observation, legal actions and events built afresh
        table.parts.clear()
        table.events_json.clear()
        ViewBuilder(table).view(Connection(seat))
    build_us = (time.perf_counter() - started) / (repeats // 10) * 1e6
    # One more move seen by a connection that applies patches: the patch against the full view.
    watcher = Connection(seat, table, patches=True)
    table.connections = {watcher}
    first = view_message(table, watcher)
    mover = game.to_act(state)
    table.state, more = game.apply(state, mover, rng.choice(game.legal_actions(state, mover)))
    table.events.extend(more)
    table.touch()
    patch = view_message(table, watcher)
    return {"encode_us": encode_us, "build_us": build_us, "bytes": len(encode(view)),
            "full_bytes": len(first), "patch_bytes": len(patch)}


def main() -> None:
    """Run the comparison and print it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="wizard")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3.0, help="served seconds per run (about)")
    parser.add_argument("--sqlite-sync", default="FULL", choices=["FULL", "NORMAL"])
    parser.add_argument("--bot", default="heuristic",
                        help="the computer players on both sides (a fast one measures the server, not the bot;\n"
                        "'default': the server's default computer player)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.server.realserver import serve

    game = cardtable.load_game(args.game)
    bot = default_bot(game) if args.bot == "default" else args.bot
    options = {"players": 4}
    ratios, local_rates, served_rates = [], [], []
    with tempfile.TemporaryDirectory() as folder, \
            serve(f"sqlite:///{folder}/bench.db", Path(folder) / "server.log", "--bot-delay", "0",
                  "--sqlite-sync", args.sqlite_sync, "--limit", "tables_per_minute=100000") as server:
        served(server, args.game, options, 999, bot)  # warm up
        for run in range(args.runs):  # interleaved; each side plays the same deals for about --seconds
            seeds = range(1000 + 100 * run, 1100 + 100 * run)
            here = there = (0, 0.0)
            for seed in seeds:
                actions, seconds = in_process(game, options, seed, bot)
                here = (here[0] + actions, here[1] + seconds)
                actions, seconds = served(server, args.game, options, seed, bot)
                there = (there[0] + actions, there[1] + seconds)
                if there[1] > args.seconds:
                    break
            local_rates.append(here[0] / here[1])
            served_rates.append(there[0] / there[1])
            ratios.append(served_rates[-1] / local_rates[-1])
    costs = view_costs()
    ratio, ratio_hw = interval(ratios)
    result = {"game": args.game, "bot": bot, "runs": args.runs, "sqlite_sync": args.sqlite_sync,
              "in_process_actions_per_s": interval(local_rates),
              "served_actions_per_s": interval(served_rates), "ratio": (ratio, ratio_hw), **costs}
    if args.json:
        print(json.dumps(result))
        return
    print(f"{args.game}, four {bot} computer players, {args.runs} runs (mean ± 95 % interval), "
          f"SQLite synchronous={args.sqlite_sync}")
    print(f"  in process : {result['in_process_actions_per_s'][0]:9.0f} ± {result['in_process_actions_per_s'][1]:.0f}"
          " actions/s")
    print(f"  served     : {result['served_actions_per_s'][0]:9.0f} ± {result['served_actions_per_s'][1]:.0f}"
          " actions/s (real server, --bot-delay 0, a spectator watching)")
    print(f"  ratio      : {ratio:9.1%} ± {ratio_hw:.1%}   (goal ≥ 25 %)")
    print(f"  wizard view: encode {costs['encode_us']:.1f} µs (goal ≤ 30), build {costs['build_us']:.0f} µs, "
          f"{costs['bytes']} bytes; after one move a patch of {costs['patch_bytes']} bytes "
          f"(full view {costs['full_bytes']} bytes)")
    load = os.getloadavg()
    print(f"  load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} (1, 5, 15 min) on {os.cpu_count()} cores "
          f"at the end; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")


if __name__ == "__main__":
    main()
