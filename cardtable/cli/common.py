"""What every ``cardtable`` command shares: the consoles, a one-line failure, the game by name, options."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, TypeVar

import typer
from rich.console import Console

import cardtable
from cardtable.core.errors import DecodeError, InvalidOptions
from cardtable.core.record import GameRecord

console = Console()
err = Console(stderr=True)
T = TypeVar("T")


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


def read_json_file(path: Path) -> Any:
    """The JSON in ``path``, or a one-line exit saying why it cannot be read."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise fail(f"cannot read {path}: {exc}") from None


def record_of(data: Any, where: object) -> tuple[Any, GameRecord]:
    """The game and the record in ``data`` (read from ``where``), or a one-line exit if it is not a record of a
    known game."""
    if not isinstance(data, dict) or not isinstance(data.get("game"), str):
        raise fail(f"{where} is not a game record")
    game = load(data["game"])
    try:
        return game, GameRecord.from_json(data, game)
    except (DecodeError, InvalidOptions, ValueError) as exc:
        raise fail(f"{where}: {exc}") from None


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


def external_factory(game: Any, spec: str, options: Any, *, flag: str = "--bot") -> Any:
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


# Help: plain value names.

#: typer's type labels and the plain names help shows instead.
_PLAIN = {"str": "TEXT", "int": "INTEGER", "float": "NUMBER", "path": "PATH", "int range": "INTEGER",
          "float range": "NUMBER"}


def _plain(label: str) -> str:
    """``<int>`` → ``INTEGER``, ``<list[str]>`` → ``TEXT`` (the option repeats), ``<a|b>`` → ``a|b``."""
    inner = label[1:-1] if label.startswith("<") and label.endswith(">") else label
    while inner.startswith("list[") and inner.endswith("]"):
        inner = inner[5:-1]
    return _PLAIN.get(inner, inner)


def plain_value_names() -> None:
    """Make help show TEXT, INTEGER, NUMBER, PATH and nothing for a flag, not typer's ``<str>``, ``<bool>``,
    ``<list[str]>`` (typer 0.2x labels Python types; a user reads values). Idempotent; a typer without the
    hook is left alone."""
    from typer import core

    parameter = getattr(core, "_TyperParameter", None)
    original = getattr(parameter, "display_type", None)
    if parameter is None or original is None or getattr(original, "plain", False):
        return

    def display_type(self: Any, ctx: Any) -> str:
        if getattr(self, "is_flag", False) and not getattr(self, "count", False):
            return ""
        return _plain(str(original(self, ctx)))

    display_type.plain = True  # type: ignore[attr-defined]
    parameter.display_type = display_type


plain_value_names()


# Renamed options: the old spelling is kept one release, hidden, with a deprecation line.


def warn(message: str) -> None:
    """Print a one-line warning on stderr."""
    err.print(f"warning: {message}", markup=False, highlight=False, soft_wrap=True, emoji=False)


def renamed(old: str, new: str, old_value: T | None, new_value: T | None) -> T | None:
    """The option's value from its name ``new`` or its old spelling ``old`` (which says it is deprecated);
    both at once is a clean exit."""
    if old_value is None:
        return new_value
    if new_value is not None:
        raise fail(f"{old} is the old name of {new}: give {new} only")
    warn(f"{old} is deprecated and goes in the next release; use {new}")
    return old_value
