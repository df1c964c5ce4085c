"""The differential check of the Durak core: every option set, both sides on the same seeds (``lockstep``).

At every decision it compares the whole state (hands, the stock and how much of it is drawn, the
trump card, the bout's attack and beating cards and the card to beat, attacker, defender, bout
number, discards, who left the game and when, the fool, the cards known to all), the legal ids,
the encodings, the rewards, the done flags and, on steps played by a built-in player (heuristic,
scripted, lowest), its choice against the Python bot of that name. Used by ``tests/vector``
(100,000+ decisions) and ``benchmarks/vector.py --only durak`` (a million).
"""

from __future__ import annotations

import itertools
from typing import Any

from cardtable.cards import mask_of
from cardtable.core.registry import load_game
from cardtable.vector.lockstep import Tally, lockstep

#: Random steps with each built-in player's in between: heuristic, scripted, lowest.
SCHEDULE = (0, 1, 0, 2, 0, 3)
#: Bout limits played: the default, and low ones so that games end by the safety stop too.
BOUT_LIMITS = (1000, 1, 12)


def option_sets() -> list[Any]:
    """Every ``DurakOptions`` value: 2–5 players × both player limits (5 players: only 5) × both shuffles × both
    deals × both first attackers × both attack caps, each with the default bout limit; then the low limits."""
    game = load_game("durak")
    out = []
    tables = [(p, limit) for limit in (4, 5) for p in range(2, limit + 1)]
    for (players, limit), shuffle, deal, first, cap in itertools.product(
            tables, ("random", "reference"), ("round", "blocks"), ("lowest_trump", "first_player"),
            ("none", "defender_hand")):
        out.append(game.options(players=players, player_limit=limit, shuffle=shuffle, deal=deal,
                                first_attacker=first, attack_cap=cap))
    for bout_limit, players in itertools.product(BOUT_LIMITS[1:], (2, 3, 5)):
        out.append(game.options(players=players, bout_limit=bout_limit))
    return out


def python_view(state: Any) -> dict[str, Any]:
    """A Python engine Durak state in the core's ``state(i)`` terms (hands and known cards as card-id masks)."""
    setup = state.setup
    tables = setup.tables
    bout = state.bout
    return {
        "hands": tuple(mask_of(hand) for hand in state.hands), "stock": setup.stock, "drawn": state.drawn,
        "trump_card": setup.trump_card, "attacks": mask_of(bout[0::2]), "beats": mask_of(bout[1::2]),
        "bout_len": len(bout), "to_beat": bout[-1] if len(bout) & 1 else None, "attacker": state.attacker,
        "defender": state.defender, "bout_number": state.bout_number, "discards": state.discards,
        "left": state.left, "over": state.over, "fool": state.fool, "known": tables.card_ids(state.known),
        "held": tuple(len(hand) for hand in state.hands),
    }


def ending(before: Any, after: Any) -> str | None:
    """How a step ended the game: ``fool``, ``draw`` (nobody holds cards) or ``bout limit``; ``None`` if it did not."""
    if before.over or not after.over:
        return None
    if after.fool is not None:
        return "fool"
    return "draw" if all(after.left) else "bout limit"


def check(options: Any, *, seed: int, num_envs: int, steps: int, policy_seed: int = 0,
          schedule: tuple[int, ...] = SCHEDULE, all_seats_every: int = 4, game: Any = None, **flags: Any) -> Tally:
    """Play ``steps`` batch steps of ``num_envs`` envs on both sides; ``Mismatch`` at the first difference.

    ``flags`` go to the core (``defect``); ``game`` replaces the Python engine (a deliberately broken one).
    """
    return lockstep("durak", options, view=python_view, seed=seed, num_envs=num_envs, steps=steps,
                    policy_seed=policy_seed, schedule=schedule, all_seats_every=all_seats_every, game=game,
                    end=ending, **flags)
