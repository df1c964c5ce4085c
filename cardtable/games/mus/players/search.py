"""The Mus ``search``: envites and órdagos by sampled showdowns (``mus.world.sample_hands``); mus as ``careful``."""

from __future__ import annotations

import random
from typing import Any

from cardtable.core.bot import option_number
from cardtable.games.mus import actions as A
from cardtable.games.mus.observation import MusObservation
from cardtable.games.mus.players.careful import CarefulBot
from cardtable.games.mus.players.simple import accept
from cardtable.games.mus.rules import HandValue, Lance, best_seat, evaluate, holds
from cardtable.games.mus.world import sample_hands


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
            return accept(legal) if p > self._play_on(obs, mine, theirs + deje) else A.Reject()
        if p >= 0.85 and not betting.ordago:
            raises = [a for a in legal if isinstance(a, A.Raise)]
            if raises:
                return raises[0]
        return accept(legal) if (2 * p - 1) * betting.proposed > 0.5 - deje else A.Reject()

    @staticmethod
    def _play_on(obs: MusObservation, mine: int, theirs: int) -> float:
        """A rough chance of winning the game by playing on from this tanteo."""
        left_mine, left_theirs = max(1, obs.target - mine), max(1, obs.target - theirs)
        return left_theirs / (left_mine + left_theirs)
