"""The seed's high-level API: ``play_game(bots=[...], seed=...)`` plays one whole Mus game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.core import Bot, Event, Outcome
from cardtable.games.mus.actions import MusAction
from cardtable.games.mus.events import PAIR_NAMES
from cardtable.games.mus.game import MusGame
from cardtable.games.mus.options import MusGameOptions


@dataclass(frozen=True)
class PlayResult:
    """A finished game: the winning pair ("A" = seats 0 and 2, "B" = 1 and 3), the tanteo, every event."""

    winner: str
    final_score: tuple[int, int]
    games: tuple[int, int]
    events: list[Event]
    actions: list[tuple[int, MusAction]]
    outcome: Outcome


def play_game(bots: Sequence[Bot], seed: int = 0,
              options: MusGameOptions | Mapping[str, Any] | None = None) -> PlayResult:
    """Play one game with four bots (seat order) from ``seed``; every action is checked."""
    if len(bots) != 4:
        raise ValueError(f"Mus needs 4 bots, got {len(bots)}")
    game = MusGame()
    opts = options if isinstance(options, MusGameOptions) else game.options(options or {})
    state, events = game.new(opts, seed)
    actions: list[tuple[int, MusAction]] = []
    while (seat := game.to_act(state)) is not None:
        action = bots[seat].act(game.observe(state, seat), game.legal_actions(state, seat))
        state, more = game.apply(state, seat, action)
        events.extend(more)
        actions.append((seat, action))
    outcome = game.outcome(state)
    assert outcome is not None and state.winner is not None
    return PlayResult(PAIR_NAMES[state.winner], state.tanteo, state.games, events, actions, outcome)
