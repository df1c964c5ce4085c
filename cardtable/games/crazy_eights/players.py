"""The Crazy Eights computer players by name, as ``CrazyEightsGame.bots`` offers them."""

from __future__ import annotations

from functools import partial

from cardtable.core.bot import BotFactory
from cardtable.games.crazy_eights.bots import FirstBot, HeuristicBot, TrackerBot
from cardtable.games.crazy_eights.deep_search import DeepSearchBot
from cardtable.games.crazy_eights.particle_search import ParticleSearchBot
from cardtable.games.crazy_eights.search import RaceSearchBot

#: ``heuristic`` stays first: the golden transcripts play the first bot named.
BOTS: dict[str, BotFactory] = {
    "heuristic": HeuristicBot,
    "tracker": TrackerBot,
    "first": FirstBot,
    "search": ParticleSearchBot,
    "search_quick": partial(ParticleSearchBot, sims=250, particles=60),
    "search_v1": RaceSearchBot,
    "search_v1_quick": partial(RaceSearchBot, sims=40),
    "search_deep": DeepSearchBot,
    "search_deep_quick": partial(DeepSearchBot, sims=250),
}
