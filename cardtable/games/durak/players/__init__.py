"""The Durak computer players by name (``BOTS``), as the game registers them.

| name | what it is | role |
| --- | --- | --- |
| ``scripted`` | the 2020 program's player (``scripted.py``) | the reference log's player |
| ``heuristic`` | the scripted player keeping its trumps (``scripted.py``) | the search goal's opponent |
| ``careful`` | defends when it can, leads low pairs (``careful.py``) | ``endgame``'s early play |
| ``endgame`` | ``careful``, then the known ending read out (``endgame.py``) | the default |
| ``lowest`` | the lowest legal card, take when nothing beats (``baselines.py``) | baseline |

``search`` and ``search_quick`` are the generic tree search (``cardtable.bots.search``) over
``durak.world``; ``random`` is generic too. ``scripted`` stays first: the golden transcripts
play the first bot named.
"""

from __future__ import annotations

from cardtable.core.bot import BotFactory
from cardtable.games.durak.players.baselines import LowestBot
from cardtable.games.durak.players.careful import CarefulBot
from cardtable.games.durak.players.endgame import EndgameBot
from cardtable.games.durak.players.scripted import HeuristicBot, ScriptedBot

BOTS: dict[str, BotFactory] = {"scripted": ScriptedBot, "heuristic": HeuristicBot, "careful": CarefulBot,
                               "endgame": EndgameBot, "lowest": LowestBot}

__all__ = ["BOTS"]
