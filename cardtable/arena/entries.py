"""Tournament entries: a name and what plays under it (a built-in bot name or ``exec:COMMAND``)."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Any

from cardtable.arena import agents
from cardtable.arena.sandbox import Limits
from cardtable.core.bot import Bot
from cardtable.core.game import Game
from cardtable.runner import AgentFailure

#: Handshake failures that refuse a tournament before it starts; a slow or silent program is let in and
#: costs only its own decisions (counted as timeouts).
REFUSED_AT_PROBE = frozenset({"protocol", "crashed"})
_NAME = re.compile(r"^[A-Za-z0-9_.+-]{1,40}$")


@dataclass(frozen=True, slots=True)
class Entry:
    """One participant of a tournament: the name results are shown under, and its bot spec."""

    name: str
    spec: str


def parse_entry(text: str) -> Entry:
    """``NAME=SPEC`` or a bare built-in ``SPEC`` (named after it); ``ValueError`` with a one-line reason."""
    if text.strip().startswith(agents.EXEC):
        raise ValueError(f"--bot {text!r}: name an external bot: NAME=exec:COMMAND")
    name, sep, spec = text.partition("=")
    name, spec = name.strip(), spec.strip() if sep else name.strip()
    if not spec:
        raise ValueError(f"--bot {text!r}: nothing to play after '='")
    if not _NAME.match(name):
        raise ValueError(f"--bot {text!r}: a name is 1–40 letters, digits or _.+- (write NAME=SPEC)")
    return Entry(name, spec)


def check_entries(game: Game[Any, Any, Any, Any], options: Any, entries: list[Entry]) -> list[Entry]:
    """The entries with external commands made absolute, after shaking hands with each program once.

    ``ValueError`` with one line for fewer than two entries, a name used twice, an unknown bot, a program
    that cannot start or does not speak the protocol.
    """
    if len(entries) < 2:
        raise ValueError("a tournament needs at least two --bot entries")
    names = [e.name for e in entries]
    for name in names:
        if names.count(name) > 1:
            raise ValueError(f"two entries are called {name!r}: write NAME=SPEC to tell them apart")
    checked = []
    for entry in entries:
        spec = agents.parse_spec(game, entry.spec)
        if spec.is_external:
            entry = Entry(entry.name, agents.EXEC + shlex.join(spec.command))
            probe(game, options, entry)
        checked.append(entry)
    return checked


def probe(game: Game[Any, Any, Any, Any], options: Any, entry: Entry) -> None:
    """Start an external entry's program and shake hands as seat 0; ``ValueError`` if it cannot start or
    does not speak the protocol."""
    agent = agents.make_agent(game, entry.spec, 0)
    try:
        start = getattr(agent, "start", None)
        if callable(start):
            start(game, options, 0)
    except AgentFailure as exc:
        if exc.kind in REFUSED_AT_PROBE:
            raise ValueError(f"--bot {entry.name}: {exc.kind}: {exc.detail}".splitlines()[0]) from None
    finally:
        close_agent(agent)


def make_agent(game: Game[Any, Any, Any, Any], spec: str, seed: int, *, timeout: float | None = None,
               game_timeout: float | None = None) -> Bot:
    """The agent that plays ``spec``; an external program gets the tournament's time limits, if it sets any."""
    limits = None
    if timeout is not None or game_timeout is not None:
        default = Limits()
        limits = Limits(decision=timeout or default.decision, game=game_timeout or default.game)
    return agents.make_agent(game, spec, seed, limits=limits)


def close_agent(agent: Bot) -> None:
    """Stop an external agent's program; built-in bots have nothing to stop."""
    close = getattr(agent, "close", None)
    if callable(close):
        close()
