"""Self-play: many games between named bots, with per-bot results.

Seats rotate between games (game g puts ``bots[(s + g) % n]`` in seat s), so no
bot keeps the dealer's or the first player's advantage. Results of one bot name
are aggregated over its seats: games, wins (a tie shares the win), mean score,
and every counter and rate the game adds through ``seat_stats``.

Failures are never hidden: every decision the fallback made for a bot is counted
under its kind (``failures: {kind: count}``, kinds from
:data:`cardtable.runner.FAILURE_KINDS`), ``forfeits`` counts the games a bot was
forfeited in (it then counts as a loss), and a game that stopped in ERROR is
listed under ``errors`` with its seed and reason.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from cardtable.bots import make_bot
from cardtable.core.bot import BotFactory
from cardtable.core.game import Game
from cardtable.core.options import options_to_dict
from cardtable.runner import FAILURE_KINDS, GameRunner, RunnerStatus


@dataclass
class BotTally:
    """Running totals for one bot name."""

    seats: int = 0
    games: int = 0
    wins: float = 0.0
    score_sum: float = 0.0
    score_squares: float = 0.0
    seat_games: int = 0
    counters: dict[str, float] = field(default_factory=dict)
    failures: dict[str, int] = field(default_factory=dict)
    forfeits: int = 0


def game_seeds(seed: int, count: int) -> list[int]:
    """The deal seed of each game of a self-play run, derived from the run's seed."""
    rng = random.Random(seed)
    return [rng.randrange(2**31) for _ in range(count)]


def selfplay(
    game: Game[Any, Any, Any, Any],
    bots: Sequence[str],
    *,
    games: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    preset: str | None = None,
    on_game: Callable[[int], None] | None = None,
    timeout: float | None = None,
    game_timeout: float | None = None,
    max_failures: int | None = None,
    factories: Mapping[str, BotFactory] | None = None,
) -> dict[str, Any]:
    """Play ``games`` games with one bot name per seat; the results as JSON-ready data.

    ``timeout``, ``game_timeout`` and ``max_failures`` go to every :class:`GameRunner`;
    ``factories`` adds bots by name to the game's own.
    """
    opts = game.options(options or {}, preset=preset, players=len(bots))
    known = {name: _factory(game, name, factories or {}, opts) for name in dict.fromkeys(bots)}
    tallies: dict[str, BotTally] = {name: BotTally() for name in dict.fromkeys(bots)}
    for name in tallies:
        tallies[name].seats = sum(1 for b in bots if b == name)
    errors: list[str] = []
    for g, game_seed in enumerate(game_seeds(seed, games)):
        seating = [bots[(s + g) % len(bots)] for s in range(len(bots))]
        agents = [known[name](game_seed + 7919 * s) for s, name in enumerate(seating)]
        with GameRunner(game, opts, game_seed, agents, timeout=timeout, game_timeout=game_timeout,
                        max_failures=max_failures) as runner:
            outcome = runner.run()
        _count_failures(runner, seating, tallies)
        if runner.status is not RunnerStatus.FINISHED or outcome is None:
            reason = (runner.error or "stopped").strip().splitlines()[0]
            errors.append(f"game {g} (seed {game_seed}): {reason}")
        else:
            _tally(game, runner.state, outcome, seating, tallies)
        if on_game is not None:
            on_game(g)
    return {
        "game": game.info.name,
        "players": len(bots),
        "games": games,
        "seed": seed,
        "options": options_to_dict(opts),
        "bots": {name: _summary(game, t) for name, t in tallies.items()},
        "errors": errors,
    }


def _count_failures(runner: GameRunner, seating: list[str], tallies: dict[str, BotTally]) -> None:
    for seat, kinds in runner.failures_by_seat().items():
        t = tallies[seating[seat]]
        for kind, count in kinds.items():
            t.failures[kind] = t.failures.get(kind, 0) + count
    for seat in runner.forfeited:
        tallies[seating[seat]].forfeits += 1


def _tally(game: Game[Any, Any, Any, Any], state: Any, outcome: Any, seating: list[str],
           tallies: dict[str, BotTally]) -> None:
    stats = game.seat_stats(state)
    for name in dict.fromkeys(seating):
        tallies[name].games += 1
    for seat, name in enumerate(seating):
        t = tallies[name]
        t.wins += outcome.win_share(seat)
        t.score_sum += outcome.scores[seat]
        t.score_squares += outcome.scores[seat] ** 2
        t.seat_games += 1
        for key, value in stats[seat].items():
            t.counters[key] = t.counters.get(key, 0.0) + value


def _summary(game: Game[Any, Any, Any, Any], t: BotTally) -> dict[str, Any]:
    out: dict[str, Any] = {k: round(v, 6) for k, v in t.counters.items()}
    out.update({
        "seats": t.seats,
        "games": t.games,
        "wins": round(t.wins, 6),
        "win_share": round(t.wins / t.games, 6) if t.games else 0.0,
        "mean_score": round(t.score_sum / t.seat_games, 6) if t.seat_games else 0.0,
        "seat_games": t.seat_games,
        "score_sd": round(_sample_sd(t), 6),
        "failures": {kind: t.failures[kind] for kind in FAILURE_KINDS if kind in t.failures},
        "forfeits": t.forfeits,
    })
    for rate, (num, den) in game.stat_rates.items():
        denominator = t.counters.get(den, 0.0)
        out[rate] = round(t.counters.get(num, 0.0) / denominator, 6) if denominator else 0.0
    return out


def _sample_sd(t: BotTally) -> float:
    """The sample standard deviation of the bot's scores over its seat-games (0 with fewer than two)."""
    n = t.seat_games
    if n < 2:
        return 0.0
    variance = (t.score_squares - t.score_sum * t.score_sum / n) / (n - 1)
    return float(max(variance, 0.0) ** 0.5)


def _factory(game: Game[Any, Any, Any, Any], name: str, extra: Mapping[str, BotFactory], options: Any) -> BotFactory:
    """The factory of a bot name (options after colons allowed: ``search:sims=400``); ValueError if unknown
    or if the bot does not play these options (a learned net trained for others)."""
    if name in extra:
        return extra[name]
    make_bot(game, name, options=options)  # a known name with valid options, or a one-line ValueError
    return partial(make_bot, game, name)
