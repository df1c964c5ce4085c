"""Random-play throughput of every registered game, and of OpenSpiel's crazy_eights beside ours.

    python benchmarks/throughput.py [--seconds 3] [--game NAME ...] [--json]

For each game: random games with the default options (4 players where allowed) for a
few seconds, through the public protocol (``apply`` validates every action) and
through ``apply_unchecked`` (what a search bot or RL loop that took the action from
``legal_actions`` uses). Prints decisions per second and games per second.

If ``pyspiel`` is importable (``pip install -e '.[bench]'``), it also plays
OpenSpiel's ``crazy_eights`` with random moves in the same run, with its
parameters set as close to ours as they allow, and prints the ratio.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

import cardtable

BENCH_OPTIONS: dict[str, dict[str, Any]] = {
    "wizard": {"players": 4},
    "mus": {"players": 4},
    "durak": {"players": 3},
    "kaiser": {"players": 4},
    "crazy_eights": {"players": 4, "rounds": 1},
}


def play_for(game: Any, options: Any, seconds: float, *, checked: bool) -> dict[str, float]:
    """Random games for ``seconds``: games and decisions per second."""
    rng = random.Random(1)
    apply = game.apply if checked else game.apply_unchecked
    games = decisions = 0
    seed = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        seed += 1
        state, _ = game.new(options, seed)
        while (seat := game.to_act(state)) is not None:
            legal = game.legal_actions(state, seat)
            state, _ = apply(state, seat, legal[rng.randrange(len(legal))])
            decisions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"games_per_s": games / elapsed, "decisions_per_s": decisions / elapsed, "games": games}


OPENSPIEL_PARAMS = {
    "players": 4,             # as our bench: 4 players
    "use_special_cards": False,  # our rules: only eights are special
    "reshuffle": True,        # our rules: an empty stock is rebuilt from the discards
    "max_draw_cards": 52,     # our default draws until a playable card turns up
}


def openspiel_crazy_eights(seconds: float) -> dict[str, float] | None:
    """Random games of OpenSpiel's crazy_eights for ``seconds`` (None if pyspiel is missing)."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("crazy_eights", OPENSPIEL_PARAMS)
    rng = random.Random(1)
    games = decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            decisions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"games_per_s": games / elapsed, "decisions_per_s": decisions / elapsed, "games": games}


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement")
    parser.add_argument("--game", action="append", help="only these games")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    results: dict[str, Any] = {}
    for name, game in cardtable.all_games().items():
        if args.game and name not in args.game:
            continue
        options = game.options(BENCH_OPTIONS.get(name, {}))
        results[name] = {
            "options": BENCH_OPTIONS.get(name, {}),
            "apply": play_for(game, options, args.seconds, checked=True),
            "apply_unchecked": play_for(game, options, args.seconds, checked=False),
        }
    if not args.game or "crazy_eights" in args.game:
        peer = openspiel_crazy_eights(args.seconds)
        if peer is not None:
            ours = results.get("crazy_eights", {}).get("apply", {}).get("games_per_s", 0.0)
            results["openspiel_crazy_eights"] = {"params": OPENSPIEL_PARAMS, **peer,
                                                 "ratio_cardtable_over_openspiel": ours / peer["games_per_s"]}
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"{'game':<14} {'games/s':>10} {'decisions/s':>12}   {'games/s*':>10} {'decisions/s*':>12}")
    for name, row in results.items():
        if name == "openspiel_crazy_eights":
            continue
        a, u = row["apply"], row["apply_unchecked"]
        print(f"{name:<14} {a['games_per_s']:>10.1f} {a['decisions_per_s']:>12.0f}   "
              f"{u['games_per_s']:>10.1f} {u['decisions_per_s']:>12.0f}")
    print("(* apply_unchecked: actions taken from legal_actions, not validated again)")
    peer = results.get("openspiel_crazy_eights")
    if peer:
        print(f"\nOpenSpiel crazy_eights {peer['params']}: {peer['games_per_s']:.1f} games/s, "
              f"{peer['decisions_per_s']:.0f} decisions/s")
        print(f"ratio cardtable / OpenSpiel (games/s, validated apply): {peer['ratio_cardtable_over_openspiel']:.2f}")
    else:
        print("\nOpenSpiel not importable: pip install -e '.[bench]' to compare with pyspiel's crazy_eights.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
