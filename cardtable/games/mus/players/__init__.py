"""The Mus computer players by name (``BOTS``), as the game registers them.

| name | what it is | role |
| --- | --- | --- |
| ``simple`` | thresholds on hand strength (``simple.py``) | the seed's bot; the reader's goal |
| ``careful`` | strength per lance, the partner, the score (``careful.py``) | the mus of ``search``, ``reader`` |
| ``counting`` | counts reyes, ases, pares and the juego total (``counting.py``) | baseline |
| ``search`` | envites by sampled showdowns (``search.py``) | the search every game offers |
| ``reader`` | exact lance chances read from the talk (``reader.py``, ``inference.py``) | the default |

``random`` is generic. ``simple`` stays first: the golden transcripts play the first bot named.
"""

from __future__ import annotations

from cardtable.core.bot import BotFactory
from cardtable.games.mus.players.careful import CarefulBot
from cardtable.games.mus.players.counting import CountingBot
from cardtable.games.mus.players.reader import ReaderBot
from cardtable.games.mus.players.search import ShowdownSearchBot
from cardtable.games.mus.players.simple import SimpleBot

BOTS: dict[str, BotFactory] = {"simple": SimpleBot, "careful": CarefulBot, "counting": CountingBot,
                               "search": ShowdownSearchBot, "reader": ReaderBot}

__all__ = ["BOTS"]
