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
from cardtable.core.bot import option_number
from cardtable.games.mus import actions as A
from cardtable.games.mus.observation import MusObservation
from cardtable.games.mus.rules import (
    AS,
    DUPLES,
    GRANDE_VALUE,
    MEDIAS,
    PAR,
    REY,
    HandValue,
    Lance,
    best_seat,
    evaluate,
    holds,
    percentile,
)


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


def _accept(legal: list[Any]) -> Any:
    """The accepting answer among the legal actions (plain or "y no pierdo")."""
    return next((a for a in legal if isinstance(a, (A.Accept, A.AcceptNoLose))), A.Reject())


class CountingV1Bot:
    """The first count-based baseline (kept for comparisons): a strawman that refuses too much.

    Grande by the number of reyes, chica by the number of ases, pares by their kind, juego by the
    total (31 best), punto by the total. Cuts the mus with two good lances, envida 2 with a strong
    lance, accepts with a fair one, never raises or goes órdago, accepts an órdago only with a
    near-certain lance.
    """

    name = "counting_v1"

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
            good = sum(self.strength(value, lance) >= 0.7 for lance in ("grande", "chica", "pares", "juego"))
            if good >= 2 and A.CutMus() in legal:
                return A.CutMus()
            if observation.phase == "mus_decision":
                return A.Mus() if A.Mus() in legal else legal[0]
            choice: Any = SimpleBot().discard(observation)
            return choice if choice in legal else legal[0]
        betting = observation.betting
        if betting is None:
            return legal[0]
        s = self.strength(value, betting.lance)
        if betting.status == "open":
            choice = A.Bet(2) if s >= 0.7 else A.Pass()
        elif betting.ordago:
            choice = _accept(legal) if s >= 0.95 else A.Reject()
        else:
            choice = _accept(legal) if s >= 0.5 else A.Reject()
        return choice if choice in legal else legal[0]


class CountingBot(CountingV1Bot):
    """A count-based baseline: the same counts as ``counting_v1``, played the way a club player would.

    Cuts the mus with two good lances, envida 2 and accepts with a strong lance (0.7 on the count
    scale: two reyes, two ases, medias, 31/32/40), raises with a very strong one (0.9), goes
    órdago with a near-certain one (0.95: three reyes or ases and more, duples, 31) and accepts an
    órdago only with four reyes or four ases.
    """

    name = "counting"
    bet_at, accept_at, raise_at, ordago_at, accept_ordago_at = 0.7, 0.7, 0.9, 0.95, 1.0

    def act(self, observation: Observation, legal_actions: Sequence[Any]) -> Any:
        """One of ``legal_actions``."""
        assert isinstance(observation, MusObservation)
        betting = observation.betting
        if observation.phase in ("mus_decision", "discard") or betting is None:
            return super().act(observation, legal_actions)
        legal = list(legal_actions)
        s = self.strength(evaluate(observation.hand, observation.modalidad), betting.lance)
        if betting.status == "open":
            choice: Any = A.Ordago() if s >= self.ordago_at else A.Bet(2) if s >= self.bet_at else A.Pass()
        elif betting.ordago:
            choice = _accept(legal) if s >= self.accept_ordago_at else A.Reject()
        else:
            raises = [a for a in legal if isinstance(a, A.Raise)]
            choice = raises[0] if raises and s >= self.raise_at else _accept(legal) if s >= self.accept_at \
                else A.Reject()
        return choice if choice in legal else legal[0]


