"""The Crazy Eights search guided by a ranking of the moves (the learned net's, in ``cardtable.bots.guided``).

The particle search (``search.ParticleSearchBot``) unchanged, except for its default: the ranker's
favourite candidate comes first, and the move with the best mean replaces it only when its paired
gain on the same deals is at least ``z`` standard errors (a candidate the search culled as clearly
worse is replaced at once). A game's rules never import a player, and players never import
``cardtable.bots``: the ranker is any object with ``ranking(observation, legal) -> [index, ...]``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from cardtable.core.bot import Ranker
from cardtable.games.crazy_eights.actions import Action
from cardtable.games.crazy_eights.observation import CrazyEightsObservation
from cardtable.games.crazy_eights.players.search import ParticleSearchBot, candidates


class NetGuidedSearch(ParticleSearchBot):
    """``ParticleSearchBot`` with the ranker's move as the default and a paired test to overrule it."""

    name = "learned_search"

    def __init__(self, ranker: Ranker, z: float, seed: int = 0, **options: Any) -> None:
        super().__init__(seed, **options)
        self.ranker = ranker
        self.z = z

    def check_options(self, options: Any) -> None:
        """The ranker's refusal of a table it was not made for."""
        self.ranker.check_options(options)

    def _candidates(self, obs: CrazyEightsObservation, legal: Sequence[Action]) -> list[Action]:
        moves = candidates(obs, legal)
        if len(moves) > 1:
            first = moves[self.ranker.ranking(obs, moves)[0]]
            moves.sort(key=lambda m: m != first)
        return moves

    def _search(self, obs: CrazyEightsObservation, moves: list[Action], deadline: float) -> Action:
        alive, values = self._score(obs, moves, deadline)
        means = [math.fsum(v) / len(v) if v else -math.inf for v in values]
        best = max(alive, key=lambda i: (means[i], -i))
        if best == 0 or 0 not in alive:
            return moves[best]
        n = min(len(values[0]), len(values[best]))  # the deals both were scored on, in order
        diffs = [values[best][j] - values[0][j] for j in range(n)]
        if n < 2:
            return moves[0]
        gain = math.fsum(diffs) / n
        var = math.fsum((d - gain) ** 2 for d in diffs) / (n - 1)
        return moves[best] if gain > self.z * math.sqrt(var / n) else moves[0]


__all__ = ["NetGuidedSearch"]
