"""Wizard's search guided by a ranking of the moves (the learned net's, in ``cardtable.bots.guided``).

The PIMC search (``search.PimcBot``) with the ranker in place of the heuristic where the search
has no say (the bid and the trump choice) and of the playout policy as the card that stands unless
another beats it by ``z`` paired standard errors on the same weighted deals. The ranker is any object
with ``ranking(observation, legal) -> [index, ...]`` (players never import ``cardtable.bots``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from cardtable.core.observation import Observation
from cardtable.games.wizard.actions import Play, WizardAction
from cardtable.games.wizard.observation import WizardObservation
from cardtable.games.wizard.players.search import PimcBot, distinct_cards, representative


class Ranker(Protocol):
    """Ranks legal moves, the favourite first."""

    def ranking(self, observation: Any, legal_actions: Sequence[Any]) -> list[int]: ...

    def check_options(self, options: Any) -> None: ...


class NetGuidedPimc(PimcBot):
    """``PimcBot`` whose bids, trump choices and default card are the ranker's."""

    name = "learned_search"

    def __init__(self, ranker: Ranker, z: float, seed: int = 0, **options: Any) -> None:
        super().__init__(seed, **{"z": z, **options})
        self.ranker = ranker

    def check_options(self, options: Any) -> None:
        """The ranker's refusal of a table it was not made for."""
        self.ranker.check_options(options)

    def act(self, observation: Observation, legal_actions: Sequence[WizardAction]) -> WizardAction:
        """The ranker's bid or trump; its card unless the search finds a clearly better one."""
        assert isinstance(observation, WizardObservation)
        obs = observation
        if obs.seat is None:
            raise ValueError("the search bot plays a seat; a spectator's observation has none")
        if len(legal_actions) == 1:
            return legal_actions[0]
        favourite = legal_actions[self.ranker.ranking(obs, legal_actions)[0]]
        if not isinstance(favourite, Play):
            return favourite
        cards = distinct_cards(obs, [a.card for a in legal_actions if isinstance(a, Play)])
        if len(cards) == 1:
            return favourite
        default = representative(favourite.card, cards)
        best = self._search(obs, cards, default)
        return favourite if best == default else Play(best)


__all__ = ["NetGuidedPimc"]
