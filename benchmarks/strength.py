"""How strong the computer players are: matches between named bots, with 95 % intervals.

For each matchup (a game, its options and one bot name per seat) it plays ``--games`` games per seed,
seats rotating between games (game g puts ``lineup[(s + g) % n]`` in seat s), deals drawn from each
seed, and prints per bot name, pooled over every seed: games, win share (a tie shares the win; several
seats of one name count together) with a Wilson 95 % interval, the game's own rates (exact bids,
contracts made, ...) with intervals, and the median and 99th percentile of its decision time.

    python benchmarks/strength.py                      # every matchup, small samples
    python benchmarks/strength.py --game wizard --games 100 --json
    python benchmarks/strength.py --game crazy_eights --lineup search heuristic heuristic heuristic \
        --games 50 --seeds 11-24 --jobs 2 --out /tmp/c8.jsonl   # 700 games pooled; raw lines per seed
    nice python benchmarks/strength.py --list          # the matchups

Search bots use simulation budgets, so a run is reproducible apart from the timings. Nothing is written
unless ``--out`` names a file (one JSON line per matchup and seed, for the record).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import cardtable
from cardtable.bots import make_bot


@dataclass(frozen=True)
class Matchup:
    """One line-up to measure: ``lineup[s]`` is the bot name in seat s before rotation."""

    game: str
    lineup: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    note: str = ""

    @property
    def key(self) -> str:
        """A short name: game, options and line-up."""
        opts = ",".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.game}[{opts}] {' '.join(self.lineup)}"


MATCHUPS: list[Matchup] = [
    # Wizard: the goals (4 and 6 players, all rounds), exact bids in self-play.
    Matchup("wizard", ("search", "heuristic", "heuristic", "heuristic"), note="goal: search ≥ 35 %"),
    Matchup("wizard", ("search", "heuristic", "heuristic", "heuristic", "heuristic", "heuristic"),
            {"players": 6}, note="goal: search ≥ 25 %"),
    Matchup("wizard", ("search",) * 4, note="goal: exact bids ≥ 66 % in self-play"),
    Matchup("wizard", ("search", "lowest", "lowest", "lowest"), note="search vs a baseline"),
    Matchup("wizard", ("search", "chase_duck", "chase_duck", "chase_duck"), note="search vs a baseline"),
    Matchup("wizard", ("search_quick", "heuristic", "heuristic", "heuristic"), note="the quick search"),
    Matchup("wizard", ("heuristic", "lowest", "lowest", "lowest"), note="heuristic vs a baseline"),
    Matchup("wizard", ("chase_duck", "heuristic", "heuristic", "heuristic", "heuristic", "heuristic"),
            {"players": 6}, note="the chase-or-duck baseline alone against five heuristics"),
    # Mus: pairs are seats 0+2 and 1+3.
    Matchup("mus", ("reader", "simple", "reader", "simple"), note="goal: ≥ 60 %"),
    Matchup("mus", ("reader", "counting", "reader", "counting"), note="goal: ≥ 60 %"),
    Matchup("mus", ("reader", "careful", "reader", "careful"), note="the new pair vs the previous best heuristic"),
    Matchup("mus", ("reader", "search", "reader", "search"), note="the new pair vs the showdown search"),
    Matchup("mus", ("search", "simple", "search", "simple"), note="the showdown search vs simple"),
    Matchup("mus", ("search", "counting", "search", "counting"), note="the showdown search vs the baseline"),
    Matchup("mus", ("careful", "simple", "careful", "simple"), note="careful vs simple"),
    Matchup("mus", ("careful", "counting", "careful", "counting"), note="careful vs the baseline"),
    Matchup("mus", ("counting", "simple", "counting", "simple"), note="the count-based baseline vs simple"),
    # Durak heads-up.
    Matchup("durak", ("search", "heuristic"), note="goal: ≥ 60 %"),
    Matchup("durak", ("search_quick", "heuristic"), note="the quick search vs the old heuristic"),
    Matchup("durak", ("endgame", "heuristic"), note="the endgame reader vs the old heuristic: interval above 0.5"),
    Matchup("durak", ("endgame", "lowest"), note="the endgame reader vs the baseline: interval above 0.5"),
    Matchup("durak", ("endgame", "search_quick"), note="the endgame reader vs the quick search"),
    Matchup("durak", ("search", "endgame"), note="the search vs the endgame reader"),
    Matchup("durak", ("careful", "heuristic"), note="new heuristic vs old"),
    Matchup("durak", ("careful", "lowest"), note="new heuristic vs the baseline"),
    Matchup("durak", ("heuristic", "lowest"), note="old heuristic vs the baseline"),
    # Crazy Eights, 1 vs 3.
    Matchup("crazy_eights", ("search", "heuristic", "heuristic", "heuristic"),
            note="goal: ≥ 35 % (the particle search, the default)"),
    Matchup("crazy_eights", ("search_quick", "heuristic", "heuristic", "heuristic"), note="the quick particle search"),
    Matchup("crazy_eights", ("search", "random", "random", "random"),
            note="the particle search vs players its reading does not model"),
    Matchup("crazy_eights", ("heuristic", "first", "first", "first"), note="the heuristic vs the baseline"),
    # Kaiser pairs.
    Matchup("kaiser", ("search", "heuristic", "search", "heuristic"), note="goal: ≥ 60 %"),
    Matchup("kaiser", ("search_quick", "heuristic", "search_quick", "heuristic"), note="the quick search"),
    Matchup("kaiser", ("search", "random", "search", "random"), note="search vs the random baseline"),
    Matchup("kaiser", ("heuristic", "random", "heuristic", "random"), note="heuristic vs the random baseline"),
    Matchup("kaiser", ("search", "lowest", "search", "lowest"), note="search vs the count-and-lowest baseline"),
    Matchup("kaiser", ("heuristic", "lowest", "heuristic", "lowest"),
            note="heuristic vs the count-and-lowest baseline"),
    Matchup("kaiser", ("lowest", "random", "lowest", "random"), note="the baseline vs random"),
]


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (ties count as fractional successes)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_game(game: Any, opts: Any, deal: int, seating: list[str]) -> tuple[Any, Any, list[list[float]]]:
    """One game of ``seating`` (bot names by seat, seeded from the deal): the final state, the outcome
    and each seat's decision times in seconds."""
    bots = [make_bot(game, name, deal + 7919 * s) for s, name in enumerate(seating)]
    state, _ = game.new(opts, deal)
    times: list[list[float]] = [[] for _ in seating]
    while (seat := game.to_act(state)) is not None:
        obs = game.observe(state, seat)
        legal = game.legal_actions(state, seat)
        start = time.perf_counter()
        action = bots[seat].act(obs, legal)
        times[seat].append(time.perf_counter() - start)
        state, _ = game.apply(state, seat, action)
    outcome = game.outcome(state)
    assert outcome is not None
    return state, outcome, times


