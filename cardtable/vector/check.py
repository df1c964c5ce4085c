"""The differential check: the compiled core and the Python engine play the same seeds and must agree at every step.

At every decision of every env it compares the whole state (hands, stock order, discards, top card,
suit, seat to act, cards drawn, passes, round, dealer, the safety counter, totals, the RNG's state,
how the last round ended), the legal ids (the core's mask against ``ENCODING.legal_bits``), the
encoding of the seat to act (and, every few steps, of every seat) against ``ENCODING.features``, the
rewards, the done flags and, on heuristic steps, the built-in heuristic's choice against
``HeuristicBot``. The actions come from the core's built-in policies (random and heuristic steps
mixed) and are replayed in the Python engine through its validated ``apply``. Used by
``tests/vector`` (100,000 decisions) and ``benchmarks/vector.py --differential`` (a million).
"""

from __future__ import annotations

import itertools
from typing import Any

from cardtable.core.registry import load_game
from cardtable.vector.lockstep import Mismatch as Mismatch
from cardtable.vector.lockstep import Tally, lockstep


def option_sets() -> list[Any]:
    """Every valid ``CrazyEightsOptions``: 5 player counts × 4 hand sizes × 2 drawing rules × 3 round counts, less
    the 6 of 6 players × 9 cards (with the starter they need 55 cards)."""
    from cardtable.core.errors import InvalidOptions

    game = load_game("crazy_eights")
    out = []
    for players, size, until, rounds in itertools.product(range(2, 7), ("auto", 5, 7, 9), (True, False), (1, 3, 5)):
        try:
            out.append(game.options(players=players, hand_size=size, draw_until_playable=until, rounds=rounds))
        except InvalidOptions:
            if (players, size) != (6, 9):
                raise
    return out


def python_view(state: Any) -> dict[str, Any]:
    """A Python engine Crazy Eights state in the core's ``state(i)`` terms."""
    last = state.sheet[-1] if state.sheet else None
    return {
        "hands": state.hands, "stock": state.stock, "discards": state.discards, "top": state.top,
        "suit": state.suit, "turn": state.turn, "drawn": state.drawn, "last_drawn": state.last_drawn,
        "passes": state.passes, "round": state.round, "dealer": state.dealer,
        "round_actions": state.round_actions, "totals": state.totals, "rng": state.rng, "over": state.over,
        "last_end": None if last is None else last.end, "last_out": None if last is None else last.went_out,
    }


def check(options: Any, *, seed: int, num_envs: int, steps: int, rewards: str = "game", policy_seed: int = 0,
          heuristic_every: int = 3, all_seats_every: int = 4, game: Any = None, round_limit: int | None = None,
          **flags: Any) -> Tally:
    """Play ``steps`` batch steps of ``num_envs`` envs on both sides; ``Mismatch`` at the first difference.

    ``game`` is the Python engine to compare with (default: the registered one; a test passes a
    deliberately broken one); ``round_limit`` lowers the safety limit on both sides (the Python
    engine's ``ROUND_ACTION_LIMIT`` is set for the duration of the check) so that rounds reach it;
    ``flags`` go to the core (``defect``).
    """
    from cardtable.games.crazy_eights import game as flow

    if round_limit is None:
        return _check(options, seed, num_envs, steps, rewards, policy_seed, heuristic_every, all_seats_every, game,
                      flags)
    saved = flow.ROUND_ACTION_LIMIT
    # Final for the engine; lowered for the duration of the check only.
    flow.ROUND_ACTION_LIMIT = round_limit  # type: ignore[misc]
    try:
        return _check(options, seed, num_envs, steps, rewards, policy_seed, heuristic_every, all_seats_every, game,
                      {**flags, "round_limit": round_limit})
    finally:
        flow.ROUND_ACTION_LIMIT = saved  # type: ignore[misc]


def _check(options: Any, seed: int, num_envs: int, steps: int, rewards: str, policy_seed: int,
           heuristic_every: int, all_seats_every: int, game: Any, flags: dict[str, Any]) -> Tally:
    schedule = (1,) + (0,) * (heuristic_every - 1) if heuristic_every > 0 else (0,)
    return lockstep("crazy_eights", options, view=_view, seed=seed, num_envs=num_envs, steps=steps, rewards=rewards,
                    policy_seed=policy_seed, schedule=schedule, all_seats_every=all_seats_every, game=game,
                    end=_ending, **flags)


def _view(state: Any) -> dict[str, Any]:
    """``python_view`` and the cards held and in the discards (the core's ``held`` and ``pile``)."""
    return {**python_view(state), "held": tuple(h.bit_count() for h in state.hands),
            "pile": state.discards.bit_count()}


def _ending(before: Any, after: Any) -> str | None:
    """How a step ended a round (``RoundScore.end``: out, blocked, limit); ``None`` if it did not."""
    return after.sheet[-1].end if len(after.sheet) > len(before.sheet) else None
