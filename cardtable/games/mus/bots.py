"""SimpleBot: cuts the mus with a good hand, keeps reyes and pares, bets and answers by thresholds.

Hand strength in a lance is the share of all four-card hands this hand beats or
ties (:func:`cardtable.games.mus.rules.percentile`; holders only for pares and
juego). The bot only ever returns one of the legal actions it was given.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from cardtable.core import Observation
from cardtable.games.mus import actions as A
from cardtable.games.mus.observation import MusObservation
from cardtable.games.mus.rules import GRANDE_VALUE, MEDIAS, PAR, REY, HandValue, Lance, evaluate, percentile


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
        if value.pares_kind >= MEDIAS or value.total == 31 or value.count(REY) >= 3:
            return True
        return value.pares_kind == PAR and value.has_juego

    def discard(self, obs: MusObservation) -> A.Discard:
        """Keep reyes and cards that pair up; throw the rest (at least the weakest card)."""
        grande = GRANDE_VALUE[obs.modalidad]
        ranks = Counter(grande[c % 10] for c in obs.hand)
        keep = [c for c in obs.hand if grande[c % 10] == REY or ranks[grande[c % 10]] >= 2]
        out = [c for c in obs.hand if c not in keep]
        if not out:
            out = [min(obs.hand, key=lambda c: (grande[c % 10] == REY, ranks[grande[c % 10]], grande[c % 10]))]
        return A.Discard(tuple(sorted(out)))

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
        accept = next((a for a in legal if isinstance(a, (A.Accept, A.AcceptNoLose))), A.Reject())
        if betting.ordago:
            return accept if p >= self.accept_ordago_at else A.Reject()
        if p >= self.raise_at:
            raises = [a for a in legal if isinstance(a, A.Raise)]
            if raises:
                return raises[0]
        threshold = self.accept_at + min(0.2, 0.02 * betting.proposed)
        return accept if p >= threshold else A.Reject()
