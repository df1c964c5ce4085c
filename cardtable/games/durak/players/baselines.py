"""The Durak baseline ``lowest``: the lowest legal card, take when nothing beats."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardtable.core.observation import Observation
from cardtable.games.durak.actions import STOP, TAKE, Attack, Beat, DurakAction
from cardtable.games.durak.observation import trump_of
from cardtable.games.durak.rules import SORT_KEY


class LowestBot:
    """A baseline: the lowest legal card (beating, attacking or continuing); take when nothing beats.

    It stops a bout only when it has no card to add.
    """

    name = "lowest"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, observation: Observation, legal_actions: Sequence[Any]) -> DurakAction:
        """The lowest card among the legal actions, else Take or Stop."""
        obs: Any = observation
        key = SORT_KEY[trump_of(obs)]
        cards = [a for a in legal_actions if isinstance(a, (Attack, Beat))]
        if cards:
            return min(cards, key=lambda a: key[a.card])
        return TAKE if TAKE in legal_actions else STOP
