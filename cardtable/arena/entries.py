"""Tournament entries: a name and what plays under it (a built-in bot name or ``exec:COMMAND``)."""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from typing import Any

from cardtable.core.bot import Bot
from cardtable.core.game import Game

_NAME = re.compile(r"^[A-Za-z0-9_.+-]{1,40}$")


@dataclass(frozen=True, slots=True)
class Entry:
    """One participant of a tournament: the name results are shown under, and its bot spec."""

    name: str
    spec: str


def parse_entry(text: str) -> Entry:
    """``NAME=SPEC`` or a bare ``SPEC`` (then named after it); ``ValueError`` with a one-line reason."""
    name, sep, spec = text.partition("=")
    name, spec = name.strip(), spec.strip()
    if not sep:
        spec = name
        name = name.removeprefix("exec:").split()[0].rsplit("/", 1)[-1] if name.startswith("exec:") else name
    if not spec:
        raise ValueError(f"--bot {text!r}: nothing to play after '='")
    if not _NAME.match(name):
        raise ValueError(f"--bot {text!r}: a name is 1–40 letters, digits or _.+- (write NAME=SPEC)")
    return Entry(name, spec)


def check_entries(game: Game[Any, Any, Any, Any], entries: list[Entry]) -> None:
    """Refuse duplicate names, fewer than two entries, and specs that cannot play (``ValueError``)."""
    if len(entries) < 2:
        raise ValueError("a tournament needs at least two --bot entries")
    names = [e.name for e in entries]
    for name in names:
        if names.count(name) > 1:
            raise ValueError(f"two entries are called {name!r}: write NAME=SPEC to tell them apart")
    for entry in entries:
        parse_spec(game, entry.spec)


def parse_spec(game: Game[Any, Any, Any, Any], spec: str) -> None:
    """Check that ``spec`` can play ``game``; ``ValueError`` with one line if not."""
    agents = _agents_module()
    if agents is not None:
        agents.parse_spec(game, spec)
        return
    from cardtable.bots import bot_names

    if spec.startswith("exec:"):
        raise ValueError("external bots (exec:) need cardtable.arena.agents, which is not installed here")
    if spec not in bot_names(game):
        raise ValueError(f"no bot {spec!r} for {game.info.name} (known: {', '.join(bot_names(game))})")


def make_agent(game: Game[Any, Any, Any, Any], spec: str, seed: int) -> Bot:
    """The agent that plays ``spec`` (external programs are started now)."""
    agents = _agents_module()
    if agents is not None:
        bot: Bot = agents.make_agent(game, spec, seed)
        return bot
    from cardtable.bots import make_bot

    return make_bot(game, spec, seed)


def close_agent(agent: Bot) -> None:
    """Stop an external agent's program; built-in bots have nothing to stop."""
    close = getattr(agent, "close", None)
    if callable(close):
        close()


def _agents_module() -> Any:
    """``cardtable.arena.agents`` (built-in and external bots) when present, else ``None``."""
    try:
        return importlib.import_module("cardtable.arena.agents")
    except ImportError:
        return None
