"""The Crazy Eights computer opponent (``heuristic``).

It sheds the most expensive card it can, keeps its eights (50 points each, and a
sure play later) until an opponent is close to going out or nothing else plays,
and names the suit it holds most of.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardtable.core.types import CardId
from cardtable.games.crazy_eights.actions import Play, PlayEight
from cardtable.games.crazy_eights.observation import CrazyEightsObservation
from cardtable.games.crazy_eights.rules import PENALTY, SUIT_NAMES, SUIT_OF, is_eight

#: An opponent holding this many cards or fewer may go out on his next turn: time to unload the eights.
#: (Self-play against random bots: 1 or 0 beat 2 and more; saving eights longer pays.)
ENDGAME_CARDS = 1


def best_suit(hand: Sequence[CardId], without: CardId) -> int:
    """The suit the hand holds most of, eights aside (ties: more penalty points, then suit order)."""
    counts = [0, 0, 0, 0]
    points = [0, 0, 0, 0]
    for card in hand:
        if card != without and not is_eight(card):
            counts[SUIT_OF[card]] += 1
            points[SUIT_OF[card]] += PENALTY[card]
    return max(range(4), key=lambda s: (counts[s], points[s], -s))


def is_endgame(observation: CrazyEightsObservation) -> bool:
    """Whether some opponent is down to ``ENDGAME_CARDS`` cards or fewer."""
    return any(n <= ENDGAME_CARDS for s, n in enumerate(observation.hand_counts) if s != observation.seat)


class HeuristicBot:
    """Most expensive card first; eights saved for the endgame; names its longest suit."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed  # deterministic: it draws no random numbers

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """One of ``legal_actions``; Draw or Pass only when it is the sole choice."""
        plain = [a for a in legal_actions if isinstance(a, Play)]
        eights = [a for a in legal_actions if isinstance(a, PlayEight)]
        if not plain and not eights:
            return legal_actions[0]
        if plain and not (eights and is_endgame(observation)):
            return self._best_plain(observation.hand, plain)
        card = eights[0].card
        return PlayEight(card, SUIT_NAMES[best_suit(observation.hand, card)])

    @staticmethod
    def _best_plain(hand: Sequence[CardId], plays: list[Play]) -> Play:
        """The costliest card; among equals, the one leaving us most cards of the suit it sets."""
        held = [0, 0, 0, 0]
        for card in hand:
            if not is_eight(card):
                held[SUIT_OF[card]] += 1
        return max(plays, key=lambda a: (PENALTY[a.card], held[SUIT_OF[a.card]], -a.card))

