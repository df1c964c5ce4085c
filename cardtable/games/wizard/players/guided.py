"""Wizard's search guided by a ranking of the moves (the learned net's, in ``cardtable.bots.guided``).

The PIMC search (``search.PimcBot``) with the ranker in place of the heuristic where the search
has no say (the bid and the trump choice) and of the playout policy as the card that stands unless
another beats it by ``z`` paired standard errors on the same weighted deals. The ranker is any object
with ``ranking(observation, legal) -> [index, ...]`` (players never import ``cardtable.bots``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardtable.cards import CardId
from cardtable.core.bot import Ranker
from cardtable.games.wizard.actions import Play, WizardAction
from cardtable.games.wizard.observation import WizardObservation
from cardtable.games.wizard.players.search import PimcBot


class NetGuidedPimc(PimcBot):
    """``PimcBot`` whose bids, trump choices and default card are the ranker's."""

    name = "learned_search"

    def __init__(self, ranker: Ranker, z: float, seed: int = 0, **options: Any) -> None:
        super().__init__(seed, **{"z": z, **options})
        self.ranker = ranker

    def check_options(self, options: Any) -> None:
        """The ranker's refusal of a table it was not made for."""
        self.ranker.check_options(options)

    def _call(self, obs: WizardObservation, legal_actions: Sequence[WizardAction]) -> WizardAction:
        """The ranker's bid or trump."""
        return legal_actions[self.ranker.ranking(obs, legal_actions)[0]]

    def _default_card(self, obs: WizardObservation, legal_actions: Sequence[WizardAction]) -> CardId:
        """The ranker's card."""
        favourite = legal_actions[self.ranker.ranking(obs, legal_actions)[0]]
        assert isinstance(favourite, Play)
        return favourite.card


__all__ = ["NetGuidedPimc"]
