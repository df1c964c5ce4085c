"""The 2020 program's player (``scripted``) and the same player keeping its trumps (``heuristic``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardtable.core.observation import Observation
from cardtable.games.durak.actions import ATTACKS, BEATS, STOP, TAKE, Attack, DurakAction
from cardtable.games.durak.observation import trump_of
from cardtable.games.durak.rules import SUIT


class ScriptedBot:
    """Plays exactly as the 2020 program: the first suitable card of the sorted hand.

    Lead: the first card of the hand (the lowest non-trump, or the lowest trump if only trumps).
    Continue: the first card of a rank in the bout, except the highest trump while holding more
    than one card; none: stop. Defend: the first card that beats (lowest higher of the suit, then
    the lowest trump on a non-trump); none: take.
    """

    name = "scripted"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, observation: Observation, legal_actions: Sequence[Any]) -> DurakAction:
        """Choose from ``legal_actions`` by the order of the observed hand."""
        obs: Any = observation
        legal = set(legal_actions)
        hand: tuple[int, ...] = obs.hand
        if TAKE in legal:
            return next((BEATS[c] for c in hand if BEATS[c] in legal), TAKE)
        skip = self._kept_trump(hand, trump_of(obs)) if obs.bout else None
        return next((ATTACKS[c] for c in hand if c != skip and ATTACKS[c] in legal), STOP)

    @staticmethod
    def _kept_trump(hand: tuple[int, ...], trump: int) -> int | None:
        """The highest trump in hand, which may not continue a bout while more than one card is held."""
        if len(hand) > 1 and SUIT[hand[-1]] == trump:
            return hand[-1]
        return None


class HeuristicBot(ScriptedBot):
    """The scripted player, but it keeps trumps while the deck still has cards: no trump to continue."""

    name = "heuristic"

    def act(self, observation: Observation, legal_actions: Sequence[Any]) -> DurakAction:
        """As scripted, except continuing with a trump only once the deck is empty."""
        obs: Any = observation
        choice = super().act(observation, legal_actions)
        if obs.bout and obs.deck_count and isinstance(choice, Attack) and SUIT[choice.card] == trump_of(obs):
            return STOP if STOP in legal_actions else choice
        return choice
