"""Load: a real ``cardtable serve`` and real WebSocket clients, one simulated person at each of many tables.

    python benchmarks/load.py [--tables 1000] [--seconds 30] [--game durak] [--bot heuristic] [--bot-delay 0.6]
                              [--think 3.0] [--processes 1|2] [--sqlite-sync FULL|NORMAL] [--profile FILE]

Starts the server (SQLite in a temp dir, loopback only; or ``--processes`` servers on a throwaway PostgreSQL
cluster with fsync on), creates ``--tables`` tables of one person and computer players (``--bot``: a fast
one, so that the server is measured, not the bot's search), starts them, and connects one WebSocket per
person (applying patches, as the page does); the measured time starts once every person is connected.
Each person waits ``--think`` seconds (± 50 %) when it is their turn, then plays a random legal action: 3 s
by default, a person's pace (people take a few seconds a card); ``--think 0.5`` is the old, much harsher
figure (about 1,800 moves a second at 1000 tables instead of about 550). Measured for ``--seconds``:

- the action round trip: from sending an action to the first view that shows it (p50, p99, max);
- the lobby list (``GET /api/tables``, one page) every half second: latency p50, p95, p99;
- the actions stored (people's and computer players') and the server's CPU seconds per action;
- the server's resident memory at the start and its peak; errors received; the load average.

Everything is bounded: the number of sockets, the run time, and a hard timeout. The load generator runs
on the same machine (it takes CPU from the server); on a shared, busy machine the figures move: print them
with ``date``, ``nproc`` and ``uptime``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of ``values``; NaN when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


async def person(url: str, clock: dict[str, float], go: asyncio.Event, connected: list[int], think: float,
                 rtts: list[float], errors: list[str], seed: int) -> None:
    """One person at one table, applying patches as the page does: connect, wait for ``go``, then act when it is
    their turn (after thinking) and time each action until a view shows it, until ``clock["stop_at"]``."""
    from websockets.asyncio.client import connect

    from cardtable.server.views import apply_patch

    rng = random.Random(seed)
    sent_at: float | None = None
    sent_version = -1
    view: dict[str, Any] | None = None
    try:
        async with connect(url, max_size=None, open_timeout=300, compression=None) as ws:
            connected[0] += 1
            while time.monotonic() < clock["stop_at"]:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, clock["stop_at"] - time.monotonic()))
                except TimeoutError:
                    if go.is_set():
                        return
                    continue
                message = json.loads(raw)
                if message["type"] == "patch":  # the page's way: apply it to the last view
                    if view is None or message["base"] != view["version"]:
                        await ws.send(json.dumps({"type": "view"}))
                        continue
                    message = apply_patch(view, message)
                if message["type"] == "error":
                    errors.append(message["message"][:80])
                    sent_at = None
                    continue
                if message["type"] != "view":
                    continue
                view = message
                if sent_at is not None and message["version"] > sent_version:
                    rtts.append(time.monotonic() - sent_at)
                    sent_at = None
                if message["status"] != "playing":
                    if message["status"] in ("finished", "error"):
                        return
                    continue
                await go.wait()
                if view["legal_actions"] and sent_at is None and view["version"] != sent_version:
                    pause = think * rng.uniform(0.5, 1.5)
                    await asyncio.sleep(min(pause, max(0.0, clock["stop_at"] - time.monotonic())))
                    if time.monotonic() >= clock["stop_at"]:
                        return
                    choice = rng.choice(view["legal_actions"])["action"]
                    sent_version = view["version"]
                    sent_at = time.monotonic()
                    await ws.send(json.dumps({"type": "action", "version": sent_version, "action": choice}))
    except Exception as exc:  # a refused or dropped connection is a result, not a crash of the benchmark
        errors.append(f"{type(exc).__name__}: {str(exc)[:60]}")


def stored_actions(path: Path) -> int:
    """How many actions (people's and computer players') the server has stored so far."""
    with sqlite3.connect(path, timeout=30) as db:
        return int(db.execute("SELECT COUNT(*) FROM actions").fetchone()[0])


async def lobby(server: Any, stop_at: float, latencies: list[float]) -> None:
    """GET the lobby list every half second."""
    while time.monotonic() < stop_at:
        started = time.monotonic()
        try:
            status, _ = await asyncio.to_thread(server.request, "GET", "/api/tables")
        except OSError:  # a timeout (30 s) counts as one
            status = 200
        if status == 200:
            latencies.append(time.monotonic() - started)
        await asyncio.sleep(0.5)


async def memory(server: Any, stop_at: float, samples: list[int]) -> None:
    """Sample the server's resident memory every second."""
    while time.monotonic() < stop_at:
        samples.append(server.rss_kib())
        await asyncio.sleep(1.0)


