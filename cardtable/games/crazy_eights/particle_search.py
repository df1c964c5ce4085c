"""The Crazy Eights search that reads hands exactly (``search``): the deep search's playouts on particle deals.

The same flat Monte Carlo as ``deep_search.DeepSearchBot`` (candidates scored on common deals and
playout seeds, clearly worse ones culled, the value the chance of winning the game), but the deals
come from ``particles.ParticleFilter``: hypotheses of the other hands that a replay of the round
by the ``heuristic``'s rule reproduces exactly. When the filter has none (opponents who do not play
as the heuristic does, a stock rebuilt from the discards, a round joined in the middle) the deals
come from ``reading.ModelTracker``'s constraints, as in ``search_deep``; ``fallbacks`` counts those
decisions.

Options: ``sims`` (playouts per real choice), ``ms`` (a time cap; the best move so far is
returned), ``particles`` (hypotheses kept, N), ``tries`` (attempts to build one, per hypothesis
wanted: the cost cap), ``read`` (the fallback's reading: 1 plays and draws, 0 draws only),
``flat`` (accepted as 1 only), and the deep search's measured variants ``plan`` and ``last`` (off).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.core.bot import parse_bot_options
from cardtable.core.types import Seat
from cardtable.games.crazy_eights.bots import HeuristicBot
from cardtable.games.crazy_eights.deep_search import DeepSearchBot, DeepSearchOptions, deal_table
from cardtable.games.crazy_eights.observation import CrazyEightsObservation
from cardtable.games.crazy_eights.particles import ParticleFilter
from cardtable.games.crazy_eights.playout import Table
from cardtable.games.crazy_eights.reading import ModelTracker
from cardtable.games.crazy_eights.rules import SUIT_INDEX, cards_of, mask_of
from cardtable.games.crazy_eights.search import candidates_usual_first


@dataclass(frozen=True)
class ParticleSearchOptions(DeepSearchOptions):
    """The deep search's options (budget, time cap, reading) and the filter's size and cost cap."""

    particles: int = 200
    tries: int = 20

    def __post_init__(self) -> None:
        super().__post_init__()
        if not 1 <= self.particles <= 100_000:
            raise ValueError(f"search option particles must be 1 to 100000, not {self.particles}")
        if not 1 <= self.tries <= 10_000:
            raise ValueError(f"search option tries must be 1 to 10000, not {self.tries}")


def parse_particle_options(values: Mapping[str, Any]) -> ParticleSearchOptions:
    """Options from ``key=value`` data (strings are converted); ``ValueError`` in one line if wrong."""
    return parse_bot_options(ParticleSearchOptions, values)


class ParticleSearchBot(DeepSearchBot):
    """The deep search on deals drawn from a particle filter over the other hands (``ModelTracker`` as fallback)."""

    name = "search"
    accepts_options = True

    def __init__(self, seed: int = 0, **options: Any) -> None:
        settings = parse_particle_options(options)
        self.options = settings  # a DeepSearchOptions with the filter's fields
        self.rng = random.Random(seed)
        self.tracker = ModelTracker(read_plays=bool(settings.read))
        self.filter = ParticleFilter(settings.particles, settings.tries, seed)
        self.heuristic = HeuristicBot()
        self.sampler = deal_table
        self.worlds_done = 0
        self.seen_round = -1
        self.deal_size = 0

    @property
    def fallbacks(self) -> int:
        """Decisions whose deals came from the fallback sampler (no particle explained the round)."""
        return self.filter.fallbacks

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """The candidate with the best mean value over the sampled deals (the only legal action at once)."""
        obs: CrazyEightsObservation = observation
        if obs.seat is None:
            raise ValueError("the search bot plays a seat; a spectator's observation has none")
        if obs.round != self.seen_round:
            self.seen_round = obs.round
            self.deal_size = len(obs.hand) - obs.drawn_this_turn
        self.tracker.before_turn(obs)
        self.filter.before_turn(obs)
        moves = candidates_usual_first(obs, legal_actions, self.heuristic)
        if len(moves) == 1:
            action = moves[0]
        else:
            start, ms = time.perf_counter(), self.options.ms
            # Building particles may take half the time cap; the search has what is left.
            deadline = start + ms / 2000 if ms else math.inf
            self.sampler = self._particle_table if self.filter.update(obs, deadline) else deal_table
            action = self._search(obs, moves, start + ms / 1000 if ms else math.inf)
        self.tracker.after_action(obs, action)
        self.filter.after_action(obs, action)
        return action

    def _particle_table(self, obs: CrazyEightsObservation, rng: random.Random, forbidden: Mapping[Seat, int]) -> Table:
        """A playout table from one particle: its hands for the others, its stock drawn at random."""
        me = obs.seat if obs.seat is not None else 0
        hands, stock = self.filter.particles[int(rng.random() * len(self.filter.particles))]
        table_hands = list(hands)
        table_hands[me] = mask_of(obs.hand)
        return Table(table_hands, cards_of(stock), mask_of(obs.discard_pile), obs.top, SUIT_INDEX[obs.suit],
                     obs.to_act if obs.to_act is not None else me, obs.drawn_this_turn, obs.passes_in_row, 0,
                     obs.draw_until_playable, random_draws=True)


__all__ = ["ParticleSearchBot", "ParticleSearchOptions", "parse_particle_options"]
