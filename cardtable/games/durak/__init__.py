"""Durak (дурак), the simplified rules of the 2020 task; ``program`` is the 2020 program itself."""

from cardtable.core import register
from cardtable.games.durak.game import DurakGame

GAME = register(DurakGame())
