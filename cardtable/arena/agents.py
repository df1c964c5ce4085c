"""Agents from specs: a built-in bot name (``heuristic``) or an external program (``exec:python3 my_bot.py``)."""

from __future__ import annotations

import os
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardtable.arena.external import ExternalBot
from cardtable.arena.sandbox import Limits
from cardtable.bots import make_bot
from cardtable.core.bot import Bot
from cardtable.core.game import Game

EXEC = "exec:"


@dataclass(frozen=True)
class AgentSpec:
    """A checked spec: a built-in bot's name, or the command line of an external program."""

    text: str
    builtin: str | None = None
    command: tuple[str, ...] = ()

    @property
    def is_external(self) -> bool:
        """Whether this spec is an external program."""
        return self.builtin is None


def parse_spec(game: Game[Any, Any, Any, Any], spec: str) -> AgentSpec:
    """Check ``spec`` for ``game``; ``ValueError`` with a one-line message for unknown names or unstartable programs."""
    text = spec.strip()
    if not text.startswith(EXEC):
        try:
            make_bot(game, text)  # a known name, with valid options if it has any (``search:sims=400``)
        except ValueError as exc:
            raise ValueError(f"{exc}; or exec:COMMAND for a program") from None
        return AgentSpec(text, builtin=text)
    try:
        words = shlex.split(text[len(EXEC):])
    except ValueError as exc:
        raise ValueError(f"cannot read the command in {spec!r}: {exc}") from None
    if not words:
        raise ValueError(f"{spec!r} names no program: write exec:COMMAND")
    return AgentSpec(text, command=tuple(resolve_command(words)))


def resolve_command(words: list[str]) -> list[str]:
    """The command with its program found on PATH and file arguments made absolute (the bot runs elsewhere).

    ``ValueError`` if the program cannot be found or run.
    """
    program = words[0]
    if os.sep in program:
        path = Path(program).absolute()  # not resolved: a venv's python is a link, and must run as the venv's
        if not path.is_file():
            raise ValueError(f"cannot start {program!r}: no such file")
        if not os.access(path, os.X_OK):
            raise ValueError(f"cannot start {program!r}: not executable (chmod +x, or put an interpreter first)")
        found = str(path)
    else:
        which = shutil.which(program)
        if which is None:
            raise ValueError(f"cannot start {program!r}: not found on PATH")
        found = which
    rest = [str(Path(w).resolve()) if not w.startswith("-") and Path(w).is_file() else w for w in words[1:]]
    return [found, *rest]


def make_agent(game: Game[Any, Any, Any, Any], spec: str, seed: int, *, limits: Limits | None = None) -> Bot:
    """The agent ``spec`` names: a built-in bot seeded with ``seed``, or an :class:`ExternalBot` (started later)."""
    checked = parse_spec(game, spec)
    if checked.builtin is not None:
        return make_bot(game, checked.builtin, seed)
    return ExternalBot(checked.command, limits=limits, name=spec.strip()[len(EXEC):].strip())
