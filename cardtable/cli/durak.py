"""``cardtable durak``: the 2020 program (scripted players) printing its log or one JSON object."""

from __future__ import annotations

from typing import Annotated

import typer

from cardtable.cli.common import renamed
from cardtable.games.durak.players.scripted import ScriptedBot
from cardtable.games.durak.program import RULES, ProgramError, run


def durak(
    names: Annotated[list[str] | None, typer.Argument(metavar="NAMES",
                                                     help="The players, in the order they join.")] = None,
    preset: Annotated[str | None, typer.Option(
        "--preset", metavar="PRESET", help=f"Rules preset: {' or '.join(RULES)} (default: default).")] = None,
    seed: Annotated[str | None, typer.Option(
        "--seed", metavar="N", help="The deck's number, 1 to 65535 (default: a random one).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of the log.")] = False,
    rules: Annotated[str | None, typer.Option("--rules", hidden=True)] = None,
) -> None:
    """Play one game of Durak between scripted players and print the log (the 2020 program)."""
    chosen = renamed("--rules", "--preset", rules, preset) or "default"
    try:
        output = run(chosen, seed, names or [], ScriptedBot, as_json=as_json)
    except ProgramError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    typer.echo(output, nl=False)
