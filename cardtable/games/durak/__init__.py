"""Durak (дурак), the simplified rules of the 2020 task; ``program`` is the 2020 program's flow and log."""

from cardtable.core import register
from cardtable.games.durak.game import DurakGame

GAME = register(DurakGame(), bots="cardtable.games.durak.players:BOTS")
