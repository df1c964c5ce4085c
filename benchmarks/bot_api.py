"""The Bot API's round trip per decision, with many bots at many tables at once, and a server's memory per bot.

    python benchmarks/bot_api.py                       # 100 bots at 100 tables, 20 s of play, three paces
    python benchmarks/bot_api.py --bots 10 --seconds 5 --think-ms 0

A real ``cardtable serve`` process (SQLite, ``--bot-delay 0``) and, in this process, one WebSocket client per
bot account (the ``websockets`` library). Each table is a two-player Crazy Eights game whose two seats its bot
holds, so every decision of the table goes through the Bot API: the figure is, per decision, the time from the
bot sending its ``action`` to its receiving the next ``act`` — the server decoding and checking the answer,
storing the move (one commit, grouped with the other tables' moves by the writer thread), building the next
observation and sending it. Both processes share this machine's two cores; the client's own work is in the
figure.

Three paces (``--think-ms``, default ``0,100,1000``). At 0 every bot answers the moment its ``act`` arrives: the
server is saturated, every decision waits behind the others, and the figure is the server's throughput
seen as latency (about bots / decisions per second). At 100 each bot thinks 50-150 ms (uniform, seeded)
before answering, as a program that searches does; at 1000, 0.5-1.5 s, as a bot at a table with people.
The think time is not in the figure. Memory: the server's resident set after every bot connected and took
its seats, minus before, per bot.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def _seat_bots(server: Any, tokens: list[str], tables: list[dict[str, Any]]) -> list[Any]:
    """Connect every bot, invite it into both seats of its table, accept; the open sockets."""
    from websockets.asyncio.client import connect

    sockets = []
    for token, created in zip(tokens, tables, strict=True):
        ws = await connect(server.ws + "/api/bot/stream", additional_headers={"Authorization": f"Bearer {token}"},
                           max_size=2**22)
        assert json.loads(await ws.recv())["type"] == "welcome"
        for seat in (0, 1):
            url = f"/api/tables/{created['table_id']}/invite"
            body = {"token": created["token"], "seat": seat, "bot": created["bot"]}
            status, answer = await asyncio.to_thread(server.request, "POST", url, body)
            assert status == 201, answer
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "invited":
                    await ws.send(json.dumps({"type": "accept", "invitation": message["invitation"]["id"]}))
                elif message["type"] == "hello":
                    break
        sockets.append(ws)
    return sockets


async def _play(ws: Any, until: float, trips: list[float], think: float, rng: random.Random) -> int:
    """Answer every act with the first legal action until ``until``, after thinking ``think`` seconds on
    average (uniform between half and one and a half); the decisions answered."""
    sent_at: float | None = None
    answered = 0
    while time.monotonic() < until:
        try:
            text = await asyncio.wait_for(ws.recv(), timeout=max(0.01, until - time.monotonic()))
        except TimeoutError:
            break
        message = json.loads(text)
        if message["type"] == "act":
            now = time.perf_counter()
            if sent_at is not None:
                trips.append(now - sent_at)
            if think > 0:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            await ws.send(json.dumps({"type": "action", "table": message["table"], "id": message["id"], "index": 0}))
            sent_at = time.perf_counter()
            answered += 1
        elif message["type"] == "end":
            sent_at = None
    return answered


async def _run(args: argparse.Namespace, server: Any, database: str, think_ms: float) -> dict[str, Any]:
    from cardtable.store import BotAccounts, Store

    accounts = BotAccounts(Store(database).engine)
    tokens = [accounts.add(f"bench{i}")[1] for i in range(args.bots)]
    tables = []
    for i in range(args.bots):
        status, created = server.request("POST", "/api/tables", {
            "game": "crazy_eights", "options": {"players": 2, "rounds": 5}, "seed": i,
            "seats": [{"kind": "bot", "bot": "first"}, {"kind": "bot", "bot": "first"}]})
        assert status == 201, created
        tables.append({**created, "bot": f"bench{i}"})
    before = server.rss_kib()
    sockets = await _seat_bots(server, tokens, tables)
    await asyncio.sleep(1.0)
    after = server.rss_kib()
    for created in tables:
        status, answer = server.request("POST", f"/api/tables/{created['table_id']}/start",
                                        {"token": created["token"]})
        assert status == 200, answer
    trips: list[float] = []
    until = time.monotonic() + args.seconds
    cpu = server.cpu_seconds()
    started = time.monotonic()
    answered = await asyncio.gather(*(_play(ws, until, trips, think_ms / 1000, random.Random(i))
                                      for i, ws in enumerate(sockets)))
    elapsed = time.monotonic() - started
    cpu = server.cpu_seconds() - cpu
    for ws in sockets:
        await ws.close()
    ms = [t * 1000 for t in trips]
    return {"bots": args.bots, "tables": args.bots, "think_ms": think_ms, "seconds": round(elapsed, 1),
            "decisions": sum(answered),
            "decisions_per_second": round(sum(answered) / elapsed, 1),
            "round_trip_ms": {"median": round(statistics.median(ms), 3), "p90": round(percentile(ms, 0.9), 3),
                              "p99": round(percentile(ms, 0.99), 3), "max": round(max(ms), 3),
                              "samples": len(ms)},
            "server_cpu_seconds_per_decision_ms": round(1000 * cpu / max(1, sum(answered)), 3),
            "server_memory_per_bot_kib": round((after - before) / args.bots, 1),
            "load_average_at_start": os.getloadavg()}


def main() -> None:
    """Run once and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=100, help="bot accounts, one table each (default 100)")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of play measured (default 20)")
    parser.add_argument("--sqlite-sync", default="NORMAL", help="the server's --sqlite-sync (default NORMAL)")
    parser.add_argument("--think-ms", default="0,100,1000",
                        help="the bots' mean thinking times to run, comma-separated milliseconds (default 0,100,1000)")
    parser.add_argument("--profile", type=Path, help="run the server under pyinstrument; its text profile here "
                        "(the last pace's run)")
    parser.add_argument("--json", action="store_true", help="one JSON object per pace")
    args = parser.parse_args()
    if args.bots < 1 or args.seconds <= 0:
        parser.error("--bots and --seconds must be positive")
    try:
        paces = [float(text) for text in args.think_ms.split(",")]
    except ValueError:
        parser.error(f"--think-ms: comma-separated numbers of milliseconds, not {args.think_ms!r}")
    if not paces or any(not 0 <= pace < 60_000 for pace in paces):
        parser.error("--think-ms: each between 0 and 60000")
    for pace in paces:
        _report(args, _measure(args, pace))


