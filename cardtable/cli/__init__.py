"""The ``cardtable`` command line: games, play, selfplay, replay, durak, serve, db, bots, bot-check, arena."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

import cardtable
from cardtable.bots import bot_names, make_bot
from cardtable.cli.accounts import bots, players
from cardtable.cli.arena import arena
from cardtable.cli.botcheck import bot_check
from cardtable.cli.common import (
    console,
    err,
    external_factory,
    fail,
    load,
    parse_option_pairs,
    read_json_file,
    record_of,
    renamed,
)
from cardtable.cli.connect import bot_connect
from cardtable.cli.durak import durak
from cardtable.cli.play import play
from cardtable.cli.review import review
from cardtable.cli.serve import db, serve
from cardtable.cli.train import train
from cardtable.core.errors import DecodeError, InvalidOptions
from cardtable.core.record import replay

app = typer.Typer(help="cardtable: card games with exact rules, bots, a runner and a web table.",
                  no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)
@app.command("games")
def games_command() -> None:
    """List the games, their seats, options and bots."""
    table = Table("name", "title", "players", "options", "bots")
    for name, game in cardtable.all_games().items():
        info = game.info
        opts = ", ".join(f"{s.name}={s.default}" for s in info.option_specs if s.name != "players")
        table.add_row(name, info.title, f"{info.min_players}–{info.max_players}", opts, ", ".join(bot_names(game)))
    console.print(table)


@app.command("selfplay")
def selfplay_command(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="Game name, e.g. wizard.")],
    bot: Annotated[list[str] | None, typer.Option(
        "--bot", metavar="BOT", help="A bot (a name, name:options, or exec:COMMAND): once for every seat, or "
        "repeated, one per seat. Default: random.")] = None,
    players: Annotated[int | None, typer.Option(help="Number of players (default: one per --bot given, "
                                                     "or the game's smallest).")] = None,
    games: Annotated[int, typer.Option(help="Number of games.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the whole run.")] = 1,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="Game option KEY=VALUE.")] = None,
    preset: Annotated[str | None, typer.Option(help="Named rule preset.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    decision_time: Annotated[float | None, typer.Option(
        "--decision-time", metavar="SECONDS", help="Seconds per decision (the fallback plays after).")] = None,
    game_time: Annotated[float | None, typer.Option(
        "--game-time", metavar="SECONDS", help="Thinking seconds per seat and game.")] = None,
    max_failures: Annotated[int | None, typer.Option(help="Failures a seat may have before it forfeits.")] = None,
    bots: Annotated[str | None, typer.Option("--bots", hidden=True)] = None,
    timeout: Annotated[float | None, typer.Option("--timeout", hidden=True)] = None,
    game_timeout: Annotated[float | None, typer.Option("--game-timeout", hidden=True)] = None,
) -> None:
    """Play GAMES games between bots (seats rotate) and print per-bot results, failures included."""
    from cardtable.selfplay import selfplay

    game = load(game_name)
    old = [b.strip() for b in bots.split(",")] if bots is not None else None
    names = [b.strip() for b in renamed("--bots", "--bot", old, bot) or ["random"]]
    timeout = renamed("--timeout", "--decision-time", timeout, decision_time)
    game_timeout = renamed("--game-timeout", "--game-time", game_timeout, game_time)
    if not all(names):
        raise fail("--bot needs a bot name")
    if len(names) == 1:
        names = names * (players if players is not None else game.info.min_players)
    elif players is not None and players != len(names):
        raise fail(f"--players {players} but {len(names)} bots given")
    for name in names:
        if not name.startswith("exec:"):
            try:
                make_bot(game, name)  # a known name with valid options (``search:sims=400``)
            except ValueError as exc:
                raise fail(f"{exc}; or exec:COMMAND") from None
    if games < 1:
        raise fail("--games must be at least 1")
    for flag, value in (("--decision-time", timeout), ("--game-time", game_timeout)):
        if value is not None and value <= 0:
            raise fail(f"{flag} must be positive")
    if max_failures is not None and max_failures < 0:
        raise fail("--max-failures must be at least 0")
    try:
        values = parse_option_pairs(option or [])
        checked = game.options(values, preset=preset, players=len(names))
    except InvalidOptions as exc:
        raise fail(str(exc)) from None
    factories = {name: external_factory(game, name, checked) for name in dict.fromkeys(names)
                 if name.startswith("exec:")}  # each program started once now: it must answer the handshake
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, disable=not sys.stderr.isatty(), transient=True) as progress:
        task = progress.add_task(f"{game_name} self-play", total=games)
        result = selfplay(game, names, games=games, seed=seed, options=values, preset=preset,
                          on_game=lambda _: progress.advance(task), timeout=timeout,
                          game_timeout=game_timeout, max_failures=max_failures, factories=factories)
    if as_json:
        typer.echo(json.dumps(result, ensure_ascii=False))
        return
    print_table(selfplay_table(game, result))
    for name, row in result["bots"].items():
        failures = ", ".join(f"{kind} {count}" for kind, count in row["failures"].items()) or "none"
        forfeits = f"; forfeited {row['forfeits']} of {row['games']} games" if row["forfeits"] else ""
        console.print(f"{name}: decisions lost: {failures}{forfeits}", markup=False, highlight=False)
    for error in result["errors"]:
        err.print(f"error: {error}", markup=False)


def selfplay_table(game: Any, result: dict[str, Any]) -> Table:
    """Per-bot results, rounded, with 95 % intervals; cells wrap (never cut) to fit the terminal."""
    from cardtable.arena.standings import Z95, wilson_interval

    table = Table(title=f"{game.info.title}: {result['games']} games, {result['players']} players, "
                        f"seed {result['seed']}", title_justify="left")
    rates = list(game.stat_rates)
    for column in ["bot", "seats", "games", "wins", "win share [95 %]", "mean score [95 %]", *rates]:
        table.add_column(column.replace("_", " "), overflow="fold",
                         justify="left" if column == "bot" else "right")
    for name, row in result["bots"].items():
        lo, hi = wilson_interval(row["wins"], row["games"])
        mean, n = row["mean_score"], row.get("seat_games", 0)
        half = Z95 * row.get("score_sd", 0.0) / n ** 0.5 if n >= 2 else None
        score = figure(mean) + (f" [{figure(mean - half)}, {figure(mean + half)}]" if half is not None else "")
        table.add_row(name, str(row["seats"]), str(row["games"]), f"{row['wins']:g}",
                      f"{row['win_share']:.3f} [{lo:.3f}, {hi:.3f}]", score, *(f"{row[r]:.3f}" for r in rates))
    return table


def print_table(table: Table) -> None:
    """A table at the terminal's width (cells wrap, never cut); into a pipe or file at its natural width."""
    from rich.console import Console
    from rich.measure import Measurement

    if console.is_terminal:
        console.print(table)
        return
    wide = Console(width=10_000, color_system=None)
    Console(width=Measurement.get(wide, wide.options, table).maximum, color_system=None).print(table)


