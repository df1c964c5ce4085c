"""The Crazy Eights computer players by name (``BOTS``, registered with the game in ``crazy_eights/__init__``).

============  ================================================================================  ==================
name          what it is                                                                        role
============  ================================================================================  ==================
heuristic     costliest card first, eights kept for the endgame, names its longest suit         the usual opponent
first         the first legal action (lowest card id)                                           baseline
search        flat Monte Carlo on deals read exactly (particles): 1000 playouts, 200 particles  default
search_quick  the same with 250 playouts and 60 particles per real choice                       fast
============  ================================================================================  ==================

Modules: ``heuristic`` and ``baselines`` (the rule players); ``search`` (the search bot, its
candidates and its fallback deals), ``particles`` (exact reading by replaying the heuristic),
``reading`` (constraints read by the heuristic's rules, the fallback), ``playout`` (a round on
bitmasks) and ``win_chance`` (the value of a playout); ``_fast`` is their inner loops in C, used where
built (``compiled``), with the same results. The figures are in docs/bots.md.
"""

from __future__ import annotations

from functools import partial

from cardtable.core.bot import BotFactory
from cardtable.games.crazy_eights.players.baselines import FirstBot
from cardtable.games.crazy_eights.players.heuristic import HeuristicBot
from cardtable.games.crazy_eights.players.search import ParticleSearchBot

#: ``heuristic`` stays first: the golden transcripts play the first bot named.
BOTS: dict[str, BotFactory] = {
    "heuristic": HeuristicBot,
    "first": FirstBot,
    "search": ParticleSearchBot,
    "search_quick": partial(ParticleSearchBot, sims=250, particles=60),
}
