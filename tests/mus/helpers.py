"""Helpers for Mus scenario tests: scripted actions on states built from explicit hands."""

from __future__ import annotations

from typing import Any

from cardtable.core import Event
from cardtable.games.mus import GAME
from cardtable.games.mus.options import MusGameOptions
from cardtable.games.mus.state import MusState
from cardtable.games.mus.testing import state_from_hands

# Seat 0 is the mano (dealer 3 = postre) in every scenario unless said otherwise.
BASIC = ["Ro Rc 4o 5o", "Co Cc 6o 7o", "1c 4c 5c 6c", "Se Sb 7c 6e"]


def opts(**values: Any) -> MusGameOptions:
    """Options from dotted keys: opts(**{"scoring.target": 10})."""
    return GAME.options(values)


def table(hands: list[str] | None = None, **kwargs: Any) -> MusState:
    """A state in the mus decision with the given hands (BASIC by default)."""
    return state_from_hands(hands or BASIC, **kwargs)


def play(state: MusState, *script: str | tuple[int, str]) -> tuple[MusState, list[Event]]:
    """Apply actions by text, each by the seat to act (or the seat given); returns the state and events."""
    events: list[Event] = []
    for step in script:
        seat, text = step if isinstance(step, tuple) else (GAME.to_act(state), step)
        assert seat is not None and GAME.to_act(state) == seat, f"{text!r}: seat {GAME.to_act(state)} to act"
        state, more = GAME.apply(state, seat, GAME.parse_action(text))
        events.extend(more)
    return state, events


def of_type(events: list[Event], name: str) -> list[Any]:
    """The events whose TYPE is ``name``."""
    return [e for e in events if name == e.TYPE]


def scored(events: list[Event]) -> list[tuple[int, int, str, str]]:
    """(pair, tantos, reason, lance) of every TantosScored event."""
    return [(e.pair, e.tantos, e.reason, e.lance) for e in of_type(events, "tantos_scored")]


def all_pass_to_pares(state: MusState) -> tuple[MusState, list[Event]]:
    """Cut the mus and pass grande and chica."""
    return play(state, "cut", *["pass"] * 8)
