"""``cardtable arena``: a tournament between bots, stored in the database, resumable, on one or more cores."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from cardtable.cli.common import renamed
from cardtable.store import DATABASE_URL_ENV, DEFAULT_DATABASE_URL

console = Console()
err = Console(stderr=True)


def _fail(message: str) -> typer.Exit:
    """Print a one-line error; the exit (status 2) to raise."""
    err.print(f"error: {message}", markup=False, highlight=False, soft_wrap=True, emoji=False)
    return typer.Exit(2)


class RateColumn(ProgressColumn):
    """Games per second of this run."""

    def render(self, task: Task) -> Text:
        """The rate, once there is one."""
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:.1f} games/s")


def arena(
    game_name: Annotated[str, typer.Argument(
        metavar="GAME", help="Game name, e.g. wizard; or 'verify' to check a finished live tournament's deals.")],
    source: Annotated[str | None, typer.Argument(
        metavar="[SOURCE]", help="With 'verify': the tournament's address on a server, a JSON file of what "
                                 "GET /api/tournaments/ID answered, or a tournament id in --database-url.")] = None,
    bot: Annotated[list[str] | None, typer.Option(
        "--bot", help="An entry, repeated: NAME=SPEC (SPEC: a built-in bot or exec:COMMAND), or a built-in bot "
                      "name alone.")] = None,
    games: Annotated[int, typer.Option(help="Number of games.")] = 20,
    fmt: Annotated[str, typer.Option("--format", help="round-robin or duplicate.")] = "round-robin",
    workers: Annotated[int, typer.Option(help="Local worker processes (local backend).")] = 1,
    backend: Annotated[str, typer.Option(help="local or ray.")] = "local",
    ray_address: Annotated[str | None, typer.Option(
        "--ray-address", help="Ray cluster address (default: a local instance with 2 CPUs).")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the whole tournament.")] = 1,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="Game option KEY=VALUE.")] = None,
    preset: Annotated[str | None, typer.Option(help="Named rule preset.")] = None,
    decision_time: Annotated[float | None, typer.Option(
        "--decision-time", metavar="SECONDS",
        help="Seconds per decision before the fallback plays (default: none for built-in bots; external "
             "bots keep their sandbox's limit).")] = None,
    game_time: Annotated[float | None, typer.Option(
        "--game-time", metavar="SECONDS", help="Seconds of thinking per seat over a whole game.")] = None,
    max_failures: Annotated[int | None, typer.Option(
        "--max-failures", help="Failures after which a bot forfeits the game.")] = None,
    database_url: Annotated[str | None, typer.Option(
        "--database-url", envvar=DATABASE_URL_ENV, help=f"SQLAlchemy database URL (default {DEFAULT_DATABASE_URL}).")]
    = None,
    report: Annotated[Path | None, typer.Option(help="Write a static HTML report into this directory.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    server: Annotated[str | None, typer.Option(
        "--server", help="Play the games as live tables on this server (entries: built-in bots or "
                         "NAME=remote:ACCOUNT, bots connected with bot-connect); needs --token-file.")] = None,
    token_file: Annotated[Path | None, typer.Option(
        "--token-file", help="With --server: the file holding an admin bot account's token.")] = None,
    concurrency: Annotated[int, typer.Option(help="With --server: games played at once.", min=1, max=32)] = 2,
    timeout: Annotated[float | None, typer.Option("--timeout", hidden=True)] = None,
    game_timeout: Annotated[float | None, typer.Option("--game-timeout", hidden=True)] = None,
) -> None:
    """Play a tournament between bots; rerun the same command to resume a killed run.

    ``cardtable arena verify SOURCE`` checks instead that a finished live tournament's deals were sealed: fixed
    before it started (docs/arena.md)."""
    from sqlalchemy.exc import SQLAlchemyError

    from cardtable.arena.tournament import run_tournament

    if game_name == "verify":
        from cardtable.cli.verify import verify_command

        verify_command(source, database_url, open_store)
        return
    if source is not None:
        raise _fail(f"unexpected argument {source!r}: arena takes one GAME (or: arena verify SOURCE)")
    if not bot:
        raise _fail("give the entries with --bot NAME=SPEC, at least two")

    if server is not None:
        from cardtable.cli.live_arena import run_on_server

        results = run_on_server(server, token_file, game_name, bot, option or [], preset, fmt, games, seed,
                                concurrency)
        typer.echo(json.dumps(results, ensure_ascii=False)) if as_json else show(results)
        return

    timeout = renamed("--timeout", "--decision-time", timeout, decision_time)
    game_timeout = renamed("--game-timeout", "--game-time", game_timeout, game_time)
    _check_flags(backend, ray_address, workers, max_failures, timeout, game_timeout, report)
    tournament = _define(game_name, bot, option or [], preset, fmt, games, seed, timeout, game_timeout,
                         max_failures)
    if backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise _fail("the ray backend needs Ray: pip install 'cardtable[ray]'") from None
    store = open_store(database_url)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), RateColumn(),
                  TimeRemainingColumn(), console=err, disable=not sys.stderr.isatty(), transient=True) as progress:
        task = progress.add_task(f"{game_name} arena", total=tournament.games)
        try:
            results = run_tournament(
                tournament, store, workers=workers, backend=backend, ray_address=ray_address,
                on_start=lambda done, _total: progress.update(task, completed=done),
                on_game=lambda _result: progress.advance(task))
        except KeyboardInterrupt:
            raise _fail("interrupted; the games played so far are stored: run the same command to resume") from None
        except SQLAlchemyError as exc:
            reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
            raise _fail(f"the database failed ({reason}); the games stored before are kept: "
                        "run the same command to resume") from None
    if report is not None:
        from cardtable.arena.report import write_report

        try:
            write_report(report, results, store.games(tournament.id, with_records=False))
        except OSError as exc:
            raise _fail(f"cannot write the report into {report}: {exc}") from None
    if as_json:
        typer.echo(json.dumps(results, ensure_ascii=False))
        return
    show(results)
    if report is not None:
        console.print(f"report: {report / 'index.html'}", highlight=False)


def _check_flags(backend: str, ray_address: str | None, workers: int, max_failures: int | None,
                 timeout: float | None, game_timeout: float | None, report: Path | None) -> None:
    """A one-line exit for flags that cannot work, before anything is written."""
    from cardtable.arena.backends import BACKENDS

    if backend not in BACKENDS:
        raise _fail(f"--backend {backend!r}: use one of {', '.join(BACKENDS)}")
    if ray_address is not None and backend != "ray":
        raise _fail("--ray-address needs --backend ray")
    if backend == "ray" and workers != 1:
        raise _fail("--workers is for the local backend; with Ray every CPU of the cluster plays")
    for flag, value, least in (("--workers", workers, 1), ("--max-failures", max_failures, 0)):
        if value is not None and value < least:
            raise _fail(f"{flag} must be at least {least}, not {value}")
    for flag, seconds in (("--decision-time", timeout), ("--game-time", game_timeout)):
        if seconds is not None and not seconds > 0:
            raise _fail(f"{flag} must be a positive number of seconds, not {seconds}")
    if report is not None and report.exists() and not report.is_dir():
        raise _fail(f"--report {report}: not a directory")
    if report is not None:
        try:
            import matplotlib  # noqa: F401  (the report's ratings plot)
        except ImportError:
            raise _fail("--report draws its plot with matplotlib: pip install 'cardtable[report]'") from None


def _define(game_name: str, bots: list[str], pairs: list[str], preset: str | None, fmt: str, games: int,
            seed: int, timeout: float | None, game_timeout: float | None, max_failures: int | None) -> Any:
    """The checked tournament, or a one-line exit; nothing is written before this passes."""
    import cardtable
    from cardtable.arena.entries import check_entries, parse_entry
    from cardtable.arena.tournament import default_players, define
    from cardtable.core.errors import InvalidOptions

    try:
        game = cardtable.load_game(game_name)
    except KeyError as exc:
        raise _fail(str(exc.args[0])) from None
    values: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise _fail(f"option {pair!r} is not KEY=VALUE")
        values[key.strip()] = value.strip()
    try:
        entries = [parse_entry(text) for text in bots]
        options = game.options({"players": default_players(game, len(entries)), **values}, preset=preset)
        entries = check_entries(game, options, entries)
        return define(game, entries, values=values, preset=preset, fmt=fmt, games=games, seed=seed,
                      timeout=timeout, game_timeout=game_timeout, max_failures=max_failures)
    except (InvalidOptions, ValueError) as exc:
        raise _fail(str(exc).splitlines()[0]) from None


def open_store(database_url: str | None) -> Any:
    """The tournament store on ``database_url``, or a one-line exit if the database cannot be opened."""
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from cardtable.store import Store
    from cardtable.store.tournaments import TournamentStore

    try:
        return TournamentStore(Store(database_url).engine)
    except ArgumentError:
        raise _fail(f"--database-url {database_url!r} is not a SQLAlchemy database URL") from None
    except ImportError as exc:
        raise _fail(f"the database driver is not installed ({exc.name}); for PostgreSQL: "
                    "pip install 'cardtable[postgres]'") from None
    except SQLAlchemyError as exc:
        raise _fail(f"cannot open the database: {str(getattr(exc, 'orig', None) or exc).splitlines()[0]}") from None


def show(results: dict[str, Any]) -> None:
    """Standings and head-to-head as tables."""
    table = Table(title=f"{results['game']} {results['format']}: {results['played']} of {results['games']} games "
                        f"played, seed {results['seed']} (tournament {results['tournament'][:12]})")
    for column in ("entry", "games", "wins", "win share [95 %]", "mean score [95 %]", "mu", "sigma", "ordinal",
                   "failures"):
        table.add_column(column)
    for name in results["ranking"]:
        row = results["standings"][name]
        lo, hi = row["win_share_ci"]
        ci = row["mean_score_ci"]
        rating = row["rating"]
        failures = ", ".join(f"{k} {v}" for k, v in row["failures"].items()) or "-"
        table.add_row(name, str(row["games"]), f"{row['wins']:g}", f"{row['win_share']:.3f} [{lo:.3f}, {hi:.3f}]",
                      f"{row['mean_score']:.2f}" + (f" [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else ""),
                      f"{rating['mu']:.2f}", f"{rating['sigma']:.2f}", f"{rating['ordinal']:.2f}", failures)
    console.print(table)
    names = results["ranking"]
    h2h = Table(title="head-to-head: share of meetings the row placed ahead of the column")
    h2h.add_column("")
    for name in names:
        h2h.add_column(name)
    for a in names:
        cells = []
        for b in names:
            cell = results["head_to_head"][a].get(b)
            cells.append("" if cell is None or cell["share"] is None else f"{cell['share']:.3f} ({cell['games']})")
        h2h.add_row(a, *cells)
    console.print(h2h)
    for error in results["errors"]:
        err.print(f"game {error['game']} ended in error: {error['error']}", markup=False, highlight=False)


def tournament_record(database_url: str | None, tournament: str, game: int | None) -> dict[str, Any]:
    """The record of game ``game`` of a stored tournament (id or unique prefix), or a one-line exit."""
    from cardtable.cli.serve import require_database

    if game is None:
        raise _fail("--tournament needs --game-number N")
    require_database(database_url)  # reading never makes an empty database
    store = open_store(database_url)
    matches = [t.id for t in store.all() if t.id.startswith(tournament.lower())] if tournament else []
    if len(matches) != 1:
        raise _fail(f"no tournament {tournament!r} in the database" if not matches
                    else f"{tournament!r} matches {len(matches)} tournaments: give more of the id")
    stored = store.game(matches[0], game)
    if stored is None:
        raise _fail(f"tournament {matches[0][:12]} has no stored game {game}")
    record: dict[str, Any] = stored["record"]
    return record
