"""Game review (issue 34): how long a review takes, whether its losses order the players, whether budgets agree.

Four figures per game (docs/review.md quotes them):

- ``speed``: CPU seconds (one core) to review one seat of a seeded game played by heuristic bots, at the
  default budget: a whole 4-player Wizard game (15 rounds), one Crazy Eights round, a Durak game, a Kaiser
  game, a Mus game. Goals: Wizard at most 20 s, the Crazy Eights round at most 2 s.
- ``order``: the mean loss per decision of seat 0 played by ``random``, by the heuristic and by the game's
  default bot (the other seats heuristic), over ``--games`` seeded games, with 95% intervals (over
  decisions). Goal: random > heuristic > default, intervals apart.
- ``budgets``: the chosen option's loss at the default budget and at four times it, decision by decision:
  the share of decisions where the two agree within twice their combined standard error (about 95%
  expected).
- ``reproducible``: the same seeded review twice is identical.

    python benchmarks/review.py [--part all|speed|order|budgets] [--games 6] [--games-only wizard,durak] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from typing import Any

import cardtable
from cardtable.bots import make_bot
from cardtable.bots.catalog import DEFAULT_BOT
from cardtable.core.record import GameRecord, new_record
from cardtable.review import DEFAULT_BUDGET, review_record

HEURISTIC = {"wizard": "heuristic", "mus": "simple", "durak": "heuristic", "kaiser": "heuristic",
             "crazy_eights": "heuristic"}
#: The game each speed figure reviews: 4-player Wizard's 15 rounds, one Crazy Eights round, the rest as set up.
SPEED_OPTIONS: dict[str, dict[str, Any]] = {"wizard": {"players": 4}, "crazy_eights": {"rounds": 1}}
ORDER_OPTIONS: dict[str, dict[str, Any]] = {"wizard": {"players": 4, "rounds": 5}, "crazy_eights": {"rounds": 1}}


def play(name: str, bots: list[str], seed: int, options: dict[str, Any]) -> GameRecord:
    """A seeded game with one named bot a seat, as its record."""
    game = cardtable.load_game(name)
    opts = game.options(**options)
    players = [make_bot(game, b, seed * 10 + i, options=opts) for i, b in enumerate(bots)]
    record = new_record(game, opts, seed)
    state, _ = game.new(opts, seed)
    while (seat := game.to_act(state)) is not None:
        action = players[seat].act(game.observe(state, seat), game.legal_actions(state, seat))
        state, _ = game.apply(state, seat, action)
        record = record.with_action(seat, action)
    return record


def seats(name: str, options: dict[str, Any]) -> int:
    """The number of players these options give."""
    game = cardtable.load_game(name)
    return int(game.options(**options).players)


def speed(name: str) -> dict[str, Any]:
    """CPU seconds to review seat 0 of one seeded game at the default budget."""
    options = SPEED_OPTIONS.get(name, {})
    record = play(name, [HEURISTIC[name]] * seats(name, options), 1, options)
    game = cardtable.load_game(name)
    start = time.process_time()
    review = review_record(game, record, 0, budget=DEFAULT_BUDGET)
    seconds = time.process_time() - start
    return {"game": name, "actions": len(record.actions), "decisions": len(review.decisions),
            "budget": DEFAULT_BUDGET, "cpu_seconds": round(seconds, 2),
            "ms_per_decision": round(1000 * seconds / max(1, len(review.decisions)), 1)}


def order(name: str, games: int) -> dict[str, Any]:
    """Mean loss per decision of seat 0 by random, heuristic and default bot, with 95% intervals."""
    options = ORDER_OPTIONS.get(name, {})
    n = seats(name, options)
    game = cardtable.load_game(name)
    out: dict[str, Any] = {"game": name, "games": games}
    for label, bot in (("random", "random"), ("heuristic", HEURISTIC[name]), ("default", DEFAULT_BOT[name])):
        losses: list[float] = []
        for g in range(games):
            record = play(name, [bot] + [HEURISTIC[name]] * (n - 1), 500 + g, options)
            losses += [d.loss for d in review_record(game, record, 0, budget=DEFAULT_BUDGET, seed=g).decisions]
        mean = statistics.fmean(losses) if losses else 0.0
        half = 1.96 * statistics.stdev(losses) / math.sqrt(len(losses)) if len(losses) > 1 else 0.0
        out[label] = {"bot": bot, "decisions": len(losses), "mean_loss": round(mean, 3), "pm95": round(half, 3)}
    return out


def budgets(name: str) -> dict[str, Any]:
    """Decisions whose chosen loss at the default budget and at four times it agree within their errors."""
    options = ORDER_OPTIONS.get(name, {})
    record = play(name, [HEURISTIC[name]] * seats(name, options), 2, options)
    game = cardtable.load_game(name)
    low = review_record(game, record, 0, budget=DEFAULT_BUDGET, seed=1)
    high = review_record(game, record, 0, budget=4 * DEFAULT_BUDGET, seed=2)
    agree = sum(abs(a.loss - b.loss) <= 2 * math.hypot(a.error, b.error) + 1e-9
                for a, b in zip(low.decisions, high.decisions))
    again = review_record(game, record, 0, budget=DEFAULT_BUDGET, seed=1)
    return {"game": name, "decisions": len(low.decisions), "agree": agree,
            "share": round(agree / max(1, len(low.decisions)), 3),
            "reproducible": again.to_json(game) == low.to_json(game)}


def main() -> None:
    """Print the figures (a table, or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=["all", "speed", "order", "budgets"], default="all")
    parser.add_argument("--games", type=int, default=6, help="seeded games per bot for the order")
    parser.add_argument("--games-only", default="", help="comma-separated game names (default: all five)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    names = [g for g in args.games_only.split(",") if g] or sorted(HEURISTIC)
    results: dict[str, list[dict[str, Any]]] = {}
    for part in ("speed", "order", "budgets"):
        if args.part not in ("all", part):
            continue
        rows = results.setdefault(part, [])
        for name in names:
            row = speed(name) if part == "speed" else order(name, args.games) if part == "order" else budgets(name)
            rows.append(row)
            if not args.json:
                print(part, json.dumps(row, ensure_ascii=False), flush=True)
    if args.json:
        print(json.dumps(results, ensure_ascii=False))


if __name__ == "__main__":
    main()
