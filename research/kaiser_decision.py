"""How long Kaiser's search takes per decision: wall and CPU time, median and 99th percentile.

Positions come from games of four ``heuristic`` bots (every decision with a choice, every ``--every``
th one); the bot named by ``--bot`` (default ``search``, its default budget) decides each once.
CPU time is the process's own, so it is less affected by other work on a shared machine than the
wall time a player waits.

    python research/kaiser_decision.py --games 3 --every 3
    python research/kaiser_decision.py --bot search_quick
    python research/kaiser_decision.py --players lowest   # positions from games whose calls fit no rule
"""

from __future__ import annotations

import argparse
import statistics
import time

import cardtable
from cardtable.bots import make_bot


def _percentiles(xs: list[float]) -> str:
    xs = sorted(xs)
    p99 = xs[min(len(xs) - 1, int(0.99 * len(xs)))]
    return f"median {1000 * statistics.median(xs):.1f} ms, p99 {1000 * p99:.1f} ms"


def main() -> None:
    """Collect positions, time the bot on each, print the figures by phase and overall."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="search")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", default="heuristic", help="the bot playing the games the positions come from")
    args = parser.parse_args()
    game = cardtable.load_game("kaiser")
    positions = []
    for g in range(args.games):
        bots = [make_bot(game, args.players, 10 * g + s) for s in range(4)]
        state, _ = game.new(game.options(), args.seed * 1000 + g)
        step = 0
        while (seat := game.to_act(state)) is not None:
            obs, legal = game.observe(state, seat), game.legal_actions(state, seat)
            if len(legal) > 1 and step % args.every == 0:
                positions.append((obs, legal))
            state, _ = game.apply(state, seat, bots[seat].act(obs, legal))
            step += 1
    bot = make_bot(game, args.bot, args.seed)
    wall: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    for obs, legal in positions:
        w, c = time.perf_counter(), time.process_time()
        bot.act(obs, legal)
        for store, elapsed in ((wall, time.perf_counter() - w), (cpu, time.process_time() - c)):
            store.setdefault(obs.phase, []).append(elapsed)  # type: ignore[attr-defined]
            store.setdefault("all", []).append(elapsed)
    print(f"kaiser {args.bot}: {len(positions)} decisions from {args.games} {args.players} games (seed {args.seed})")
    for phase in ("bidding", "trump", "play", "all"):
        if phase in wall:
            n = len(wall[phase])
            print(f"  {phase:<8} {n:>4}  wall {_percentiles(wall[phase])};  cpu {_percentiles(cpu[phase])}")


if __name__ == "__main__":
    main()
