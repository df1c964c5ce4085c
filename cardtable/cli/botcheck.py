"""``cardtable bot-check PROGRAM GAME``: play a few games against an external bot and report every protocol error.

The program takes each seat in turn against random bots, under the sandbox with
the given decision limit. Every decision it lost (timeout, malformed answer,
illegal action, crash, wrong protocol version) is one line; the exit status is
1 if there was any, 0 if none, 2 for bad arguments.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from cardtable.arena.agents import EXEC, parse_spec
from cardtable.arena.external import ExternalBot
from cardtable.arena.sandbox import Limits
from cardtable.bots import RandomBot
from cardtable.cli.common import fail, load, parse_option_pairs, renamed
from cardtable.core.errors import InvalidOptions
from cardtable.runner import GameRunner, RunnerStatus

SHOWN = 10
"""Problems shown per game; the rest are counted."""


def bot_check(
    program: Annotated[str, typer.Argument(help="The bot's command line, e.g. \"python3 my_bot.py\".")],
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="Game name, e.g. wizard.")],
    games: Annotated[int, typer.Option(help="Number of games (the bot changes seat each game).")] = 3,
    players: Annotated[int | None, typer.Option(help="Number of players (default: the game's smallest).")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="Game option KEY=VALUE.")] = None,
    decision_time: Annotated[float | None, typer.Option(
        "--decision-time", metavar="SECONDS", help="Seconds per decision (default 2).")] = None,
    handshake: Annotated[float, typer.Option(metavar="SECONDS", help="Seconds to answer the hello.")] = 10.0,
    seed: Annotated[int, typer.Option(help="Seed of the first game.")] = 1,
    old_timeout: Annotated[float | None, typer.Option("--timeout", hidden=True)] = None,
) -> None:
    """Play GAMES games against an external bot and report each protocol error on one line."""
    given = renamed("--timeout", "--decision-time", old_timeout, decision_time)
    timeout = 2.0 if given is None else given
    game = load(game_name)
    count = players if players is not None else game.info.min_players
    try:
        options = game.options(parse_option_pairs(option or []), players=count)
    except InvalidOptions as exc:
        raise fail(str(exc)) from None
    if games < 1:
        raise fail("--games must be at least 1")
    try:
        limits = Limits(decision=timeout, handshake=handshake, game=None)
        command = parse_spec(game, program if program.startswith(EXEC) else EXEC + program).command
    except ValueError as exc:
        raise fail(str(exc)) from None
    problems = decisions = 0
    name = program
    for g in range(games):
        seat = g % count
        bot = ExternalBot(command, limits=limits)
        agents: list[Any] = [RandomBot(seed + g + s) for s in range(count)]
        agents[seat] = bot
        with GameRunner(game, options, seed + g, agents) as runner:
            runner.run()
        name = bot.name
        lost = {sub.index for sub in runner.substitutions if sub.seat == seat}
        decisions += sum(1 for i, (s, _) in enumerate(runner.record.actions) if s == seat and i not in lost)
        found = [sub for sub in runner.substitutions if sub.seat == seat and sub.kind != "forfeited"]
        problems += len(found)
        for sub in found[:SHOWN]:
            typer.echo(f"game {g + 1}, seat {seat}, action {sub.index}: {sub.kind}: {sub.detail}")
        if len(found) > SHOWN:
            typer.echo(f"game {g + 1}: … and {len(found) - SHOWN} more")
        if runner.status is RunnerStatus.ERROR:
            problems += 1
            typer.echo(f"game {g + 1}: stopped: {(runner.error or '').strip().splitlines()[0]}")
        if seat in runner.forfeited:
            typer.echo(f"game {g + 1}: the bot could not go on; stopping here")
            break
    verdict = "no protocol errors" if problems == 0 else f"{problems} problem{'s' * (problems != 1)}"
    typer.echo(f"{name}: {game.info.title}, {g + 1} game(s), {decisions} decisions answered, {verdict}")
    if problems:
        raise typer.Exit(1)
