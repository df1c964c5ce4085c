"""The Durak default ``endgame``: ``careful`` while the deck lasts, then the known ending read out to the end."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from cardtable.core.observation import Observation
from cardtable.games.durak import world
from cardtable.games.durak.actions import TAKE, Attack, Beat, DurakAction
from cardtable.games.durak.game import DurakGame
from cardtable.games.durak.observation import trump_of
from cardtable.games.durak.players.careful import CarefulBot
from cardtable.games.durak.rules import SORT_KEY, SUIT

#: While the deck holds this many cards or more, a defender who could beat only with a trump takes instead.
SAVE_TRUMPS_DECK = 6
#: A playout of the endgame stops after this many actions (a cycle of takes; counted as no result).
ENDGAME_PLAYOUT_CAP = 400

_GAME = DurakGame()
_NO_RNG = random.Random(0)  # the playout policy draws no random numbers; it takes one by its signature


class EndgameBot(CarefulBot):
    """Careful while the deck lasts (a trump is too dear to beat with early); reads out the endgame.

    Once the deck is empty and one opponent is left, every card is known: his hand is all the cards
    not seen elsewhere. Each legal action is then played out to the end of the game, both sides
    following the search bot's playout policy (lowest beating card or take; attack low), and the
    bot keeps the careful choice unless another action's playout ends better (won, then not lost).
    What search does differently from ``careful`` is mostly here: playing the endgame alone with
    search turned ``careful`` into a clear winner (see docs/bots.md), and this reading gets most of it.
    """

    name = "endgame"

    def act(self, observation: Observation, legal_actions: Sequence[Any]) -> DurakAction:
        """One of ``legal_actions``."""
        obs: Any = observation
        choice = self._early(obs, legal_actions)
        if len(legal_actions) == 1 or not self.known_endgame(obs):
            return choice
        state = world.sample_world(obs, random.Random(0))  # the deck is empty: the one consistent world
        values = {a: read_out(state, obs.seat, a) for a in legal_actions}
        best = max(values.values())
        if values[choice] == best:
            return choice
        key = SORT_KEY[trump_of(obs)]
        best_actions: list[DurakAction] = [a for a in legal_actions if values[a] == best]
        return min(best_actions, key=lambda a: (not isinstance(a, (Attack, Beat)), key[getattr(a, "card", 0)]))

    def _early(self, obs: Any, legal_actions: Sequence[Any]) -> DurakAction:
        """The careful choice, but take rather than spend a trump while the deck is long."""
        choice = super().act(obs, legal_actions)
        trump = trump_of(obs)
        if isinstance(choice, Beat) and SUIT[choice.card] == trump and obs.deck_count >= SAVE_TRUMPS_DECK:
            return TAKE
        return choice

    @staticmethod
    def known_endgame(obs: Any) -> bool:
        """Whether every card is known: the deck is empty and exactly one other seat holds cards."""
        if obs.deck_count or obs.seat is None:
            return False
        return sum(1 for s, n in enumerate(obs.hand_counts) if s != obs.seat and n) == 1


def read_out(state: Any, seat: int, action: DurakAction) -> float:
    """The game value for ``seat`` after ``action`` and a playout of the search policy to the end."""
    state, _ = _GAME.apply_unchecked(state, seat, action)
    for _ in range(ENDGAME_PLAYOUT_CAP):
        actor = _GAME.to_act(state)
        if actor is None:
            break
        move = world.playout_policy(state, actor, _GAME.legal_actions(state, actor), _NO_RNG)
        state, _ = _GAME.apply_unchecked(state, actor, move)
    return world.game_value(state, seat)
