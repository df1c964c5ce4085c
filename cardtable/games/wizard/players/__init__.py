"""Wizard's computer players by name, registered with the game (``cardtable.games.wizard``).

==================  ========================================================================  =============
name                what it is                                                                role
==================  ========================================================================  =============
``heuristic``       fitted trick counts for bids (``bid_model.py``, ``bid_table.py``); a      the heuristic
                    one-step lookahead that chases or ducks to land the bid
                    (``heuristic.py``)
``search``          every candidate card scored on 256 sampled deals played out by a fast     the default
                    round simulator, deals weighted by the bids (PIMC, ``search.py``,
                    ``playout.py``)
``search_quick``    the same on 8 sampled deals, overriding its policy more readily           quick search
                    (``z=1``, ``cover=0``)
``chase_duck``      bids wizards and high trumps; strongest card while short of the bid,      baseline
                    else weakest (``baselines.py``)
``lowest``          bids its wizards, always the lowest card (``baselines.py``)               baseline
==================  ========================================================================  =============

``calibrate.py`` is the development tool that fits ``bid_table.py`` by the heuristic's self-play;
``_fast`` is the search's loop of deals and playouts in C, used where built (``compiled.py``), with the
same results.
"""

from __future__ import annotations

from cardtable.core.bot import BotFactory
from cardtable.games.wizard.players.baselines import ChaseDuckBot, LowestBot
from cardtable.games.wizard.players.heuristic import HeuristicBot
from cardtable.games.wizard.players.search import PimcBot, QuickPimcBot

#: ``heuristic`` first: the golden transcripts play the first bot named.
BOTS: dict[str, BotFactory] = {"heuristic": HeuristicBot, "search": PimcBot, "search_quick": QuickPimcBot,
                               "chase_duck": ChaseDuckBot, "lowest": LowestBot}
