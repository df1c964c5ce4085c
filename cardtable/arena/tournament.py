"""A tournament: its definition, its identity (a hash of what decides the results), running and resuming it.

``run_tournament`` stores every finished game in its own transaction as soon as it is known, in whatever
order the backend finishes them, then computes the standings from the stored games in game order. Run
again with the same definition, it finds the same tournament and plays only the games still missing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardtable.arena.backends import run_tasks
from cardtable.arena.entries import Entry
from cardtable.arena.play import GameResult, GameTask
from cardtable.arena.schedule import PlannedGame, plan
from cardtable.arena.standings import standings
from cardtable.core.game import Game
from cardtable.core.options import options_to_dict
from cardtable.store.tournaments import StoredTournament, TournamentStore


@dataclass(frozen=True)
class Tournament:
    """What decides a tournament's results: game, resolved options, entries, format, games, seed, limits."""

    game: str
    options: Mapping[str, Any]
    entries: tuple[Entry, ...]
    format: str = "round-robin"
    games: int = 10
    seed: int = 1
    timeout: float | None = None
    game_timeout: float | None = None
    max_failures: int | None = None
    units: tuple[tuple[int, ...], ...] = field(default=(), compare=False)

    @property
    def id(self) -> str:
        """The hex SHA-256 of the definition: the same arguments find the same stored tournament."""
        definition = {"game": self.game, "options": dict(self.options), "format": self.format,
                      "games": self.games, "seed": self.seed, "timeout": self.timeout,
                      "game_timeout": self.game_timeout, "max_failures": self.max_failures,
                      "entries": [[e.name, e.spec] for e in self.entries]}
        text = json.dumps(definition, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def schedule(self, salt: str | None = None) -> list[PlannedGame]:
        """Every game: number, deal, seed and seating (``salt``: a live tournament's sealed deals)."""
        return plan(self.format, [e.name for e in self.entries], self.units, self.games, self.seed, salt)

    def task(self, planned: PlannedGame) -> GameTask:
        """The worker's task for one planned game."""
        specs = {e.name: e.spec for e in self.entries}
        return GameTask(planned.index, planned.deal, planned.seed, self.game, dict(self.options), planned.seating,
                        tuple(specs[name] for name in planned.seating), self.timeout, self.game_timeout,
                        self.max_failures)

    def stored(self) -> StoredTournament:
        """The row to insert for a new tournament."""
        from cardtable.store.models import utcnow

        now = utcnow()
        return StoredTournament(self.id, self.game, dict(self.options), self.format, self.games, self.seed,
                                self.timeout, self.game_timeout, self.max_failures, "running",
                                [(e.name, e.spec) for e in self.entries], None, now, now)


def define(game: Game[Any, Any, Any, Any], entries: Sequence[Entry], *, values: Mapping[str, Any] | None = None,
           preset: str | None = None, fmt: str = "round-robin", games: int = 10, seed: int = 1,
           timeout: float | None = None, game_timeout: float | None = None,
           max_failures: int | None = None) -> Tournament:
    """A checked tournament definition (``InvalidOptions`` / ``ValueError`` with one line if it cannot be)."""
    merged = dict(values or {})
    merged.setdefault("players", default_players(game, len(entries)))
    options = game.options(merged, preset=preset)
    units = game.teams(options)
    tournament = Tournament(game.info.name, options_to_dict(options), tuple(entries), fmt, games, seed, timeout,
                            game_timeout, max_failures, tuple(tuple(u) for u in units))
    tournament.schedule()  # raises ValueError for a bad format or number of games
    return tournament


def default_players(game: Game[Any, Any, Any, Any], entries: int) -> int:
    """The default number of seats: one per entry when the game allows it, else the nearest it allows."""
    return max(game.info.min_players, min(game.info.max_players, entries))


def run_tournament(tournament: Tournament, store: TournamentStore, *, workers: int = 1, backend: str = "local",
                   ray_address: str | None = None, on_game: Callable[[GameResult], None] | None = None,
                   on_start: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Play the games not yet stored, storing each as it ends; the results (also stored with the tournament)."""
    store.ensure(tournament.stored())
    done = store.stored_indices(tournament.id)
    missing = [tournament.task(p) for p in tournament.schedule() if p.index not in done]
    if on_start is not None:
        on_start(len(done), tournament.games)
    for result in run_tasks(missing, workers=workers, backend=backend, ray_address=ray_address):
        store.add_game(tournament.id, result.to_json())
        if on_game is not None:
            on_game(result)
    results = results_of(tournament, store)
    store.finish(tournament.id, results)
    return results


def results_of(tournament: Tournament, store: TournamentStore) -> dict[str, Any]:
    """The results of a tournament from its stored games (JSON-ready)."""
    games = [GameResult.from_json(g) for g in store.games(tournament.id, with_records=False)]
    return summary(tournament.id, tournament.game, dict(tournament.options), tournament.format, tournament.games,
                   tournament.seed, [(e.name, e.spec) for e in tournament.entries], games)


def summary(tournament_id: str, game: str, options: dict[str, Any], fmt: str, games: int, seed: int,
            entries: Sequence[tuple[str, str]], results: Sequence[GameResult]) -> dict[str, Any]:
    """The results object: the definition, then standings, head-to-head and ratings."""
    return {"tournament": tournament_id, "game": game, "options": options, "format": fmt, "games": games,
            "seed": seed, "entries": [{"name": n, "spec": s} for n, s in entries], **standings(entries, results)}
