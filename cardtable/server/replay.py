"""Replays for the browser: a finished game, step by step, as one seat (or a spectator) saw it.

Every frame is built from ``events_for`` and ``observe`` only, so a replay shows a seat nothing it could
not see while playing. The frame's ``view`` has the shape of a live ``view`` message (without the seat
list, which the caller adds), so the table page draws it with the same code.

A game that ended outside its rules (a side resigned, cardtable/server/resignations.py) has no result in its
last step; the caller passes the outcome the table stored, and one more frame shows it, so that its replay
ends on the result as any finished game's does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardtable.core import GameRecord, events_for, to_json
from cardtable.core.types import Seat
from cardtable.server.live import AnyGame


def replay_frames(game: AnyGame, record: GameRecord, seat: Seat | None, *,
                  ended: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """One frame per step (the deal, then each action): the events ``seat`` sees and the view it renders; then,
    if the last step has no result and the table stored an outcome (``ended``: a side resigned), its result."""
    options = game.options(record.options)
    state, events = game.new(options, record.seed)
    frames = [_frame(game, state, events, seat, 0, None)]
    for step, (actor, action) in enumerate(record.actions, start=1):
        state, events = game.apply(state, actor, action)
        frames.append(_frame(game, state, events, seat, step, actor))
    if ended is not None and frames[-1]["view"]["outcome"] is None:
        frames.append(_result_frame(frames[-1], ended))
    return frames


def _result_frame(last: dict[str, Any], ended: Mapping[str, Any]) -> dict[str, Any]:
    """The frame after ``last`` that shows a result the rules did not reach (the table's stored outcome)."""
    step = last["step"] + 1
    view = {**last["view"], "version": step, "status": "finished", "to_act": None, "events": [],
            "outcome": dict(ended)}
    return {"step": step, "actor": None, "events": [], "view": view}


def _frame(game: AnyGame, state: Any, events: list[Any], seat: Seat | None, step: int,
           actor: Seat | None) -> dict[str, Any]:
    """The events of one step in words and JSON, and the table view after it."""
    outcome = game.outcome(state)
    shown = [{"event": to_json(e), "text": e.text()} for e in events_for(events, seat)]
    view = {
        "type": "view", "game": game.info.name, "version": step, "seat": seat,
        "status": "playing" if outcome is None else "finished", "to_act": game.to_act(state),
        "observation": to_json(game.observe(state, seat)), "legal_actions": [], "events": shown,
        "outcome": None if outcome is None else dict(to_json(outcome)), "computer_playing_for": [],
    }
    return {"step": step, "actor": actor, "events": shown, "view": view}
