"""The Mus threshold player ``simple``: cuts the mus with a good hand, keeps reyes and pares, bets by thresholds.

Hand strength in a lance is the share of all four-card hands this hand beats or
ties (:func:`cardtable.games.mus.rules.percentile`; holders only for pares and
juego). The bot only ever returns one of the legal actions it was given. The mus and the
discard follow the search playouts' rule of thumb (``mus.world.cuts_mus``, ``keep_discard``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from cardtable.core import Observation
from cardtable.games.mus import actions as A
from cardtable.games.mus.observation import MusObservation
from cardtable.games.mus.rules import HandValue, Lance, evaluate, percentile
from cardtable.games.mus.world import cuts_mus, keep_discard


def accept(legal: Sequence[Any]) -> Any:
    """The accepting answer among the legal actions (plain or "y no pierdo"), else "no quiero"."""
    return next((a for a in legal if isinstance(a, (A.Accept, A.AcceptNoLose))), A.Reject())


class SimpleBot:
    """Threshold play: strong hands cut, bet and accept; weak hands give mus, pass and refuse."""

    name = "simple"

    def __init__(self, seed: int = 0, *, bet_at: float = 0.8, accept_at: float = 0.6,
                 raise_at: float = 0.93, ordago_at: float = 0.99, accept_ordago_at: float = 0.8) -> None:
        self.rng = random.Random(seed)
        self.bet_at, self.accept_at, self.raise_at = bet_at, accept_at, raise_at
        self.ordago_at, self.accept_ordago_at = ordago_at, accept_ordago_at

    def act(self, observation: Observation, legal_actions: Sequence[Any]) -> Any:
        """One of ``legal_actions``."""
        assert isinstance(observation, MusObservation)
        legal = list(legal_actions)
        value = evaluate(observation.hand, observation.modalidad)
        if observation.phase == "mus_decision":
            choice: Any = A.CutMus() if self.is_good(value) or A.Mus() not in legal else A.Mus()
        elif observation.phase == "discard":
            choice = A.CutMus() if A.CutMus() in legal and self.is_good(value) else self.discard(observation)
        else:
            choice = self.speak(observation, value, legal)
        return choice if choice in legal else legal[0]

    @staticmethod
    def is_good(value: HandValue) -> bool:
        """Cut the mus with medias or better, a par of figures with juego, 31, or three reyes."""
        return cuts_mus(value)

    @staticmethod
    def discard(obs: MusObservation) -> A.Discard:
        """Keep reyes and cards that pair up; throw the rest (at least the weakest card)."""
        return A.Discard(keep_discard(obs.hand, obs.modalidad))

    def speak(self, obs: MusObservation, value: HandValue, legal: list[Any]) -> Any:
        """Bet, raise, accept or refuse by the hand's strength in the lance."""
        betting = obs.betting
        if betting is None:
            return legal[0]
        lance: Lance = betting.lance  # type: ignore[assignment]
        p = percentile(value, lance, obs.modalidad)
        if betting.status == "open":
            if p >= self.ordago_at:
                return A.Ordago()
            return A.Bet(2) if p >= self.bet_at else A.Pass()
        yes = accept(legal)
        if betting.ordago:
            return yes if p >= self.accept_ordago_at else A.Reject()
        if p >= self.raise_at:
            raises = [a for a in legal if isinstance(a, A.Raise)]
            if raises:
                return raises[0]
        threshold = self.accept_at + min(0.2, 0.02 * betting.proposed)
        return yes if p >= threshold else A.Reject()