def _counts() -> defaultdict[str, float]:
    return defaultdict(float)


@dataclass
class Tally:
    """What the games of one matchup added up to: wins, the game's counters, decision times, scores."""

    games: int = 0
    wins: dict[str, float] = field(default_factory=partial(defaultdict, float))
    counters: dict[str, dict[str, float]] = field(default_factory=partial(defaultdict, _counts))
    times: dict[str, list[float]] = field(default_factory=partial(defaultdict, list))
    scores: dict[str, list[float]] = field(default_factory=partial(defaultdict, list))

    def add(self, other: Tally) -> None:
        """Pool ``other`` into this tally (the games of another seed)."""
        self.games += other.games
        for name, w in other.wins.items():
            self.wins[name] += w
        for name, counts in other.counters.items():
            for key, value in counts.items():
                self.counters[name][key] += value
        for name, spent in other.times.items():
            self.times[name].extend(spent)
        for name, xs in other.scores.items():
            self.scores[name].extend(xs)


def play_matchup(m: Matchup, games: int, seed: int, *, progress: bool = False) -> dict[str, Any]:
    """Play the games of one matchup from one seed; per-bot wins, rates and decision times as data."""
    return summary(m, tally_matchup(m, games, seed, progress=progress))


def tally_matchup(m: Matchup, games: int, seed: int, *, progress: bool = False) -> Tally:
    """Play ``games`` games of ``m`` with deals drawn from ``seed`` and add them up."""
    game = cardtable.load_game(m.game)
    n = len(m.lineup)
    opts = game.options(m.options, players=n)
    teams = game.teams(opts)
    tally = Tally(games=games)
    wins, counters, times, scores = tally.wins, tally.counters, tally.times, tally.scores
    rng = random.Random(seed)
    for g in range(games):
        deal = rng.randrange(2**31)
        seating = [m.lineup[(s + g) % n] for s in range(n)]
        state, outcome, seat_times = play_game(game, opts, deal, seating)
        for seat, spent in enumerate(seat_times):
            times[seating[seat]].extend(spent)
        # A name's share of the game: a tie shares the win; a team's win counts once for the team.
        credited: set[int] = set()
        for seat, name in enumerate(seating):
            team = next(t for t in teams if seat in t)
            if seat in outcome.winners and min(team) not in credited:
                credited.add(min(team))
                wins[name] += 1.0 / len({min(next(t for t in teams if w in t)) for w in outcome.winners})
        for seat, score in enumerate(outcome.scores):
            scores[seating[seat]].append(score)
        for seat, stats in enumerate(game.seat_stats(state)):
            for key, value in stats.items():
                counters[seating[seat]][key] += value
        if progress:
            print(f"  {m.key}: game {g + 1}/{games}", file=sys.stderr, end="\r")
    return tally


