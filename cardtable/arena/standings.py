"""Standings of a tournament, computed from its stored games in game order (never in completion order).

- win share: wins / games, a tie sharing the win; its 95 % interval is the Wilson score interval;
- mean score: the mean over games of the entry's seats' mean score, with a 95 % normal interval
  (mean ± 1.96 standard errors; no interval below two games);
- ratings: openskill's Plackett–Luce model, one rating per entry, updated game by game in game order:
  the winners share the first place, the other entries follow by score, an entry that forfeited last;
- head-to-head: for each pair of entries that met, the share of those games in which the first placed
  ahead of the second (a tie counts one half).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cardtable.arena.play import FINISHED, GameResult

Z95 = 1.959963984540054
INTERVALS = {"win_share": "Wilson score interval, 95 %", "mean_score": "normal approximation, 95 %"}


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``successes`` may be fractional: shared wins)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float] | None:
    """The normal-approximation interval of a mean; ``None`` with fewer than two values."""
    n = len(values)
    if n < 2:
        return None
    mean = sum(values) / n
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(variance / n)
    return (mean - half, mean + half)


def places(result: GameResult) -> dict[str, int]:
    """Each entry's place in a finished game: 1 for the winners, then by score (equal scores share a place);
    an entry that forfeited comes last, whatever its score."""
    assert result.scores is not None and result.winners is not None
    seats: dict[str, list[int]] = {}
    for seat, name in enumerate(result.seating):
        seats.setdefault(name, []).append(seat)
    scores = {name: sum(result.scores[s] for s in ss) / len(ss) for name, ss in seats.items()}
    winners = {name for name, ss in seats.items() if any(s in result.winners for s in ss)}
    forfeits = {name for name, ss in seats.items() if any(s in result.forfeited for s in ss)} - winners
    others = sorted({scores[n] for n in seats if n not in winners and n not in forfeits}, reverse=True)
    return {name: 1 if name in winners else 2 + len(others) if name in forfeits else 2 + others.index(scores[name])
            for name in seats}


@dataclass
class _Tally:
    games: int = 0
    wins: float = 0.0
    scores: list[float] = field(default_factory=list)
    failures: dict[str, int] = field(default_factory=dict)
    forfeits: int = 0
    error_games: int = 0


def standings(entries: Sequence[tuple[str, str]], results: Sequence[GameResult]) -> dict[str, Any]:
    """Standings, head-to-head and ratings of ``entries`` (name, spec) from game results (any order)."""
    ordered = sorted(results, key=lambda r: r.index)
    tallies = {name: _Tally() for name, _ in entries}
    for result in ordered:
        _count(result, tallies)
    ratings, _history = rate(entries, ordered)
    table: dict[str, dict[str, Any]] = {}
    for name, spec in entries:
        t = tallies[name]
        mean = sum(t.scores) / len(t.scores) if t.scores else 0.0
        table[name] = {
            "spec": spec,
            "games": t.games,
            "wins": round(t.wins, 6),
            "win_share": round(t.wins / t.games, 6) if t.games else 0.0,
            "win_share_ci": [round(x, 6) for x in wilson_interval(t.wins, t.games)],
            "mean_score": round(mean, 6),
            "mean_score_ci": _rounded(mean_interval(t.scores)),
            "failures": dict(sorted(t.failures.items())),
            "forfeits": t.forfeits,
            "error_games": t.error_games,
            "rating": ratings[name],
        }
    return {
        "played": sum(1 for r in ordered if r.status == FINISHED),
        "errors": [{"game": r.index, "error": (r.error or "").splitlines()[0] if r.error else ""}
                   for r in ordered if r.status != FINISHED],
        "intervals": INTERVALS,
        "rating_model": "openskill PlackettLuce (mu, sigma; ordinal = mu - 3 sigma)",
        "standings": table,
        "ranking": sorted(table, key=lambda n: (-table[n]["rating"]["ordinal"], n)),
        "head_to_head": head_to_head([name for name, _ in entries], ordered),
    }


def _rounded(interval: tuple[float, float] | None) -> list[float] | None:
    return None if interval is None else [round(x, 6) for x in interval]


def _count(result: GameResult, tallies: dict[str, _Tally]) -> None:
    names = list(dict.fromkeys(result.seating))
    for seat, kinds in result.failures.items():
        tally = tallies[result.seating[seat]]
        for kind, n in kinds.items():
            tally.failures[kind] = tally.failures.get(kind, 0) + n
    for seat in result.forfeited:
        tallies[result.seating[seat]].forfeits += 1
    if result.status != FINISHED or result.scores is None or result.winners is None:
        for name in names:
            tallies[name].error_games += 1
        return
    share = 1.0 / len(result.winners) if result.winners else 0.0
    for name in names:
        seats = [s for s, n in enumerate(result.seating) if n == name]
        tally = tallies[name]
        tally.games += 1
        tally.wins += share * sum(1 for s in seats if s in result.winners)
        tally.scores.append(sum(result.scores[s] for s in seats) / len(seats))


def head_to_head(names: Sequence[str], results: Sequence[GameResult]) -> dict[str, dict[str, dict[str, Any]]]:
    """``table[a][b]``: games in which a and b met, a's points against b (ahead 1, tie ½) and their share."""
    points = {a: {b: [0, 0.0] for b in names if b != a} for a in names}
    for result in results:
        if result.status != FINISHED or result.scores is None:
            continue
        place = places(result)
        for a in place:
            for b in place:
                if a != b:
                    cell = points[a][b]
                    cell[0] += 1
                    cell[1] += 1.0 if place[a] < place[b] else 0.5 if place[a] == place[b] else 0.0
    return {a: {b: {"games": int(g), "wins": round(w, 6), "share": round(w / g, 6) if g else None}
                for b, (g, w) in row.items()} for a, row in points.items()}


def rate(entries: Sequence[tuple[str, str]], results: Sequence[GameResult]
         ) -> tuple[dict[str, dict[str, float]], list[dict[str, Any]]]:
    """Final openskill ratings per entry and the ordinals after each finished game, in game order."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = {name: model.rating(name=name) for name, _ in entries}
    history: list[dict[str, Any]] = []
    for result in sorted(results, key=lambda r: r.index):
        if result.status != FINISHED or result.scores is None:
            continue
        place = places(result)
        if len(place) < 2:
            continue
        names = list(place)
        rated = model.rate([[current[n]] for n in names], ranks=[float(place[n]) for n in names])
        for name, team in zip(names, rated):
            current[name] = team[0]
        history.append({"game": result.index,
                        "ordinal": {n: round(current[n].ordinal(), 6) for n, _ in entries}})
    final = {n: {"mu": round(r.mu, 6), "sigma": round(r.sigma, 6), "ordinal": round(r.ordinal(), 6)}
             for n, r in current.items()}
    return final, history
