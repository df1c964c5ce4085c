"""The known Durak ending solved exactly: two players, the deck empty, every card known.

``solve(state, seat, legal, budget)`` is alpha-beta minimax, memoised, over the game's own moves
(``DurakGame``'s rules, not a model of them): the value for ``seat`` of each legal action with both
sides playing their best from then on (+1 leaving first, -1 the fool, 0 a draw: ``world.game_value``).
The search tries the read-out policy's move first. A position met again on its own line (the takes
can cycle) counts as a draw. It gives up (``None``) after ``budget`` positions: the caller then
reads the ending out instead (``endgame.read_out``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtable.games.durak import world
from cardtable.games.durak.actions import DurakAction
from cardtable.games.durak.game import DurakGame
from cardtable.games.durak.state import DurakState

_GAME = DurakGame()
_NO_RNG = random.Random(0)  # the ordering policy draws no random numbers


#: Positions searched before giving up (about 0.1 s in Python; about 70 % of the endings are solved within it).
BUDGET = 3_000


class _OutOfBudget(Exception):
    pass


class _Solver:
    """Alpha-beta over the three values; the memo keeps, per position, the bounds proved so far."""

    def __init__(self, seat: int, budget: int) -> None:
        self.seat, self.budget = seat, budget
        self.memo: dict[tuple[object, ...], tuple[float, float]] = {}
        self.open: set[tuple[object, ...]] = set()

    def value(self, state: DurakState, alpha: float = -1.0, beta: float = 1.0) -> float:
        """The value for ``seat`` if it lies in (alpha, beta); else a bound on the side it falls."""
        actor = _GAME.to_act(state)
        if actor is None:
            return world.game_value(state, self.seat)
        key = (state.held, state.attacker, state.defender, state.bout, state.left, actor)
        if key in self.open:
            return 0.0  # a position met again on its own line: the game cycles, counted as a draw
        low, high = self.memo.get(key, (-1.0, 1.0))
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
        self.budget -= 1
        if self.budget < 0:
            raise _OutOfBudget
        legal = _GAME.legal_actions(state, actor)
        first = world.playout_policy(state, actor, legal, _NO_RNG)
        mine = actor == self.seat
        a0, b0 = alpha, beta
        best = -2.0 if mine else 2.0
        self.open.add(key)
        try:
            for action in [first, *(a for a in legal if a != first)]:
                v = self.value(_GAME.apply_unchecked(state, actor, action)[0], alpha, beta)
                if mine:
                    best = max(best, v)
                    alpha = max(alpha, v)
                else:
                    best = min(best, v)
                    beta = min(beta, v)
                if alpha >= beta:
                    break
        finally:
            self.open.discard(key)
        if best <= a0:
            self.memo[key] = (low, best)  # fail low: an upper bound
        elif best >= b0:
            self.memo[key] = (best, high)  # fail high: a lower bound
        else:
            self.memo[key] = (best, best)
        return best


def solve(state: DurakState, seat: int, legal: Sequence[DurakAction], budget: int = BUDGET) -> list[float] | None:
    """For ``seat`` in a known two-player ending, each of ``legal``'s value, None over ``budget`` positions.

    The first action's value is exact; each later one's is exact when it beats all before it, else an
    upper bound no better than the best before it: so the first best action is the first maximum.
    """
    solver = _Solver(seat, budget)
    values: list[float] = []
    best = -2.0
    try:
        for action in legal:
            if best == 1.0:
                values.append(-1.0)  # nothing beats a won game: not searched
                continue
            v = solver.value(_GAME.apply_unchecked(state, seat, action)[0], max(best, -1.0) if values else -1.0, 1.0)
            values.append(v)
            best = max(best, v)
    except (_OutOfBudget, RecursionError):
        return None
    return values