def summary(m: Matchup, tally: Tally, seeds: list[int] | None = None) -> dict[str, Any]:
    """The figures of a matchup as JSON-ready data."""
    game = cardtable.load_game(m.game)
    games, wins, counters, times, scores = tally.games, tally.wins, tally.counters, tally.times, tally.scores
    bots: dict[str, Any] = {}
    for name in dict.fromkeys(m.lineup):
        low, high = wilson(wins[name], games)
        entry: dict[str, Any] = {"seats": m.lineup.count(name), "games": games,
                                 "win_share": round(wins[name] / games, 4), "ci95": [round(low, 4), round(high, 4)]}
        for rate, (num, den) in game.stat_rates.items():
            d = counters[name].get(den, 0.0)
            x = counters[name].get(num, 0.0)
            if d and 0 <= x <= d:  # a proportion: Wilson interval (means such as penalty per round: none)
                lo, hi = wilson(x, int(d))
                entry[rate] = {"rate": round(x / d, 4), "ci95": [round(lo, 4), round(hi, 4)], "n": int(d)}
        xs = scores[name]
        if len(xs) > 1:
            half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))
            entry["mean_score"] = {"mean": round(statistics.fmean(xs), 2), "ci95_half": round(half, 2)}
        ts = sorted(times[name])
        if ts:
            entry["decision_ms"] = {"median": round(1000 * statistics.median(ts), 2),
                                    "p99": round(1000 * ts[min(len(ts) - 1, int(0.99 * len(ts)))], 2),
                                    "decisions": len(ts)}
        bots[name] = entry
    out = {"matchup": m.key, "game": m.game, "options": m.options, "lineup": list(m.lineup), "note": m.note,
           "games": games, "bots": bots}
    if seeds is not None:
        out["seeds"] = seeds
    return out


def parse_seeds(text: str) -> list[int]:
    """``"11-24"``, ``"3"`` or ``"1,5,9-11"`` -> the seeds, in order; ``ValueError`` if malformed."""
    seeds: list[int] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        first, dash, last = part.partition("-")
        low, high = int(first), int(last) if dash else int(first)
        if high < low:
            raise ValueError(f"seed range {part!r} runs backwards")
        seeds.extend(range(low, high + 1))
    if not seeds:
        raise ValueError(f"no seeds in {text!r}")
    return seeds


def _option_pair(text: str) -> tuple[str, str]:
    key, eq, value = text.partition("=")
    if not eq or not key.strip():
        raise ValueError(f"option {text!r} is not KEY=VALUE")
    return key.strip(), value.strip()


def check_matchup(m: Matchup) -> None:
    """Refuse an unknown game, bad options or an unknown bot before any game is played (one-line errors)."""
    game = cardtable.load_game(m.game)
    game.options(m.options, players=len(m.lineup))
    for name in dict.fromkeys(m.lineup):
        make_bot(game, name, 0)


def _seed_run(job: tuple[Matchup, int, int]) -> tuple[int, Tally]:
    m, games, seed = job
    return seed, tally_matchup(m, games, seed)


