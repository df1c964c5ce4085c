"""Mus under the rules of the Federación Española de Mus (FEM): engine, rules, options and bots.

    from cardtable.games.mus import play_game, SimpleBot
    result = play_game(bots=[SimpleBot(), SimpleBot(), SimpleBot(), SimpleBot()], seed=12345)
    print(result.winner, result.final_score, len(result.events))
"""

from cardtable.core import register
from cardtable.games.mus.bots import SimpleBot
from cardtable.games.mus.fsm import ALLOWED, IllegalTransition, Phase
from cardtable.games.mus.game import MusGame
from cardtable.games.mus.options import MusGameOptions
from cardtable.games.mus.play import PlayResult, play_game

GAME = register(MusGame())

__all__ = [
    "ALLOWED", "GAME", "IllegalTransition", "MusGame", "MusGameOptions", "Phase", "PlayResult", "SimpleBot",
    "play_game",
]
