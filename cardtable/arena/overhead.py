"""What an external bot costs per decision, against the same policy in process (for ``benchmarks/``)."""

from __future__ import annotations

import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cardtable
from cardtable.arena.external import ExternalBot
from cardtable.arena.sandbox import Limits
from cardtable.bots import RandomBot
from cardtable.core.bot import Bot
from cardtable.runner import GameRunner

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "bots" / "random_bot.py"


def seconds_per_decision(game_name: str, make: Callable[[], Bot], *, games: int, seed: int,
                         timeout: float | None = None) -> float:
    """Mean wall time seat 0's agent took per decision over ``games`` games (agent from ``make()``)."""
    game = cardtable.load_game(game_name)
    options = game.options(players=game.info.min_players)
    spent = 0.0
    decisions = 0
    for g in range(games):
        agent: Bot = make()
        others: list[Bot] = [RandomBot(seed + g + s) for s in range(1, options.players)]
        with GameRunner(game, options, seed + g, [agent, *others], timeout=timeout) as runner:
            runner.run()
        spent += runner.thinking[0]
        decisions += sum(1 for seat, _ in runner.record.actions if seat == 0)
    return spent / max(decisions, 1)


def measure(game_name: str = "durak", *, games: int = 5, rounds: int = 3, seed: int = 1,
            command: list[str] | None = None) -> dict[str, Any]:
    """Per-decision time of the random policy: in process, in a forked worker (a timeout set), as a program.

    Rounds are interleaved so the machine's load hits all three alike; medians over rounds, in microseconds.
    """
    command = command or [sys.executable, str(EXAMPLE)]
    limits = Limits(decision=5.0, handshake=10.0, game=None)
    ways: dict[str, Callable[[], float]] = {
        "in_process": lambda: seconds_per_decision(game_name, lambda: RandomBot(1), games=games, seed=seed),
        "worker_process": lambda: seconds_per_decision(game_name, lambda: RandomBot(1), games=games, seed=seed,
                                                       timeout=5.0),
        "external": lambda: seconds_per_decision(game_name, lambda: ExternalBot(command, limits=limits),
                                                 games=games, seed=seed),
    }
    samples: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(rounds):
        for name, run in ways.items():
            samples[name].append(run() * 1e6)
    medians = {name: statistics.median(values) for name, values in samples.items()}
    return {
        "game": game_name, "games_per_round": games, "rounds": rounds,
        "us_per_decision": {name: round(v, 1) for name, v in medians.items()},
        "external_overhead_us": round(medians["external"] - medians["in_process"], 1),
        "worker_overhead_us": round(medians["worker_process"] - medians["in_process"], 1),
        "spread_us": {name: [round(min(v), 1), round(max(v), 1)] for name, v in samples.items()},
    }
