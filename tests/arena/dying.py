"""A play function whose worker process dies on the last game of six (importable by spawned workers)."""

from __future__ import annotations

import os

from cardtable.arena.play import GameResult, GameTask, play_game

DIES_ON = 5


def play_or_die(task: GameTask) -> GameResult:
    """Play the game, except game :data:`DIES_ON`, which kills its process at once."""
    if task.index == DIES_ON:
        os._exit(9)
    return play_game(task)
