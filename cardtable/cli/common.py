"""What every ``cardtable`` command shares: the consoles, a one-line failure, the game by name, options."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

import cardtable

console = Console()
err = Console(stderr=True)


def fail(message: str) -> typer.Exit:
    """Print a one-line error and return the exit (status 2) to raise."""
    err.print(f"error: {message}", markup=False, highlight=False, soft_wrap=True, emoji=False)
    return typer.Exit(2)


def load(name: str) -> Any:
    """The game called ``name``, or a clean exit naming the known games."""
    try:
        return cardtable.load_game(name)
    except KeyError as exc:
        raise fail(str(exc.args[0])) from None


def parse_option_pairs(pairs: list[str]) -> dict[str, str]:
    """``["rounds=5", "hidden_bids=on"]`` → ``{"rounds": "5", "hidden_bids": "on"}``."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise fail(f"option {pair!r} is not KEY=VALUE")
        out[key.strip()] = value.strip()
    return out


def check_writable(path: Path, flag: str) -> None:
    """A one-line exit unless a file can be written at ``path`` (nothing is created to find out)."""
    if path.is_dir():
        raise fail(f"{flag} {path}: is a directory")
    parent = path.parent
    if not parent.is_dir():
        raise fail(f"{flag} {path}: no directory {parent}")
    if not os.access(path if path.exists() else parent, os.W_OK):
        raise fail(f"{flag} {path}: not writable")


def external_factory(game: Any, spec: str, options: Any, *, flag: str = "--bots") -> Any:
    """A bot factory for an ``exec:COMMAND`` spec, checked now as the arena does: the program is started and
    must answer the handshake, else a clean exit before any game is played (not a game on the fallback)."""
    import shlex

    from cardtable.arena.agents import EXEC, parse_spec
    from cardtable.arena.entries import Entry, probe

    try:
        command = parse_spec(game, spec).command
        checked = EXEC + shlex.join(command)
        probe(game, options, Entry(spec, checked))
    except ValueError as exc:
        raise fail(f"{flag} {spec}: {str(exc).removeprefix(f'--bot {spec}: ')}") from None
    from cardtable.arena.agents import make_agent

    return lambda seed: make_agent(game, checked, seed)
