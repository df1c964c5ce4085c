"""The cost of encoding for learning agents: random playouts with and without encode + mask.

    python benchmarks/encoding.py [--seconds 1] [--repeats 5] [--game NAME ...] [--json]

For each game, random games are played four ways, interleaved in one process and
repeated:

- ``plain``: ``legal_actions``, a random choice, ``apply_unchecked``;
- ``encoded``: the same loop (same seeds, same choices, so the same games) that also encodes
  the seat to act and its action mask at every decision, the way the PettingZoo environment
  and the OpenSpiel bridge do: one incremental ``Encoder`` per seat (``encode``,
  ``action_mask``), which rewrites only what changed;
- ``stateless``: the same loop with the stateless ``Encoding.encode`` and ``action_mask``
  into preallocated buffers (a whole buffer written at every call);
- ``rl loop``: what an RL agent's loop does instead of ``legal_actions``: the encoders'
  ``encode`` and ``action_mask``, a random legal id (``legal_ids``), ``action``,
  ``apply_unchecked``;
- ``pettingzoo``: the PettingZoo environment (``cardtable.rl.env``): ``observe`` of the agent
  to act, a random id among the mask's nonzero entries, ``step`` (which checks the id and
  calls ``apply``).

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
import cardtable.rl

BENCH_OPTIONS: dict[str, dict[str, Any]] = {
    "wizard": {"players": 4},
    "mus": {"players": 4},
    "durak": {"players": 3},
    "kaiser": {"players": 4},
    "crazy_eights": {"players": 4, "rounds": 1},
}


def playouts(game: Any, options: Any, seconds: float, encoding: Any | None, mode: str = "plain",
             env: Any = None) -> tuple[int, float]:
    """Random games from seed 1 on for about ``seconds``: (decisions, CPU seconds).

    ``mode``: ``plain``, ``encoded`` (incremental encoders), ``stateless``, ``rl`` or
    ``pettingzoo`` (``env``: the environment).
    """
    if mode == "pettingzoo":
        return env_playouts(env, seconds)
    rng = random.Random(1)
    apply = game.apply_unchecked
    legal_actions = game.legal_actions
    to_act = game.to_act
    decisions = 0
    seed = 0
    if mode == "stateless":
        obs = np.zeros(encoding.shape(options), np.uint8)
        mask = np.zeros(encoding.num_actions(options), np.int8)
        encode, action_mask = encoding.encode, encoding.action_mask
    elif mode != "plain":
        encoders = [encoding.encoder(options, seat) for seat in range(options.players)]
    start = time.process_time()
    while time.process_time() - start < seconds:
        seed += 1
        state, _ = game.new(options, seed)
        if mode == "plain":
            while (seat := to_act(state)) is not None:
                legal = legal_actions(state, seat)
                state, _ = apply(state, seat, legal[rng.randrange(len(legal))])
                decisions += 1
        elif mode == "encoded":
            while (seat := to_act(state)) is not None:
                encoder = encoders[seat]
                encoder.encode(state)
                encoder.action_mask(state)
                legal = legal_actions(state, seat)
                state, _ = apply(state, seat, legal[rng.randrange(len(legal))])
                decisions += 1
        elif mode == "stateless":
            while (seat := to_act(state)) is not None:
                encode(state, seat, obs)
                action_mask(state, seat, mask)
                legal = legal_actions(state, seat)
                state, _ = apply(state, seat, legal[rng.randrange(len(legal))])
                decisions += 1
        else:
            while (seat := to_act(state)) is not None:
                encoder = encoders[seat]
                encoder.encode(state)
                encoder.action_mask(state)
                ids = encoder.legal_ids(state)
                state, _ = apply(state, seat, encoder.action(ids[rng.randrange(len(ids))], state))
                decisions += 1
    return decisions, time.process_time() - start


def env_playouts(env: Any, seconds: float) -> tuple[int, float]:
    """Random games through the PettingZoo environment: (decisions, CPU seconds)."""
    rng = random.Random(1)
    decisions = 0
    seed = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        seed += 1
        env.reset(seed=seed)
        while not env.terminations[agent := env.agent_selection]:
            ids = np.flatnonzero(env.observe(agent)["action_mask"])
            env.step(int(ids[rng.randrange(len(ids))]))
            decisions += 1
    return decisions, time.process_time() - start


MODES = ("plain", "encoded", "stateless", "rl", "pettingzoo")


def measure(name: str, seconds: float, repeats: int) -> dict[str, Any]:
    """Interleaved runs of the four loops for one game: µs per decision and the ratios to ``plain``."""
    game = cardtable.load_game(name)
    options = game.options(**BENCH_OPTIONS.get(name, {}))
    encoding = importlib.import_module(f"cardtable.games.{name}.encoding").ENCODING
    env = cardtable.rl.env(name, **BENCH_OPTIONS.get(name, {}))
    us: dict[str, list[float]] = {mode: [] for mode in MODES}
    for _ in range(repeats):
        for mode in MODES:
            n, t = playouts(game, options, seconds, encoding, mode, env)
            us[mode].append(t / n * 1e6)
    row: dict[str, Any] = {"game": name, "options": BENCH_OPTIONS.get(name, {}),
                           "shape": list(encoding.shape(options)), "actions": encoding.num_actions(options),
                           "repeats": repeats, "plain_us": statistics.median(us["plain"])}
    for mode in MODES[1:]:
        ratios = [e / p for e, p in zip(us[mode], us["plain"])]
        row[f"{mode}_us"] = statistics.median(us[mode])
        row[f"{mode}_ratio"] = statistics.median(ratios)
        row[f"{mode}_ratio_min"] = min(ratios)
        row[f"{mode}_ratio_max"] = max(ratios)
    return row


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
    print(f"{'game':<14}{'shape':>6}{'ids':>5}{'plain µs':>10}" + "".join(f"{m + ' µs':>15}{'ratio (min–max)':>20}"
                                                                   for m in MODES[1:]))
    for r in rows:
        print(f"{r['game']:<14}{r['shape'][0]:>6}{r['actions']:>5}{r['plain_us']:>10.2f}" + "".join(
            f"{r[m + '_us']:>15.2f}{r[m + '_ratio']:>7.2f} ({r[m + '_ratio_min']:.2f}–{r[m + '_ratio_max']:.2f})"
            for m in MODES[1:]))


if __name__ == "__main__":
    main()