async def setup(servers: list[Any], tables: int, game: str, players: int, bot: str) -> list[tuple[Any, str, str]]:
    """Create and start the tables (32 requests at a time), table ``i`` on server ``i % len(servers)`` (which
    then owns it); (its server, table id, the person's token) each."""
    limit = asyncio.Semaphore(32)

    async def one(index: int) -> tuple[Any, str, str]:
        server = servers[index % len(servers)]
        async with limit:
            status, created = await asyncio.to_thread(server.request, "POST", "/api/tables", {
                "game": game, "seed": index,
                "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": bot}] * (players - 1)})
            assert status == 201, created
            status, started = await asyncio.to_thread(server.request, "POST",
                                                      f"/api/tables/{created['table_id']}/start",
                                                      {"token": created["token"]})
            assert status == 200, started
            return server, created["table_id"], created["token"]

    return list(await asyncio.gather(*(one(i) for i in range(tables))))


class Servers:
    """The server processes under load, measured together (memory and CPU summed; the lobby from the first)."""

    def __init__(self, servers: list[Any], count_actions: Callable[[], int]) -> None:
        self.servers = servers
        self.count_actions = count_actions

    def rss_kib(self) -> int:
        """Resident memory of all server processes together (KiB)."""
        return sum(s.rss_kib() for s in self.servers)

    def cpu_seconds(self) -> float:
        """CPU seconds used by all server processes together."""
        return sum(s.cpu_seconds() for s in self.servers)

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """A request to the first server."""
        return self.servers[0].request(method, path, body)  # type: ignore[no-any-return]

    def text_log(self) -> str:
        """Every server's log."""
        return "\n".join(s.text_log() for s in self.servers)


