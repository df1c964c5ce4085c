"""The cost of encoding for learning agents: random playouts with and without encode + mask.

    python benchmarks/encoding.py [--seconds 1] [--repeats 5] [--game NAME ...] [--json]

For each game, random games are played three ways, interleaved in one process and
repeated:

- ``plain``: ``legal_actions``, a random choice, ``apply_unchecked``;
- ``encoded``: the same loop (same seeds, same choices) that also calls ``encode`` and
  ``action_mask`` for the seat to act at every decision, into preallocated buffers;
- ``rl loop``: what an RL environment does instead: ``encode``, ``action_mask``, a random
  legal id (``legal_ids``), ``action_from_id``, ``apply_unchecked`` (no ``legal_actions``).

It prints CPU µs per decision and the ratios to ``plain`` (median of the repeats, with the
lowest and highest). The goal is a ratio of at most 1.3.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import statistics
import time
from typing import Any

import numpy as np

import cardtable

BENCH_OPTIONS: dict[str, dict[str, Any]] = {
    "wizard": {"players": 4},
    "mus": {"players": 4},
    "durak": {"players": 3},
    "kaiser": {"players": 4},
    "crazy_eights": {"players": 4, "rounds": 1},
}


def playouts(game: Any, options: Any, seconds: float, encoding: Any | None, *, rl_loop: bool = False
             ) -> tuple[int, float]:
    """Random games from seed 1 on for about ``seconds``: (decisions, CPU seconds)."""
    rng = random.Random(1)
    apply = game.apply_unchecked
    obs = mask = None
    if encoding is not None:
        obs = np.zeros(encoding.shape(options), np.uint8)
        mask = np.zeros(encoding.num_actions(options), np.int8)
    decisions = 0
    seed = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        seed += 1
        state, _ = game.new(options, seed)
        while (seat := game.to_act(state)) is not None:
            if encoding is not None:
                encoding.encode(state, seat, obs)
                encoding.action_mask(state, seat, mask)
            if rl_loop:
                ids = encoding.legal_ids(state, seat)
                action = encoding.action_from_id(ids[rng.randrange(len(ids))], state)
            else:
                legal = game.legal_actions(state, seat)
                action = legal[rng.randrange(len(legal))]
            state, _ = apply(state, seat, action)
            decisions += 1
    return decisions, time.process_time() - start


def measure(name: str, seconds: float, repeats: int) -> dict[str, Any]:
    """Interleaved plain and encoded runs of one game: µs per decision and the ratio."""
    game = cardtable.load_game(name)
    options = game.options(**BENCH_OPTIONS.get(name, {}))
    encoding = importlib.import_module(f"cardtable.games.{name}.encoding").ENCODING
    plain_us: list[float] = []
    encoded_us: list[float] = []
    loop_us: list[float] = []
    for _ in range(repeats):
        n, t = playouts(game, options, seconds, None)
        plain_us.append(t / n * 1e6)
        n, t = playouts(game, options, seconds, encoding)
        encoded_us.append(t / n * 1e6)
        n, t = playouts(game, options, seconds, encoding, rl_loop=True)
        loop_us.append(t / n * 1e6)
    ratios = [e / p for e, p in zip(encoded_us, plain_us)]
    loop_ratios = [e / p for e, p in zip(loop_us, plain_us)]
    return {"game": name, "options": BENCH_OPTIONS.get(name, {}), "shape": list(encoding.shape(options)),
            "actions": encoding.num_actions(options), "plain_us": statistics.median(plain_us),
            "encoded_us": statistics.median(encoded_us), "ratio": statistics.median(ratios),
            "ratio_min": min(ratios), "ratio_max": max(ratios), "rl_loop_us": statistics.median(loop_us),
            "rl_loop_ratio": statistics.median(loop_ratios), "rl_loop_ratio_min": min(loop_ratios),
            "rl_loop_ratio_max": max(loop_ratios), "repeats": repeats}


def main() -> None:
    """Parse the arguments, measure, print a table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per run")
    parser.add_argument("--repeats", type=int, default=5, help="interleaved plain/encoded pairs per game")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    names = args.game or sorted(cardtable.all_games())
    rows = [measure(name, args.seconds, args.repeats) for name in names]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'game':<14}{'shape':>6}{'ids':>5}{'plain µs':>10}{'encoded µs':>12}{'ratio':>7} {'(min–max)':<12}"
          f"{'rl loop µs':>11}{'ratio':>7} (min–max)")
    for r in rows:
        print(f"{r['game']:<14}{r['shape'][0]:>6}{r['actions']:>5}{r['plain_us']:>10.2f}{r['encoded_us']:>12.2f}"
              f"{r['ratio']:>7.2f} ({r['ratio_min']:.2f}–{r['ratio_max']:.2f})  {r['rl_loop_us']:>10.2f}"
              f"{r['rl_loop_ratio']:>7.2f} ({r['rl_loop_ratio_min']:.2f}–{r['rl_loop_ratio_max']:.2f})")


if __name__ == "__main__":
    main()
