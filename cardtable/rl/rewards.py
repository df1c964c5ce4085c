"""Rewards for learning agents: win or lose at the end of a game, or scores as they are scored.

``"game"``: at the end, +1 for every winner and -1 for every other seat (0 for all when every
seat wins). ``"round"``: each seat's score change whenever a round (hand) is scored: Wizard's
round points, Kaiser's and Mus's points of the seat's side, minus Crazy Eights' penalty points;
they add up to the final score. Durak scores no rounds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

RewardMode = Literal["game", "round"]
Progress = Callable[[Any], tuple[int, tuple[float, ...]]]
"""A state's (epoch, score so far per seat); a new epoch (a new game of a Mus match) starts from 0."""

PROGRESS: dict[str, Progress] = {
    "wizard": lambda s: (0, tuple(float(t) for t in s.totals)),
    "crazy_eights": lambda s: (0, tuple(-float(t) for t in s.totals)),
    "kaiser": lambda s: (0, tuple(float(s.totals[seat & 1]) for seat in range(4))),
    "mus": lambda s: (s.game_no, tuple(float(s.tanteo[seat & 1]) for seat in range(4))),
}


def check_mode(game: str, mode: str) -> RewardMode:
    """``mode`` if the game supports it; ``ValueError`` naming the choices otherwise."""
    if mode == "game":
        return "game"
    if mode == "round":
        if game not in PROGRESS:
            raise ValueError(f"{game} scores no rounds: rewards='round' is for {', '.join(sorted(PROGRESS))}")
        return "round"
    raise ValueError(f"rewards must be 'game' or 'round', not {mode!r}")


def final_rewards(winners: tuple[int, ...], players: int) -> list[float]:
    """+1 for each winner, -1 for each other seat; all 0 when every seat wins."""
    if len(winners) == players:
        return [0.0] * players
    return [1.0 if s in winners else -1.0 for s in range(players)]


def round_rewards(game: str, before: Any, after: Any) -> list[float]:
    """Each seat's score change from ``before`` to ``after``."""
    epoch0, old = PROGRESS[game](before)
    epoch1, new = PROGRESS[game](after)
    if epoch1 != epoch0:
        old = (0.0,) * len(new)
    return [b - a for a, b in zip(old, new)]
