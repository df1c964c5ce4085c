"""What an external bot costs per decision, against the same policy in process (for ``benchmarks/``)."""

from __future__ import annotations

import resource
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cardtable
from cardtable.arena.external import ExternalBot
from cardtable.arena.sandbox import Limits
from cardtable.bots import RandomBot
from cardtable.core.game import Game
from cardtable.runner import AgentWorker, TimeLeft

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "bots" / "random_bot.py"
Decision = tuple[Any, list[Any]]


def decisions(game: Game[Any, Any, Any, Any], count: int, seed: int) -> list[Decision]:
    """``count`` (observation, legal actions) pairs from random games, as seats meet them."""
    out: list[Decision] = []
    rng = RandomBot(seed)
    options = game.options(players=game.info.min_players)
    while len(out) < count:
        state, _ = game.new(options, seed + len(out))
        while (seat := game.to_act(state)) is not None and len(out) < count:
            legal = game.legal_actions(state, seat)
            out.append((game.observe(state, seat), legal))
            state, _ = game.apply(state, seat, rng.act(out[-1][0], legal))
    return out


def _cpu() -> float:
    """CPU seconds of this process and of its reaped children (bot programs, workers)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _timed(run: Callable[[], None], count: int) -> tuple[float, float]:
    """Wall and CPU microseconds per decision of ``run`` (which answers ``count`` decisions)."""
    wall, cpu = time.perf_counter(), _cpu()
    run()
    return (time.perf_counter() - wall) / count * 1e6, (_cpu() - cpu) / count * 1e6


def measure(game_name: str = "durak", *, count: int = 2000, rounds: int = 3, seed: int = 1,
            command: list[str] | None = None) -> dict[str, Any]:
    """Steady-state cost per decision of the random policy: in process, in a forked worker, as a program.

    The same ``count`` decisions go to each; rounds are interleaved so the machine's load hits
    all three alike; medians over rounds in microseconds, wall (waiting included) and CPU (this
    process and the bot's, load-independent). ``start_ms``: starting the program and its handshake.
    """
    game = cardtable.load_game(game_name)
    options = game.options(players=game.info.min_players)
    sample = decisions(game, count, seed)
    command = command or [sys.executable, str(EXAMPLE)]
    limits = Limits(decision=5.0, handshake=10.0, game=None)

    def in_process() -> None:
        bot = RandomBot(1)
        for observation, legal in sample:
            bot.act(observation, legal)

    def worker() -> None:
        process = AgentWorker(RandomBot(1), "measure")
        try:
            for observation, legal in sample:
                process.ask(observation, legal, 5.0)
        finally:
            process.kill()

    def external() -> None:
        bot = ExternalBot(command, limits=limits)
        bot.start(game, options, 0)
        try:
            for observation, legal in sample:
                bot.act_within(observation, legal, TimeLeft(5.0, None))
        finally:
            bot.close()

    def start_only() -> None:
        bot = ExternalBot(command, limits=limits)
        bot.start(game, options, 0)
        bot.close()

    ways: dict[str, Callable[[], None]] = {"in_process": in_process, "worker_process": worker, "external": external}
    wall: dict[str, list[float]] = {name: [] for name in ways}
    cpu: dict[str, list[float]] = {name: [] for name in ways}
    starts: list[float] = []
    for _ in range(rounds):
        for name, run in ways.items():
            w, c = _timed(run, count)
            wall[name].append(w)
            cpu[name].append(c)
        starts.append(_timed(start_only, 1)[0] / 1000)
    wm = {name: statistics.median(v) for name, v in wall.items()}
    cm = {name: statistics.median(v) for name, v in cpu.items()}
    return {
        "game": game_name, "decisions": count, "rounds": rounds,
        "wall_us": {name: round(v, 1) for name, v in wm.items()},
        "cpu_us": {name: round(v, 1) for name, v in cm.items()},
        "external_overhead_wall_us": round(wm["external"] - wm["in_process"], 1),
        "external_overhead_cpu_us": round(cm["external"] - cm["in_process"], 1),
        "worker_overhead_wall_us": round(wm["worker_process"] - wm["in_process"], 1),
        "wall_spread_us": {name: [round(min(v), 1), round(max(v), 1)] for name, v in wall.items()},
        "start_ms": round(statistics.median(starts), 1),
        "load_average": _load(),
    }


def _load() -> float:
    try:
        return float(Path("/proc/loadavg").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return float("nan")
