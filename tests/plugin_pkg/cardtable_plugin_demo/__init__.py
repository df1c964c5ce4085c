"""A plugin package: the game ``short_eights`` (Crazy Eights, one round, three cards) and the bot ``first``."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from cardtable.core import register
from cardtable.games.crazy_eights.game import CrazyEightsGame


class ShortEights(CrazyEightsGame):
    """Crazy Eights dealt three cards each for one round: a game defined outside cardtable."""

    info = replace(CrazyEightsGame.info, name="short_eights", title="Short Eights")

    def options(self, values: Any = None, *, preset: str | None = None, **kwargs: Any) -> Any:
        """Crazy Eights' options with one round of five cards unless told otherwise."""
        merged = {"rounds": 1, "hand_size": 5, **dict(values or {}), **kwargs}
        return super().options(merged, preset=preset)


class FirstLegalBot:
    """Plays the first legal action; offered for these games only."""

    name = "first"
    games = ("short_eights", "wizard")

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, observation: Any, legal_actions: Any) -> Any:
        """The first legal action."""
        return legal_actions[0]


GAME = register(ShortEights(), bots="cardtable.games.crazy_eights.players:BOTS")  # Crazy Eights' own players
