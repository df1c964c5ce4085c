"""How long a Crazy Eights bot thinks over a real choice: CPU and wall time, on round 1 of games against heuristics.

The strength benchmark's decision times count every turn (most are forced, hence its tiny
medians) and wall time on whatever machine load there is; this counts only the turns with two or
more distinct moves and reports the process's CPU time too, which a busy machine inflates less.

    python research/crazy_eights_decision_time.py --bot search --games 20 --seed 700
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

import cardtable
from cardtable.bots import make_bot
from cardtable.games.crazy_eights.players.search import candidates


def main(argv: list[str] | None = None) -> None:
    """Play the bot in seat 0 against three heuristics for the first round of each game and time its real choices."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="search")
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seed", type=int, default=500)
    args = parser.parse_args(argv)
    game = cardtable.load_game("crazy_eights")
    cpu: list[float] = []
    wall: list[float] = []
    for g in range(args.games):
        state, _ = game.new(game.options(players=4), args.seed + g)
        bots = [make_bot(game, args.bot, 1)] + [make_bot(game, "heuristic") for _ in range(3)]
        while (seat := game.to_act(state)) is not None and state.round == 1:
            obs, legal = game.observe(state, seat), game.legal_actions(state, seat)
            c0, w0 = time.process_time(), time.perf_counter()
            action = bots[seat].act(obs, legal)
            if seat == 0 and len(candidates(obs, legal)) > 1:
                cpu.append(time.process_time() - c0)
                wall.append(time.perf_counter() - w0)
            state, _ = game.apply(state, seat, action)
    cpu.sort()
    wall.sort()

    def p99(values: list[float]) -> float:
        return values[min(len(values) - 1, math.ceil(0.99 * len(values)) - 1)]  # nearest rank

    print(f"{args.bot}: {len(cpu)} real choices in {args.games} first rounds; CPU median "
          f"{1000 * statistics.median(cpu):.0f} ms, p99 {1000 * p99(cpu):.0f} ms, max {1000 * cpu[-1]:.0f} ms; "
          f"wall median {1000 * statistics.median(wall):.0f} ms, p99 {1000 * p99(wall):.0f} ms, "
          f"max {1000 * wall[-1]:.0f} ms")


if __name__ == "__main__":
    main()
