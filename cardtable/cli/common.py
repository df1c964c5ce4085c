"""What every ``cardtable`` command shares: the consoles, a one-line failure, the game by name, options."""

from __future__ import annotations

from typing import Any

import typer
from rich.console import Console

import cardtable

console = Console()
err = Console(stderr=True)


def fail(message: str) -> typer.Exit:
    """Print a one-line error and return the exit (status 2) to raise."""
    err.print(f"error: {message}", markup=False, highlight=False, soft_wrap=True)
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


def external_factory(game: Any, spec: str) -> Any:
    """A bot factory for an ``exec:COMMAND`` spec (checked now: a clean exit if the program cannot start)."""
    from cardtable.arena.agents import make_agent, parse_spec

    try:
        parse_spec(game, spec)
    except ValueError as exc:
        raise fail(str(exc)) from None
    return lambda seed: make_agent(game, spec, seed)
