"""Crazy Eights: shed your hand; eights are wild and name the suit in force."""

from cardtable.core import register
from cardtable.games.crazy_eights.game import CrazyEightsGame

GAME = register(CrazyEightsGame(), bots="cardtable.games.crazy_eights.players:BOTS")
