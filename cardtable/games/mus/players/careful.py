"""The Mus heuristic ``careful``: hand strength per lance, the partner's declarations and the score."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cardtable.core import Observation
from cardtable.games.mus import actions as A
from cardtable.games.mus.observation import MusObservation
from cardtable.games.mus.players.simple import SimpleBot, accept
from cardtable.games.mus.rules import HandValue, Lance, evaluate, percentile


def careful_mus(obs: MusObservation, value: Any, legal: list[Any]) -> Any:
    """The mus or the discard of ``careful``: cut with a good hand, else ``simple``'s discard."""
    if obs.phase == "mus_decision":
        return A.CutMus() if SimpleBot.is_good(value) or A.Mus() not in legal else A.Mus()
    choice: Any = A.CutMus() if A.CutMus() in legal and SimpleBot.is_good(value) else SimpleBot.discard(obs)
    return choice if choice in legal else legal[0]


def careful_turn(observation: Observation, legal_actions: Sequence[Any],
                 speak: Callable[[MusObservation, HandValue, list[Any]], Any]) -> Any:
    """A turn of ``careful`` and the players built on it: the mus and the discard as ``careful``; in a
    lance, ``speak``'s word when it is legal; the first legal action otherwise."""
    assert isinstance(observation, MusObservation)
    obs, legal = observation, list(legal_actions)
    value = evaluate(obs.hand, obs.modalidad)
    if obs.phase in ("mus_decision", "discard"):
        return careful_mus(obs, value, legal)
    if obs.betting is None or obs.seat is None:
        return legal[0]
    choice = speak(obs, value, legal)
    return choice if choice in legal else legal[0]


class CarefulBot:
    """Knows its hand's strength per lance (the share of hands it beats) and the score.

    Cuts the mus with good hands; envida and accepts by strength, the partner's declaration
    counting for pares and juego; raises only with a very strong lance; goes órdago only when it
    pays (a near-certain lance, or the rivals about to win anyway), and accepts one only when the
    lance is likely won or when refusing would lose the game all the same.
    """

    name = "careful"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, observation: Observation, legal_actions: Sequence[Any]) -> Any:
        """One of ``legal_actions``."""
        return careful_turn(observation, legal_actions, self._speak)

    def _strength(self, obs: MusObservation, value: HandValue, lance: Lance) -> float:
        """The share of hands this one beats in ``lance``, a little more with a partner who holds too."""
        p = percentile(value, lance, obs.modalidad)
        seat = obs.seat if obs.seat is not None else 0
        partner = (seat + 2) % 4
        declared = obs.pares if lance == "pares" else obs.juego if lance == "juego" else None
        if declared is not None and declared[partner]:
            p = 1 - (1 - p) * 0.6
        if seat == obs.mano:
            p = min(1.0, p + 0.03)  # the mano wins ties
        return p

    def _speak(self, obs: MusObservation, value: HandValue, legal: list[Any]) -> Any:
        betting = obs.betting
        assert betting is not None
        lance: Lance = betting.lance  # type: ignore[assignment]
        p = self._strength(obs, value, lance)
        seat = obs.seat if obs.seat is not None else 0
        mine, theirs = obs.tanteo[seat & 1], obs.tanteo[1 - (seat & 1)]
        rivals_close = obs.target - theirs <= 6
        if betting.status == "open":
            if A.Ordago() in legal and (p >= 0.985 or (rivals_close and p >= 0.8 and obs.target - mine > 10)):
                return A.Ordago()
            if p >= 0.9:
                bets = [a for a in legal if isinstance(a, A.Bet)]
                return bets[min(len(bets) - 1, 2)] if bets else A.Pass()
            return A.Bet(2) if p >= 0.72 else A.Pass()
        if betting.ordago:
            need = 0.62 if rivals_close else 0.88
            return accept(legal) if p >= need else A.Reject()
        if p >= 0.95:
            raises = [a for a in legal if isinstance(a, A.Raise)]
            if raises:
                return raises[0]
        return accept(legal) if p >= 0.5 + min(0.25, 0.025 * betting.proposed) else A.Reject()
