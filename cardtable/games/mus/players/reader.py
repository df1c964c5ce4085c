"""ReaderBot: reads the declarations and the talk, then envida, answers and goes órdago by expected game wins.

For each lance it works out its pair's chance ``W`` of winning (:mod:`cardtable.games.mus.players.inference`:
the other hands weighed by the unseen cards, the pares/juego declarations and every word said in
this hand; ties to the mano). Each choice is valued as the chance of winning the game from the
tanteo it leads to (:func:`~cardtable.games.mus.players.inference.game_win_chance`): passing, the smallest envite
(the rivals answering by a generic threshold model), quiero, no quiero, the smallest reenvite, órdago. So an
órdago is seen only when ``W`` beats the chance of winning the game by refusing and playing on,
and launched when its expected game wins beat the best envite's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.core import Observation
from cardtable.games.mus import actions as A
from cardtable.games.mus.observation import MusObservation
from cardtable.games.mus.players.careful import careful_turn
from cardtable.games.mus.players.inference import (
    Said,
    expected_bonus,
    game_win_chance,
    hand_table,
    level_pmf,
    likelihoods,
    multiset_index,
    pair_win_chance,
    point_pmf,
    seat_weights,
)
from cardtable.games.mus.players.simple import accept
from cardtable.games.mus.rules import Lance

#: Tantos the winner of a lance takes when everybody passes, on top of its pares/juego/punto value.
EN_PASO = {"grande": 1, "chica": 1, "pares": 0, "juego": 0, "punto": 0}
#: Punto's value for the winner (default scoring).
PUNTO = 1


@dataclass
class LanceView:
    """One lance seen from a seat: the level distributions, the weights and the expected bonuses."""

    lance: Lance
    order: tuple[int, ...]
    pair: int
    pmfs: list[list[float]]
    weights: dict[int, list[float]]
    bonus_mine: float
    bonus_theirs: float

    def win(self, replace: dict[int, list[float]] | None = None) -> float:
        """The pair's chance of winning the lance (some seats' pmfs replaced)."""
        pmfs = [replace[s] if replace and s in replace else p for s, p in enumerate(self.pmfs)]
        return pair_win_chance(pmfs, self.order, self.pair)


class ReaderBot:
    """Envites, answers and órdagos by inferred lance chances and expected game wins; mus as ``careful``."""

    name = "reader"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, observation: Observation, legal_actions: Sequence[Any]) -> Any:
        """One of ``legal_actions``."""
        return careful_turn(observation, legal_actions, lambda obs, value, legal: self.speak(obs, legal))

    # What the seat knows.

    @staticmethod
    def said(obs: MusObservation) -> dict[int, list[Said]]:
        """Every word of this hand by seat, answers marked when they answer an órdago."""
        out: dict[int, list[Said]] = {s: [] for s in range(4)}
        ordago: set[str] = set()
        for e in obs.envites:
            if e.kind == "ordago":
                ordago.add(e.lance)
            out[e.seat].append(Said(e.lance, e.kind, e.lance in ordago))
        return out

    def view(self, obs: MusObservation, lance: Lance) -> LanceView:
        """The lance from this seat: its own hand known, the others inferred."""
        me = obs.seat
        assert me is not None
        modalidad = obs.modalidad
        own = tuple(sorted(c % 10 for c in obs.hand))
        table = hand_table(modalidad)
        said = self.said(obs)
        own_index = multiset_index(own)
        pmfs: list[list[float]] = []
        weights: dict[int, list[float]] = {}
        for seat in range(4):
            if seat == me:
                pmfs.append(point_pmf(modalidad, lance, table.level[lance][own_index]))
                continue
            w = seat_weights(modalidad, own, obs.pares[seat], obs.juego[seat], said[seat])
            weights[seat] = w
            pmfs.append(level_pmf(modalidad, lance, w))
        order = tuple((obs.mano + k) % 4 for k in range(4))
        partner = (me + 2) % 4
        mine = (table.bonus[lance][own_index] if lance in table.bonus else 0) + expected_bonus(
            modalidad, lance, weights[partner])
        theirs = sum(expected_bonus(modalidad, lance, weights[(me + k) % 4]) for k in (1, 3))
        if lance == "punto":
            mine, theirs = PUNTO, PUNTO
        return LanceView(lance, order, me % 2, pmfs, weights, mine, theirs)

    # Decisions.

    def speak(self, obs: MusObservation, legal: list[Any]) -> Any:
        """The betting move with the best expected chance of winning the game."""
        betting = obs.betting
        assert betting is not None and obs.seat is not None
        lance: Lance = betting.lance  # type: ignore[assignment]
        v = self.view(obs, lance)
        w = v.win()
        pair = obs.seat % 2
        m, t, target = obs.tanteo[pair], obs.tanteo[1 - pair], obs.target
        rivals = [s for s in ((obs.seat + 1) % 4, (obs.seat + 3) % 4) if s in betting.speakers]

        def game(gm: float, gt: float) -> float:
            return game_win_chance(m + gm, t + gt, target)

        options: list[tuple[float, Any]] = []
        if betting.status == "open":
            ep = EN_PASO[lance]
            options.append((game(w * (ep + v.bonus_mine), (1 - w) * (ep + v.bonus_theirs)), A.Pass()))
            p_rej, w_acc = self._answer_odds(obs, v, w, rivals, ordago=False)
            bet = _smallest(legal, A.Bet)
            if bet is not None:
                n = bet.amount
                options.append((game(p_rej * (1 + v.bonus_mine) + (1 - p_rej) * w_acc * (n + v.bonus_mine),
                                     (1 - p_rej) * (1 - w_acc) * (n + v.bonus_theirs)), bet))
            p_rej, w_acc = self._answer_odds(obs, v, w, rivals, ordago=True)
            options.append((p_rej * game(1 + v.bonus_mine, 0) + (1 - p_rej) * w_acc, A.Ordago()))
        else:
            total = betting.proposed
            deje = betting.bet_in_force if betting.bet_in_force > 0 else 1
            refuse = game(0, deje + v.bonus_theirs)
            yes = accept(legal)
            partner = (obs.seat + 2) % 4
            if betting.to_answer[1:2] == (partner,):
                # My "no quiero" leaves the answer to my partner, who sees his own hand.
                p_yes, w_yes = self._partner_answer(obs, v, partner, ordago=betting.ordago)
                taken = w_yes if betting.ordago else game(w_yes * (total + v.bonus_mine),
                                                          (1 - w_yes) * (total + v.bonus_theirs))
                options.append((p_yes * taken + (1 - p_yes) * refuse, A.Reject()))
            else:
                options.append((refuse, A.Reject()))
            if betting.ordago:
                options.append((w, yes))
            else:
                options.append((game(w * (total + v.bonus_mine), (1 - w) * (total + v.bonus_theirs)), yes))
                p_rej, w_acc = self._answer_odds(obs, v, w, rivals, ordago=False)
                raise_ = _smallest(legal, A.Raise)
                if raise_ is not None:
                    n = total + raise_.amount
                    options.append((game(p_rej * (total + v.bonus_mine) + (1 - p_rej) * w_acc * (n + v.bonus_mine),
                                         (1 - p_rej) * (1 - w_acc) * (n + v.bonus_theirs)), raise_))
                p_rej, w_acc = self._answer_odds(obs, v, w, rivals, ordago=True)
                options.append((p_rej * game(total + v.bonus_mine, 0) + (1 - p_rej) * w_acc, A.Ordago()))
        options = [(value, action) for value, action in options if action in legal]
        if not options:
            return legal[0]
        return max(options, key=lambda o: o[0])[1]

    @staticmethod
    def _partner_answer(obs: MusObservation, v: LanceView, partner: int, *, ordago: bool) -> tuple[float, float]:
        """If this seat refuses first: the chance the partner accepts, and ``W`` when he does."""
        says_yes = likelihoods(obs.modalidad, v.lance, "accept", ordago)
        ws = v.weights[partner]
        yes = [x * y for x, y in zip(ws, says_yes, strict=True)]
        total = sum(ws)
        p_yes = sum(yes) / total if total else 0.0
        if p_yes <= 0.001:
            return 0.0, 0.0
        return p_yes, v.win({partner: level_pmf(obs.modalidad, v.lance, yes)})

    @staticmethod
    def _answer_odds(obs: MusObservation, v: LanceView, w: float, rivals: list[int],
                     *, ordago: bool) -> tuple[float, float]:
        """If this seat envida (or goes órdago): the chance both rivals refuse, and ``W`` when one accepts."""
        if not rivals:
            return 1.0, w
        says_no = likelihoods(obs.modalidad, v.lance, "reject", ordago)
        refused: dict[int, list[float]] = {}
        p_rej = 1.0
        for s in rivals:
            ws = v.weights[s]
            no = [x * y for x, y in zip(ws, says_no, strict=True)]
            total = sum(ws)
            p_rej *= sum(no) / total if total else 1.0
            refused[s] = level_pmf(obs.modalidad, v.lance, no)
        if p_rej >= 0.999:
            return 1.0, w
        w_rej = v.win(refused)
        w_acc = (w - p_rej * w_rej) / (1 - p_rej)
        return p_rej, min(1.0, max(0.0, w_acc))


def _smallest(legal: list[Any], kind: type[A.Bet] | type[A.Raise]) -> Any:
    """The smallest legal envite (or raise), or None."""
    offered = [a for a in legal if isinstance(a, kind)]
    return min(offered, key=lambda a: a.amount) if offered else None


__all__ = ["ReaderBot"]
