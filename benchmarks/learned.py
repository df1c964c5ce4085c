"""The shipped learned players: file size, decision time, and how each was trained (from its manifest).

For every weights file in ``cardtable/bots/weights`` it prints the file's size and weight count, the
median and 99th percentile of the ``learned`` bot's decision time (one core, numpy alone: building
the seat's encoding from the observation, the forward pass, the choice) over the decisions of
``--games`` games against the game's heuristic, and what the manifest says: the command that
reproduces it, the training time, learner steps per second, the simulator's share of the time, and
the strength measured at the end of training. Strength against the hand-made bots, with intervals,
comes from ``benchmarks/strength.py`` (docs/learning.md gives the commands).

    python benchmarks/learned.py [--games 20] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

import cardtable
from cardtable.bots import make_bot
from cardtable.bots.catalog import BOT_INFO
from cardtable.bots.learned import load_weights, shipped

BASELINE = {"wizard": "heuristic", "mus": "simple", "durak": "heuristic", "kaiser": "heuristic",
            "crazy_eights": "heuristic"}


def decision_times(name: str, options: dict[str, Any], games: int) -> list[float]:
    """Seconds per decision of the learned bot in seat 0 against the baseline in the others."""
    game = cardtable.load_game(name)
    opts = game.options(**options)
    times: list[float] = []
    for g in range(games):
        bots = [make_bot(game, "learned" if s == 0 else BASELINE[name], g * 10 + s, options=opts)
                for s in range(opts.players)]
        state, _ = game.new(opts, 1000 + g)
        while (seat := game.to_act(state)) is not None:
            legal = game.legal_actions(state, seat)
            obs = game.observe(state, seat)
            start = time.process_time()
            action = bots[seat].act(obs, legal)
            if seat == 0:
                times.append(time.process_time() - start)
            state, _ = game.apply(state, seat, action)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per net for the decision times (default 20)")
    parser.add_argument("--json", action="store_true", help="one JSON object per net")
    args = parser.parse_args()
    random.seed(0)
    for name in BOT_INFO:
        for path, manifest in shipped(name):
            net, _ = load_weights(path)
            times = sorted(decision_times(name, manifest.options, args.games))
            row = {
                "file": path.name, "bytes": path.stat().st_size,
                "weights": sum(w.size + b.size for w, b in net.layers), "layers": list(manifest.layers),
                "decisions": len(times), "median_ms": round(statistics.median(times) * 1e3, 3),
                "p99_ms": round(times[int(0.99 * (len(times) - 1))] * 1e3, 3),
                "command": manifest.command, "trained": manifest.trained, "strength": manifest.strength,
            }
            if args.json:
                print(json.dumps(row))
                continue
            t, s = manifest.trained, manifest.strength
            print(f"{path.name}: {row['bytes'] / 1e6:.2f} MB, {row['weights']:,} weights {row['layers']}; "
                  f"decision {row['median_ms']} ms median, {row['p99_ms']} ms p99 over {len(times)}")
            print(f"  trained by `{manifest.command}`: {t.get('seconds', 0) / 60:.0f} min, "
                  f"{t.get('learner_steps_per_second')} learner steps/s, simulator {t.get('simulator_share', 0):.1%}"
                  f" of the time; at the end won {s.get('win_rate')} {s.get('interval95')} of {s.get('games')} "
                  f"games against {s.get('against')} ({s.get('seats')})")


if __name__ == "__main__":
    main()
