"""Kaiser: four players in partnerships, 32 cards, the 5♥ worth five and the 3♠ costing three."""

from cardtable.core import register
from cardtable.games.kaiser.game import KaiserGame

GAME = register(KaiserGame(), bots="cardtable.games.kaiser.players:BOTS")
