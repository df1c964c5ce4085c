"""The search bots' compiled playouts against their Python reference: CPU per decision, and the same choices.

    python benchmarks/playouts.py [--game crazy_eights] [--games 6] [--seed 700] [--bot search] [--json]

Seat 0 is played by the search bot twice over, the same seed on both sides: one bot with the compiled
playouts, a twin with the Python ones (``python_only``), both fed the same observations; the others are
the game's usual opponents. At every decision with a real choice each side's ``act`` is timed in
**CPU time** (``time.process_time``), the order of the two alternating from one decision to the next
(interleaved, on the same positions); the compiled side's move is played. Printed: the decisions
timed, how many the two chose alike (the bots' generators compared too; one difference is reported
and stops the game), each side's median CPU per decision, and the per-decision ratio Python / compiled
as the **median with the interquartile range and the min–max**, and the ratio of the totals. One-off
setup costs (Crazy Eights' win-chance table) are paid before the timing and reported apart.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cardtable
from cardtable.bots import make_bot
from cardtable.core.twister import CompiledPlayouts


def spread(values: list[float]) -> dict[str, float]:
    """Median, quartiles, min and max."""
    values = sorted(values)
    q1, _, q3 = statistics.quantiles(values, n=4) if len(values) >= 4 else (values[0], 0.0, values[-1])
    return {"median": statistics.median(values), "q1": q1, "q3": q3, "min": values[0], "max": values[-1]}


def fmt(s: dict[str, float], unit: str = "x") -> str:
    """``1.23x (IQR 1.20–1.25, range 1.10–1.30)``."""
    return f"{s['median']:.2f}{unit} (IQR {s['q1']:.2f}–{s['q3']:.2f}, range {s['min']:.2f}–{s['max']:.2f})"


@dataclass
class Setup:
    """One game's twin run: its options per seed, the real choices, the bots' generator states, the switch."""

    game: str
    options: Callable[[int], dict[str, Any]]
    opponent: str
    is_choice: Callable[[Any, list[Any]], bool]
    fingerprint: Callable[[Any], Any]
    switch: CompiledPlayouts
    warm: Callable[[Any], dict[str, float]] = field(default=lambda options: {})


def crazy_eights() -> Setup:
    """Four players against three heuristics, three rounds (the defaults)."""
    from cardtable.games.crazy_eights.players.compiled import FAST
    from cardtable.games.crazy_eights.players.search import candidates
    from cardtable.games.crazy_eights.players.win_chance import gap_cdf, sample_rounds
    from cardtable.games.crazy_eights.rules import default_hand_size

    def warm(options: Any) -> dict[str, float]:
        """The win-chance table of this setup, learned once per process: timed both ways, then cached."""
        args = (options.players, default_hand_size(options.players), options.draw_until_playable)
        out = {}
        for name, python in (("compiled", False), ("python", True)):
            start = time.process_time()
            if python:
                with FAST.python_only():
                    sample_rounds.__wrapped__(*args)
            else:
                sample_rounds.__wrapped__(*args)
            out[name] = time.process_time() - start
        for rounds_left in range(1, options.rounds):
            gap_cdf(*args, rounds_left)
        return out

    return Setup("crazy_eights", lambda seed: {"players": 4}, "heuristic",
                 lambda obs, legal: len(candidates(obs, legal)) > 1,
                 lambda bot: (bot.rng.getstate(), bot.filter.rnd.getstate(), bot.filter.particles, bot.worlds_done),
                 FAST, warm)


def wizard() -> Setup:
    """Four players against three heuristics, the whole game (15 rounds)."""
    from cardtable.games.wizard.actions import Play
    from cardtable.games.wizard.players.compiled import FAST
    from cardtable.games.wizard.players.search import distinct_cards

    def is_choice(obs: Any, legal: list[Any]) -> bool:
        return isinstance(legal[0], Play) and len(distinct_cards(obs, [a.card for a in legal])) > 1

    return Setup("wizard", lambda seed: {"players": 4}, "heuristic", is_choice,
                 lambda bot: (bot.rng.getstate(), bot.simulations_done), FAST)


def kaiser() -> Setup:
    """Seat 0 the bot, the other three seats (its partner among them) heuristics, whole games to 52."""
    from cardtable.games.kaiser.compiled import FAST

    return Setup("kaiser", lambda seed: {}, "heuristic", lambda obs, legal: len(legal) > 1,
                 lambda bot: (bot.rng.getstate(), bot.simulations_done), FAST)


SETUPS: dict[str, Callable[[], Setup]] = {"crazy_eights": crazy_eights, "wizard": wizard, "kaiser": kaiser}


@dataclass
class Tally:
    """Per timed decision: the compiled and the Python CPU seconds; and the choices that differed."""

    compiled: list[float] = field(default_factory=list)
    python: list[float] = field(default_factory=list)
    differ: list[str] = field(default_factory=list)
    decisions: int = 0


def run(setup: Setup, bot: str, games: int, seed: int) -> tuple[Tally, dict[str, float]]:
    """Play the games with twin bots in seat 0; time and compare their real choices."""
    game = cardtable.load_game(setup.game)
    tally = Tally()
    warmed: dict[str, float] = {}
    for g in range(games):
        options = game.options(**setup.options(seed + g))
        for name, seconds in setup.warm(options).items():
            warmed[name] = warmed.get(name, 0.0) + seconds
        state, _ = game.new(options, seed + g)
        fast, slow = make_bot(game, bot, seed + g), make_bot(game, bot, seed + g)
        others = [make_bot(game, setup.opponent, seed + g + s) for s in range(options.players)]
        while (seat := game.to_act(state)) is not None:
            obs, legal = game.observe(state, seat), game.legal_actions(state, seat)
            if seat:
                state, _ = game.apply(state, seat, others[seat].act(obs, legal))
                continue
            choice = setup.is_choice(obs, legal)
            times = {}
            for side in (("compiled", "python") if tally.decisions % 2 == 0 else ("python", "compiled")):
                start = time.process_time()
                if side == "python":
                    with setup.switch.python_only():
                        times[side] = (slow.act(obs, legal), time.process_time() - start)
                else:
                    times[side] = (fast.act(obs, legal), time.process_time() - start)
            tally.decisions += 1
            action, twin = times["compiled"][0], times["python"][0]
            if choice:
                tally.compiled.append(times["compiled"][1])
                tally.python.append(times["python"][1])
            if action != twin or setup.fingerprint(fast) != setup.fingerprint(slow):
                tally.differ.append(f"game {seed + g}, decision {tally.decisions}: {action} against {twin}")
                break
            state, _ = game.apply(state, seat, action)
    return tally, warmed


def main(argv: list[str] | None = None) -> None:
    """Run the twin games and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(SETUPS), default="crazy_eights")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=700)
    parser.add_argument("--bot", default="search", help="the bot and its options, e.g. search:sims=250")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args(argv)
    setup = SETUPS[args.game]()
    if not setup.switch.is_built():
        raise SystemExit(f"the compiled playouts of {args.game} are not built here (make core; a C compiler is needed)")
    tally, warmed = run(setup, args.bot, args.games, args.seed)
    if not tally.compiled:
        raise SystemExit("no real choice was played: more --games")
    ratios = [p / c for p, c in zip(tally.python, tally.compiled)]
    figures = {
        "game": args.game, "bot": args.bot, "games": args.games, "seed": args.seed,
        "decisions": tally.decisions, "timed": len(ratios), "differ": tally.differ,
        "compiled_ms": 1000 * statistics.median(tally.compiled), "python_ms": 1000 * statistics.median(tally.python),
        "ratio": spread(ratios), "ratio_of_totals": sum(tally.python) / sum(tally.compiled),
        "setup_s": warmed,
    }
    if args.json:
        print(json.dumps(figures))
        return
    same = tally.decisions - len(tally.differ)
    print(f"{args.game} {args.bot}, {args.games} games from seed {args.seed}: {tally.decisions} decisions of seat 0, "
          f"{same} chosen alike by both sides{'' if not tally.differ else ' — DIFFER: ' + '; '.join(tally.differ)}")
    print(f"  {len(ratios)} real choices timed (CPU): compiled median {figures['compiled_ms']:.1f} ms, "
          f"Python median {figures['python_ms']:.1f} ms")
    print(f"  Python / compiled per decision: {fmt(figures['ratio'])}; totals {figures['ratio_of_totals']:.1f}x")
    if warmed:
        print("  one-off setup, CPU s (not in the decisions): "
              + ", ".join(f"{k} {v:.2f}" for k, v in warmed.items()))


if __name__ == "__main__":
    main()