@contextmanager
def start_servers(args: argparse.Namespace, folder: Path) -> Iterator[Servers]:
    """One server on SQLite, or ``--processes`` servers on a throwaway PostgreSQL (fsync on)."""
    from tests.server.realserver import serve

    options = ["--bot-delay", str(args.bot_delay), "--takeover-after", "600",
               "--limit", "tables_per_minute=1000000", "--limit", "tables_burst=100000",
               "--limit", f"connections_per_address={args.tables + 100}",
               "--limit", "address_messages_per_second=1000000", "--limit", "address_messages_burst=1000000"]
    if args.processes == 1:
        database = folder / "load.db"
        with serve(f"sqlite:///{database}", folder / "server.log", *options, "--sqlite-sync", args.sqlite_sync,
                   profile=args.profile) as server:
            yield Servers([server], lambda: stored_actions(database))
        return
    from sqlalchemy import create_engine, text

    from tests.server.postgres import postgres_cluster

    with postgres_cluster(fsync=True) as url, ExitStack() as stack:
        servers = [stack.enter_context(serve(url, folder / f"server{i}.log", *options))
                   for i in range(args.processes)]
        engine = create_engine(url)
        stack.callback(engine.dispose)

        def count() -> int:
            with engine.connect() as connection:
                return int(connection.execute(text("SELECT COUNT(*) FROM actions")).scalar() or 0)

        yield Servers(servers, count)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Start the server(s), set up, load for ``--seconds``, measure."""
    with tempfile.TemporaryDirectory() as folder, start_servers(args, Path(folder)) as server:
        rss_start = server.rss_kib()
        started = time.monotonic()
        tables = await setup(server.servers, args.tables, args.game, args.players, args.bot)
        rtts: list[float] = []
        errors: list[str] = []
        lobby_latencies: list[float] = []
        rss: list[int] = []
        clock, go, connected = {"stop_at": float("inf")}, asyncio.Event(), [0]
        people = [asyncio.create_task(person(f"{owner.ws}/ws/tables/{table_id}?token={token}&patches=1", clock, go,
                                             connected, args.think, rtts, errors, i))
                  for i, (owner, table_id, token) in enumerate(tables)]
        while connected[0] + len(errors) < len(tables) and time.monotonic() - started < 600:
            await asyncio.sleep(0.1)  # every person connected (and got a view) before the measured time
        setup_seconds = time.monotonic() - started
        load_before = os.getloadavg()
        clock["stop_at"] = stop_at = time.monotonic() + args.seconds
        cpu_server, cpu_here = server.cpu_seconds(), time.process_time()
        stored_before = await asyncio.to_thread(server.count_actions)
        go.set()
        await asyncio.gather(*people, lobby(server, stop_at, lobby_latencies), memory(server, stop_at, rss))
        cpu_server, cpu_here = server.cpu_seconds() - cpu_server, time.process_time() - cpu_here
        moves = await asyncio.to_thread(server.count_actions) - stored_before
        log = server.text_log()
    return {
        "tables": args.tables, "game": args.game, "players": args.players, "bot_delay": args.bot_delay,
        "bot": args.bot, "processes": args.processes,
        "database": "SQLite" if args.processes == 1 else "PostgreSQL",
        "think": args.think, "seconds": args.seconds, "setup_seconds": round(setup_seconds, 1),
        "sqlite_sync": args.sqlite_sync, "actions": len(rtts),
        "rtt_ms": {"p50": percentile(rtts, 50) * 1e3, "p99": percentile(rtts, 99) * 1e3,
                   "max": max(rtts, default=float("nan")) * 1e3,
                   "mean": statistics.fmean(rtts) * 1e3 if rtts else float("nan")},
        "lobby_ms": {"p50": percentile(lobby_latencies, 50) * 1e3, "p95": percentile(lobby_latencies, 95) * 1e3,
                     "p99": percentile(lobby_latencies, 99) * 1e3, "n": len(lobby_latencies)},
        "rss_mib": {"start": rss_start / 1024, "peak": max(rss, default=rss_start) / 1024},
        "cpu_s": {"server": round(cpu_server, 1), "load_generator": round(cpu_here, 1)},
        "stored_actions": moves, "actions_per_s": round(moves / args.seconds, 1),
        "server_cpu_ms_per_action": round(cpu_server / max(1, moves) * 1e3, 2),
        "load_average": {"before": [round(x, 1) for x in load_before], "after": [round(x, 1) for x in os.getloadavg()]},
        "errors": len(errors), "error_kinds": sorted(set(errors))[:5], "tracebacks": log.count("Traceback"),
    }


def main() -> None:
    """Parse the options, run, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--game", default="durak")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bot-delay", type=float, default=0.6)
    parser.add_argument("--bot", default="heuristic",
                        help="the computer players (a fast one measures the server, not the bot's thinking)")
    parser.add_argument("--think", type=float, default=3.0,
                        help="seconds the simulated person thinks per move (± 50 %%); a person takes a few seconds")
    parser.add_argument("--sqlite-sync", default="FULL", choices=["FULL", "NORMAL"])
    parser.add_argument("--processes", type=int, default=1, choices=[1, 2, 3, 4],
                        help="server processes: 1 on SQLite, more on a throwaway PostgreSQL cluster (fsync on)")
    parser.add_argument("--profile", type=Path, help="run the server under pyinstrument; its profile goes here")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not 1 <= args.tables <= 5000 or not 1 <= args.seconds <= 600:
        parser.error("--tables must be 1–5000 and --seconds 1–600 (the benchmark stays bounded)")
    result = asyncio.run(asyncio.wait_for(run(args), timeout=args.seconds + 900))
    if args.json:
        print(json.dumps(result))
        return
    r = result
    print(f"{r['tables']} tables of {r['game']} ({r['players']} seats: one person, {r['bot']} computer players at "
          f"--bot-delay {r['bot_delay']}), person thinks ~{r['think']} s, {r['seconds']:.0f} s measured, "
          + (f"SQLite synchronous={r['sqlite_sync']}" if r["processes"] == 1 else
             f"{r['processes']} server processes on PostgreSQL") + f" (setup {r['setup_seconds']} s)")
    print(f"  action round trip: p50 {r['rtt_ms']['p50']:.1f} ms, p99 {r['rtt_ms']['p99']:.1f} ms, "
          f"max {r['rtt_ms']['max']:.0f} ms over {r['actions']} actions (goal p99 < 100 ms)")
    print(f"  lobby list       : p50 {r['lobby_ms']['p50']:.1f} ms, p95 {r['lobby_ms']['p95']:.1f} ms, "
          f"p99 {r['lobby_ms']['p99']:.1f} ms ({r['lobby_ms']['n']} requests)")
    print(f"  server           : {r['stored_actions']} actions stored ({r['actions_per_s']}/s, people's and computer "
          f"players'), {r['server_cpu_ms_per_action']} ms of server CPU per action; CPU seconds: {r['cpu_s']}")
    print(f"  server memory    : {r['rss_mib']['start']:.0f} MiB at start, peak {r['rss_mib']['peak']:.0f} MiB")
    print(f"  load average     : {r['load_average']['before']} before, {r['load_average']['after']} after "
          "(1, 5, 15 min; 2 cores: above 2 the machine is busy)")
    print(f"  errors           : {r['errors']} {r['error_kinds']}; tracebacks in the log: {r['tracebacks']}")


if __name__ == "__main__":
    main()
