"""The differential check of the Kaiser core: every option set, both sides on the same seeds (``lockstep``).

At every decision it compares the whole state (hands, the RNG's state, dealer, hand number, phase,
seat to act, the bids, the highest bid and its bidder, trump, leader, the trick in progress and the
last trick in playing order, the last trick's winner, tricks and points per side, totals, the
winners once over, the cards held), the legal ids, the encodings, the rewards in both modes, the
done flags and, on steps played by a built-in player (heuristic, lowest), its choice against the
Python bot of that name. Used by ``tests/vector`` (100,000+ decisions) and ``benchmarks/vector.py
--only kaiser`` (a million).
"""

from __future__ import annotations

import itertools
from typing import Any

from cardtable.core.registry import load_game
from cardtable.vector.lockstep import Tally, lockstep

#: Random steps with each built-in player's in between: heuristic, lowest.
SCHEDULE = (0, 1, 0, 2)


def option_sets() -> list[Any]:
    """Every ``KaiserOptions`` value: 4 floors × both no-trump settings × 3 targets (4 players always)."""
    game = load_game("kaiser")
    return [game.options(floor=floor, no_trump=no_trump, target=target)
            for floor, no_trump, target in itertools.product((5, 6, 7, 8), (True, False), (32, 52, 62))]


def python_view(state: Any) -> dict[str, Any]:
    """A Python engine Kaiser state in the core's ``state(i)`` terms."""
    return {
        "hands": state.hands, "rng": state.rng, "dealer": state.dealer, "hand_no": state.hand_no,
        "phase": state.phase, "turn": state.turn, "bids": state.bids, "high": state.high,
        "high_bidder": state.high_bidder, "trump": state.trump, "leader": state.leader, "trick": state.trick,
        "last_trick": state.last_trick, "last_winner": state.last_winner, "tricks": state.tricks,
        "points": state.points, "totals": state.totals,
        "winners": None if state.result is None else tuple(state.result.winners),
        "held": tuple(hand.bit_count() for hand in state.hands),
    }


def ending(before: Any, after: Any) -> str | None:
    """How a step ended a hand (``made``, ``set``) or the game (``target``, ``both``, ``fell``, ``cap``,
    ``cap level``: ``game_verdict``'s reasons); ``None`` if it ended neither."""
    if len(after.sheet) == len(before.sheet):
        return None
    if after.result is None:
        return "made" if after.sheet[-1].made else "set"
    reason = after.result.reason
    for key, kind in (("both sides", "both"), ("fell to", "fell"), ("scores level", "cap level"),
                      ("hand limit", "cap"), ("reached", "target")):
        if key in reason:
            return kind
    raise AssertionError(f"an end of game the check does not know: {reason}")


def verdicts_module() -> Any:
    """The module whose ``game_verdict`` reads ``HAND_CAP``: ``kaiser.rules`` (``kaiser.game`` on older trees)."""
    from cardtable.games.kaiser import game, rules

    return rules if hasattr(rules, "game_verdict") else game


def check(options: Any, *, seed: int, num_envs: int, steps: int, rewards: str = "game", policy_seed: int = 0,
          schedule: tuple[int, ...] = SCHEDULE, all_seats_every: int = 4, game: Any = None, hand_cap: int | None = None,
          **flags: Any) -> Tally:
    """Play ``steps`` batch steps of ``num_envs`` envs on both sides; ``Mismatch`` at the first difference.

    ``hand_cap`` lowers the game's 200-hand cap on both sides (the Python engine's ``HAND_CAP`` is set
    for the duration of the check) so that games reach it; ``flags`` go to the core (``defect``);
    ``game`` replaces the Python engine (a deliberately broken one).
    """
    def run(**more: Any) -> Tally:
        return lockstep("kaiser", options, view=python_view, seed=seed, num_envs=num_envs, steps=steps,
                        rewards=rewards, policy_seed=policy_seed, schedule=schedule, all_seats_every=all_seats_every,
                        game=game, end=ending, **flags, **more)

    if hand_cap is None:
        return run()
    verdicts = verdicts_module()
    saved = verdicts.HAND_CAP
    verdicts.HAND_CAP = hand_cap  # final for the engine; lowered for the duration of the check only
    try:
        return run(hand_cap=hand_cap)
    finally:
        verdicts.HAND_CAP = saved