def careful_mus(obs: MusObservation, value: Any, legal: list[Any]) -> Any:
    """The mus or the discard of ``careful``: cut with a good hand, else ``simple``'s discard."""
    if obs.phase == "mus_decision":
        return A.CutMus() if SimpleBot.is_good(value) or A.Mus() not in legal else A.Mus()
    choice: Any = A.CutMus() if A.CutMus() in legal and SimpleBot.is_good(value) else SimpleBot().discard(obs)
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
        assert isinstance(observation, MusObservation)
        obs, legal = observation, list(legal_actions)
        value = evaluate(obs.hand, obs.modalidad)
        if obs.phase in ("mus_decision", "discard"):
            return careful_mus(obs, value, legal)
        if obs.betting is None:
            return legal[0]
        choice = self._speak(obs, value, legal)
        return choice if choice in legal else legal[0]

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
            return _accept(legal) if p >= need else A.Reject()
        if p >= 0.95:
            raises = [a for a in legal if isinstance(a, A.Raise)]
            if raises:
                return raises[0]
        return _accept(legal) if p >= 0.5 + min(0.25, 0.025 * betting.proposed) else A.Reject()


class ShowdownSearchBot(CarefulBot):
    """Envites and órdagos by sampled showdowns; the mus and discards as ``careful``.

    For a betting decision it draws ``samples`` deals of the unseen cards consistent with the
    pares/juego declarations (``mus.world.sample_hands``), plays each lance's showdown (the
    mano's tie rule included) and so estimates the chance ``p`` that its pair wins the lance. Then
    it compares expected tantos: accepting an envite of ``n`` is worth ``(2p - 1) n`` against the
    deje lost by refusing; an órdago is accepted or launched when ``p`` beats the chance of winning
    the game by playing on, estimated from the tanteo.
    """

    name = "search"
    accepts_options = True

    def __init__(self, seed: int = 0, *, samples: int | str = 200) -> None:
        super().__init__(seed)
        self.samples = int(option_number(int, samples, "search option samples"))
        if self.samples < 1:
            raise ValueError(f"search option samples must be at least 1, not {self.samples}")
        self.rng = random.Random(seed)

    def win_chance(self, obs: MusObservation, lance: Lance) -> float:
        """The share of sampled deals in which this seat's pair wins ``lance``."""
        from cardtable.games.mus.world import sample_hands

        seat = obs.seat if obs.seat is not None else 0
        order = [(obs.mano + k) % 4 for k in range(4)]
        wins = 0
        for _ in range(self.samples):
            hands, _ = sample_hands(obs, self.rng)
            values = [evaluate(h, obs.modalidad) for h in hands]
            holders = [x for x in order if holds(values[x], lance)]
            best = best_seat(values, lance, holders)
            wins += best is not None and best % 2 == seat % 2
        return wins / self.samples

    def _speak(self, obs: MusObservation, value: HandValue, legal: list[Any]) -> Any:
        betting = obs.betting
        assert betting is not None
        lance: Lance = betting.lance  # type: ignore[assignment]
        p = self.win_chance(obs, lance)
        seat = obs.seat if obs.seat is not None else 0
        mine, theirs = obs.tanteo[seat & 1], obs.tanteo[1 - (seat & 1)]
        if betting.status == "open":
            if A.Ordago() in legal and p >= 0.93 and p > self._play_on(obs, mine, theirs) + 0.1:
                return A.Ordago()
            if p >= 0.9:
                bets = [a for a in legal if isinstance(a, A.Bet)]
                return bets[min(len(bets) - 1, 2)] if bets else A.Pass()
            return A.Bet(2) if p >= 0.75 else A.Pass()
        deje = max(1, betting.bet_in_force)
        if betting.ordago:
            return _accept(legal) if p > self._play_on(obs, mine, theirs + deje) else A.Reject()
        if p >= 0.85 and not betting.ordago:
            raises = [a for a in legal if isinstance(a, A.Raise)]
            if raises:
                return raises[0]
        return _accept(legal) if (2 * p - 1) * betting.proposed > 0.5 - deje else A.Reject()

    @staticmethod
    def _play_on(obs: MusObservation, mine: int, theirs: int) -> float:
        """A rough chance of winning the game by playing on from this tanteo."""
        left_mine, left_theirs = max(1, obs.target - mine), max(1, obs.target - theirs)
        return left_theirs / (left_mine + left_theirs)