def figure(value: float) -> str:
    """A score rounded for reading: 3 significant digits before the point at most (-581, 42.7, 0.156)."""
    size = abs(value)
    return f"{value:.0f}" if size >= 100 else f"{value:.1f}" if size >= 10 else f"{value:.2f}"


app.command("bot-check")(bot_check)  # lives in cli/botcheck.py
app.command("bot-connect")(bot_connect)  # cli/connect.py


@app.command("replay")
def replay_command(
    path: Annotated[Path | None, typer.Argument(help="A game record as JSON (from the server or `selfplay`).")]
    = None,
    seat: Annotated[int | None, typer.Option(help="Show only what this seat could see.")] = None,
    tournament: Annotated[str | None, typer.Option(help="Instead of PATH: a stored arena tournament (id or "
                                                        "its first characters) ...")] = None,
    game_number: Annotated[int | None, typer.Option(
        "--game-number", metavar="N", help="... and its game number (from 0).")] = None,
    database_url: Annotated[str | None, typer.Option("--database-url", envvar="CARDTABLE_DATABASE_URL",
                                                     help="Database of --tournament.")] = None,
    old_game_number: Annotated[int | None, typer.Option("--game", hidden=True)] = None,
) -> None:
    """Replay a game record (a file, or a stored tournament game) and print its events in words."""
    from cardtable.cli.arena import tournament_record

    game_number = renamed("--game", "--game-number", old_game_number, game_number)
    if (path is None) == (tournament is None):
        raise fail("give a record FILE or --tournament ID --game-number N")
    data = tournament_record(database_url, str(tournament), game_number) if path is None else read_json_file(path)
    where = path if path is not None else f"tournament {tournament} game {game_number}"
    game, record = record_of(data, where)
    try:
        state, events = replay(game, record)
    except (DecodeError, InvalidOptions, ValueError) as exc:
        raise fail(f"{where}: {exc}") from None
    players = game.players(state)
    if seat is not None and not 0 <= seat < players:
        raise fail(f"--seat {seat}: this game has seats 0 to {players - 1}")
    for event in events:
        if event.is_visible_to(seat) or seat is None:
            typer.echo(event.text())
    outcome = game.outcome(state)
    typer.echo(f"Outcome: {outcome}" if outcome else f"Game in progress after {len(record.actions)} actions")


def version_callback(value: bool) -> None:
    """Print the version and stop (``--version``)."""
    if value:
        console.print(f"cardtable {cardtable.__version__}", markup=False, highlight=False)
        raise typer.Exit()


@app.callback()
def root(version: Annotated[bool, typer.Option("--version", callback=version_callback, is_eager=True,
                                               help="Print the version and exit.")] = False) -> None:
    """cardtable: card games with exact rules, bots, a runner and a web table."""


# Commands that live in their own modules.
app.command("arena")(arena)
app.command("durak")(durak)
app.command("play")(play)
app.command("review")(review)  # cli/review.py
app.command("serve")(serve)
app.command("train")(train)  # cli/train.py (the learn extra)
app.add_typer(db, name="db")
app.add_typer(bots, name="bots")
app.add_typer(players, name="players")


def main() -> None:
    """Entry point of the ``cardtable`` script."""
    app()