def run_matchup(m: Matchup, games: int, seeds: list[int], *, jobs: int = 1, progress: bool = False,
                out: Any = None) -> dict[str, Any]:
    """``games`` games per seed, pooled; each seed's own figures written as a JSON line to ``out`` if given."""
    pooled = Tally()
    work = [(m, games, seed) for seed in seeds]
    if jobs > 1 and len(seeds) > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(_seed_run, work))
    else:
        results = [(seed, tally_matchup(m, games, seed, progress=progress)) for _, _, seed in work]
    for seed, tally in results:
        if out is not None:
            out.write(json.dumps(summary(m, tally, [seed])) + "\n")
        pooled.add(tally)
    return summary(m, pooled, seeds)


def _print(result: dict[str, Any]) -> None:
    seeds = result.get("seeds", [])
    runs = f" from {len(seeds)} seeds ({seeds[0]}–{seeds[-1]})" if len(seeds) > 1 else ""
    print(f"{result['matchup']}  ({result['games']} games{runs}; {result['note']})")
    for name, e in result["bots"].items():
        rates = "  ".join(f"{k} {v['rate']:.3f} [{v['ci95'][0]:.3f}, {v['ci95'][1]:.3f}] of {v['n']}"
                          for k, v in e.items() if isinstance(v, dict) and "rate" in v)
        timing = e.get("decision_ms")
        if "mean_score" in e:
            rates += f"  mean score {e['mean_score']['mean']} ± {e['mean_score']['ci95_half']}"
        when = f"  decision median {timing['median']} ms, p99 {timing['p99']} ms" if timing else ""
        print(f"  {name:<10} seats {e['seats']}  win share {e['win_share']:.3f} "
              f"[{e['ci95'][0]:.3f}, {e['ci95'][1]:.3f}]  {rates}{when}")
    sys.stdout.flush()


def main(argv: list[str] | None = None) -> None:
    """Run the matchups chosen on the command line and print their figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", help="only this game's matchups")
    parser.add_argument("--match", help="only matchups whose key contains this text")
    parser.add_argument("--games", type=int, default=20, help="games per matchup (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the deals (default 1)")
    parser.add_argument("--seeds", help="several seeds, pooled: 11-24 or 1,5,9-11 (instead of --seed)")
    parser.add_argument("--jobs", type=int, default=1, help="seeds played in parallel processes (default 1)")
    parser.add_argument("--out", help="append each seed's figures as a JSON line to this file")
    parser.add_argument("--json", action="store_true", help="one JSON object per matchup")
    parser.add_argument("--list", action="store_true", help="list the matchups and stop")
    parser.add_argument("--lineup", nargs="+", metavar="BOT",
                        help="play this line-up of --game instead (bot names with options, one per seat)")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                        help="override a game option in every chosen matchup (e.g. rounds=5)")
    args = parser.parse_args(argv)
    if args.lineup and not args.game:
        parser.error("--lineup needs --game")
    given = [Matchup(args.game, tuple(args.lineup), note="a line-up given on the command line")] if args.lineup else []
    pool = given or MATCHUPS
    chosen = [m for m in pool if (not args.game or m.game == args.game) and (not args.match or args.match in m.key)]
    if args.list:
        for m in chosen:
            print(m.key, "—", m.note)
        return
    try:
        overrides = dict(_option_pair(o) for o in args.option)
        chosen = [Matchup(m.game, m.lineup, {**m.options, **overrides}, m.note) for m in chosen]
        for m in chosen:
            check_matchup(m)
        seeds = parse_seeds(args.seeds) if args.seeds else [args.seed]
    except (KeyError, ValueError) as exc:  # InvalidOptions and a bad bot name are ValueErrors
        parser.error(str(exc.args[0]) if isinstance(exc, KeyError) else str(exc))
    out = open(args.out, "a", encoding="utf-8") if args.out else None  # noqa: SIM115  (closed below)
    try:
        for m in chosen:
            result = run_matchup(m, args.games, seeds, jobs=args.jobs, out=out,
                                 progress=not args.json and sys.stderr.isatty())
            print(json.dumps(result)) if args.json else _print(result)
    finally:
        if out is not None:
            out.close()


if __name__ == "__main__":
    main()
