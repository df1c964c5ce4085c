"""The Mus baseline ``counting``: counts reyes, ases, pares and the juego total, and plays like a club player."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardtable.core import Observation
from cardtable.games.mus import actions as A
from cardtable.games.mus.observation import MusObservation
from cardtable.games.mus.players.simple import SimpleBot, accept
from cardtable.games.mus.rules import AS, DUPLES, MEDIAS, PAR, REY, HandValue, evaluate


class CountingBot:
    """A count-based baseline: strengths from counts alone, played the way a club player would.

    Grande by the number of reyes, chica by the number of ases, pares by their kind, juego by the
    total (31 best), punto by the total. Cuts the mus with two good lances (``simple``'s discard
    otherwise), envida 2 and accepts with a strong lance (0.7 on the count scale: two reyes, two
    ases, medias, 31/32/40), raises with a very strong one (0.9), goes órdago with a near-certain
    one (0.95: three reyes or ases and more, duples, 31) and accepts an órdago only with four reyes
    or four ases.
    """

    name = "counting"
    bet_at, accept_at, raise_at, ordago_at, accept_ordago_at = 0.7, 0.7, 0.9, 0.95, 1.0

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    @staticmethod
    def strength(value: HandValue, lance: str) -> float:
        """The hand's strength in ``lance`` on a 0–1 scale, from counts alone."""
        if lance == "grande":
            return (0.0, 0.35, 0.7, 0.9, 1.0)[value.count(REY)]
        if lance == "chica":
            return (0.0, 0.35, 0.7, 0.9, 1.0)[value.count(AS)]
        if lance == "pares":
            return {PAR: 0.5, MEDIAS: 0.8, DUPLES: 0.95}.get(value.pares_kind, 0.0)
        if lance == "juego":
            return {31: 0.95, 32: 0.8, 40: 0.65}.get(value.total, 0.45 if value.has_juego else 0.0)
        return min(1.0, value.total / 31)

    def act(self, observation: Observation, legal_actions: Sequence[Any]) -> Any:
        """One of ``legal_actions``."""
        assert isinstance(observation, MusObservation)
        legal = list(legal_actions)
        value = evaluate(observation.hand, observation.modalidad)
        if observation.phase in ("mus_decision", "discard"):
            return self._mus(observation, value, legal)
        betting = observation.betting
        if betting is None:
            return legal[0]
        s = self.strength(value, betting.lance)
        if betting.status == "open":
            choice: Any = A.Ordago() if s >= self.ordago_at else A.Bet(2) if s >= self.bet_at else A.Pass()
        elif betting.ordago:
            choice = accept(legal) if s >= self.accept_ordago_at else A.Reject()
        else:
            raises = [a for a in legal if isinstance(a, A.Raise)]
            choice = raises[0] if raises and s >= self.raise_at else accept(legal) if s >= self.accept_at \
                else A.Reject()
        return choice if choice in legal else legal[0]

    def _mus(self, obs: MusObservation, value: HandValue, legal: list[Any]) -> Any:
        """Cut with two lances of 0.7 or more; else mus, or ``simple``'s discard."""
        good = sum(self.strength(value, lance) >= 0.7 for lance in ("grande", "chica", "pares", "juego"))
        if good >= 2 and A.CutMus() in legal:
            return A.CutMus()
        if obs.phase == "mus_decision":
            return A.Mus() if A.Mus() in legal else legal[0]
        choice: Any = SimpleBot.discard(obs)
        return choice if choice in legal else legal[0]
