"""Mus under the rules of the Federación Española de Mus (FEM): rules, flow and options; the bots in ``players``.

``play.play_game(bots=[...], seed=...)`` plays one whole game (see docs/rules/mus.md).
"""

from cardtable.core import register
from cardtable.games.mus.game import MusGame

GAME = register(MusGame(), bots="cardtable.games.mus.players:BOTS")
