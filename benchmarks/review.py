"""Game review (issue 34): how long a review takes, whether its losses order the players, whether budgets agree.

Four figures per game (docs/review.md quotes them):

- ``speed``: CPU seconds (one core) to review one seat of a seeded game played by heuristic bots, at the
  default budget: a whole 4-player Wizard game (15 rounds), one Crazy Eights round, a Durak game, a Kaiser
  game, a Mus game. Goals: Wizard at most 20 s, the Crazy Eights round at most 2 s.
- ``order``: the mean loss per decision of seat 0 played by ``random``, by the heuristic and by the game's
  default bot (the other seats heuristic), over ``--games`` seeded games, with 95% intervals that count
  each game as one sample (a game's decisions share its deal, so they are not independent); beside it the
  loss a game (the sum over the seat's decisions). Goal:
  random > heuristic > default, intervals apart. ``--heuristic durak=heuristic`` reviews another bot in
  the heuristic's place, ``--default durak=learned_search`` another in the default's (the lobby's default
  where a shipped net was trained for the table), ``-o wizard:rounds=all`` sets an option of the order's
  games, ``--first 96`` starts at game 96.
- ``budgets``: the chosen option's loss at the default budget and at four times it, decision by decision:
  the share of decisions where the two agree within twice their combined standard error (about 95%
  expected).
- ``reproducible``: the same seeded review twice is identical.

    python benchmarks/review.py [--part all|speed|order|budgets] [--games 6] [--first 0] [--jobs 1]
                                [--games-only wizard,durak]
                                [--heuristic GAME=BOT ...] [--default GAME=BOT ...]
                                [-o GAME:KEY=VALUE ...] [--json]
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

#: The bot of the "heuristic" role in each game (docs/bots.md's catalogue): Durak's and Mus's are ``careful``
#: (their bots named ``heuristic`` and ``simple`` are the older opponents of their strength goals).
HEURISTIC = {"wizard": "heuristic", "mus": "careful", "durak": "careful", "kaiser": "heuristic",
             "crazy_eights": "heuristic"}
#: The game each speed figure reviews: 4-player Wizard's 15 rounds, one Crazy Eights round, the rest as set up.
SPEED_OPTIONS: dict[str, dict[str, Any]] = {"wizard": {"players": 4}, "crazy_eights": {"rounds": 1}}
ORDER_OPTIONS: dict[str, dict[str, Any]] = {"wizard": {"players": 4, "rounds": 5}, "crazy_eights": {"rounds": 1}}
#: The bot of the "default" role in each game's order: the catalog's ``DEFAULT_BOT`` unless ``--default`` says.
DEFAULT = dict(DEFAULT_BOT)


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


def order(name: str, games: int, jobs: int = 1, first: int = 0) -> dict[str, Any]:
    """Mean loss per decision of seat 0 by random, heuristic and default bot, with 95% intervals."""
    options = ORDER_OPTIONS.get(name, {})
    n = seats(name, options)
    roles = (("random", "random"), ("heuristic", HEURISTIC[name]), ("default", DEFAULT[name]))
    work = [(name, [bot] + [HEURISTIC[name]] * (n - 1), options, g) for _, bot in roles
            for g in range(first, first + games)]
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            losses = list(pool.map(_game_losses, work))
    else:
        losses = [_game_losses(job) for job in work]
    out: dict[str, Any] = {"game": name, "games": games, "first": first}
    for k, (label, bot) in enumerate(roles):
        per_game = losses[k * games:(k + 1) * games]
        mean, half = per_decision_pm95(per_game)
        sums = [sum(game_losses) for game_losses in per_game]
        game_mean = statistics.fmean(sums)
        game_half = 1.96 * statistics.stdev(sums) / math.sqrt(len(sums)) if len(sums) > 1 else 0.0
        out[label] = {"bot": bot, "decisions": sum(map(len, per_game)), "mean_loss": round(mean, 3),
                      "pm95": round(half, 3), "loss_a_game": round(game_mean, 2), "game_pm95": round(game_half, 2)}
    return out


def _game_losses(job: tuple[str, list[str], dict[str, Any], int]) -> list[float]:
    """Seat 0's loss at each of its decisions in game ``g`` of the order (played from seed 500 + g, reviewed
    with seed g): the same figures whichever process works it out."""
    name, bots, options, g = job
    record = play(name, bots, 500 + g, options)
    game = cardtable.load_game(name)
    return [d.loss for d in review_record(game, record, 0, budget=DEFAULT_BUDGET, seed=g).decisions]


def per_decision_pm95(per_game: list[list[float]]) -> tuple[float, float]:
    """The mean loss a decision over all games and the half-width of its 95% interval, games as clusters.

    The mean is a ratio (all losses over all decisions); its standard error comes from each game's
    residual ``sum - mean * count`` (the cluster-robust, delta-method error), since decisions of one game
    are not independent samples.
    """
    total = sum(map(len, per_game))
    if not total:
        return 0.0, 0.0
    mean = sum(map(sum, per_game)) / total
    g = len(per_game)
    if g < 2:
        return mean, 0.0
    residuals = [sum(losses) - mean * len(losses) for losses in per_game]
    variance = g / (g - 1) * sum(r * r for r in residuals) / total**2
    return mean, 1.96 * math.sqrt(variance)


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
    parser.add_argument("--heuristic", action="append", default=[], metavar="GAME=BOT",
                        help="review BOT in the heuristic's place (and as the other seats) in GAME's order")
    parser.add_argument("--default", action="append", default=[], metavar="GAME=BOT",
                        help="review BOT in the default bot's place in GAME's order")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="GAME:KEY=VALUE",
                        help="an option of GAME's order games (e.g. wizard:rounds=all)")
    parser.add_argument("--first", type=int, default=0,
                        help="the order's first game (default 0): --first 96 --games 96 plays games 96-191")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the order's games (default 1)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.jobs < 1 or args.games < 1 or args.first < 0:
        parser.error("--jobs and --games take a count of 1 or more, --first a game number of 0 or more")
    for flag, role in (("--heuristic", HEURISTIC), ("--default", DEFAULT)):
        for pair in getattr(args, flag[2:]):
            game_name, _, bot = pair.partition("=")
            if game_name not in role or not bot:
                parser.error(f"{flag} takes GAME=BOT with GAME one of {', '.join(sorted(role))}, not {pair!r}")
            role[game_name] = bot
    for text in args.option:
        game_name, _, setting = text.partition(":")
        key, eq, value = setting.partition("=")
        if game_name not in HEURISTIC or not key or not eq:
            parser.error(f"-o takes GAME:KEY=VALUE with GAME one of {', '.join(sorted(HEURISTIC))}, not {text!r}")
        try:
            parsed: Any = json.loads(value)
        except ValueError:
            parsed = value
        ORDER_OPTIONS[game_name] = {**ORDER_OPTIONS.get(game_name, {}), key: parsed}
    names = [g for g in args.games_only.split(",") if g] or sorted(HEURISTIC)
    for name in names:
        if name not in HEURISTIC:
            parser.error(f"--games-only takes names of {', '.join(sorted(HEURISTIC))}, not {name!r}")
        if args.part in ("all", "order"):
            game = cardtable.load_game(name)
            try:
                options = game.options(**ORDER_OPTIONS.get(name, {}))
                for bot in (HEURISTIC[name], DEFAULT[name]):
                    make_bot(game, bot, 0, options=options)
            except ValueError as exc:
                parser.error(f"{name}: {exc}")
    results: dict[str, list[dict[str, Any]]] = {}
    for part in ("speed", "order", "budgets"):
        if args.part not in ("all", part):
            continue
        rows = results.setdefault(part, [])
        for name in names:
            if part == "order":
                row = order(name, args.games, args.jobs, args.first)
            else:
                row = speed(name) if part == "speed" else budgets(name)
            rows.append(row)
            if not args.json:
                print(part, json.dumps(row, ensure_ascii=False), flush=True)
    if args.json:
        print(json.dumps(results, ensure_ascii=False))


if __name__ == "__main__":
    main()
