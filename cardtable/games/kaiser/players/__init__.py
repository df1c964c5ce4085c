"""Kaiser's computer players by name, registered with the game (``cardtable.games.kaiser``).

==================  ========================================================================  =============
name                what it is                                                                role
==================  ========================================================================  =============
``heuristic``       rates each suit as trump, bids what the rating and the partner's share    the heuristic
                    cover, chases the 5♥, ducks the 3♠ (``heuristic.py``)
``lowest``          a plain count to bid, its longest suit as trump, always the lowest card   baseline
                    (``baselines.py``)
``search``          not here: the generic tree search (``cardtable.bots.search``; 500 and 40  the default
``search_quick``    simulations, ``catalog.SEARCH_OPTIONS``) with Kaiser's playout, value     quick search
                    and bidding-fitted worlds from ``KaiserGame.search_hints()``
                    (``world.py``, ``playout.py``)
==================  ========================================================================  =============
"""

from __future__ import annotations

from cardtable.core.bot import BotFactory
from cardtable.games.kaiser.players.baselines import LowestBot
from cardtable.games.kaiser.players.heuristic import HeuristicBot

#: ``heuristic`` first: the golden transcripts play the first bot named.
BOTS: dict[str, BotFactory] = {"heuristic": HeuristicBot, "lowest": LowestBot}