def _measure(args: argparse.Namespace, think_ms: float) -> dict[str, Any]:
    """One run on a fresh server and database."""
    from tests.server.realserver import serve

    folder = Path(tempfile.mkdtemp(prefix="cardtable-botapi-"))
    database = f"sqlite:///{folder / 'bench.db'}"
    with serve(database, folder / "server.log", "--bot-delay", "0", "--sqlite-sync", args.sqlite_sync,
               "--limit", "connections_per_address=100000", "--limit", "tables_per_minute=100000",
               profile=args.profile) as server:
        return asyncio.run(_run(args, server, database, think_ms))


def _report(args: argparse.Namespace, figures: dict[str, Any]) -> None:
    if args.json:
        print(json.dumps(figures))
        return
    trip = figures["round_trip_ms"]
    pace = (f"each thinking {figures['think_ms']:g} ms on average" if figures["think_ms"]
            else "every bot answering at once")
    print(f"{figures['bots']} bots at {figures['tables']} tables, {pace}, {figures['seconds']} s: "
          f"{figures['decisions']} decisions ({figures['decisions_per_second']}/s)")
    print(f"  round trip per decision: median {trip['median']} ms, p90 {trip['p90']} ms, p99 {trip['p99']} ms, "
          f"max {trip['max']} ms ({trip['samples']} samples)")
    print(f"  server CPU per decision: {figures['server_cpu_seconds_per_decision_ms']} ms")
    print(f"  server memory per connected bot (2 seats each): {figures['server_memory_per_bot_kib']} KiB")
    print(f"  load average at start: {figures['load_average_at_start']}")


if __name__ == "__main__":
    main()
