"""The differential check of the Wizard core: it and the Python engine play the same seeds and must agree at every step.

At every decision of every env it compares the whole state the core keeps (round, dealer, phase,
seat to act, hands, trump card and suit, bids, tricks won, leader, lead, the trick in progress, the
cards of finished tricks, totals, the RNG's state, the cards held and the totals as encoded), the
legal ids (the core's mask against ``ENCODING.legal_bits``), the encoding of the seat to act (and,
every few steps, of every seat) against ``ENCODING.features``, the rewards, the done flags and, on
heuristic steps, the built-in heuristic's choice against the game's ``heuristic`` bot. The actions
come from the core's built-in policies (random and heuristic steps mixed) and are replayed in the
Python engine through its validated ``apply``. The Python engine's score sheet rows, exact-bid
counts, last trick and undealt stack are not kept by the core (nothing it plays, encodes or
rewards depends on them). Used by ``tests/vector`` (100,000 decisions) and
``benchmarks/vector.py --only wizard_differential`` (a million). As ``check.py`` for Crazy Eights.
"""

from __future__ import annotations

import itertools
from typing import Any

from cardtable.core.registry import load_game
from cardtable.vector.lockstep import Tally, lockstep

#: The values of each WizardOptions field (first_dealer: -1, drawn from the seed, or any seat).
PLAYERS = (3, 4, 5, 6)
ROUNDS = ("all", 5, 10)
TRUMPS = ("dealer_chooses", "no_trump")


def option_sets() -> list[Any]:
    """Every option value: 4 player counts × 3 round choices × 2 trump rules × sum rule × hidden bids (first dealer
    drawn), then each fixed first dealer of each player count, the toggles varied: 96 + 18 option sets."""
    game = load_game("wizard")
    out = [game.options(players=p, rounds=r, wizard_trump=t, bids_may_not_equal_tricks=s, hidden_bids=h)
           for p, r, t, s, h in itertools.product(PLAYERS, ROUNDS, TRUMPS, (False, True), (False, True))]
    k = 0
    for p in PLAYERS:
        for dealer in range(p):
            out.append(game.options(players=p, rounds=ROUNDS[k % 3], wizard_trump=TRUMPS[k % 2],
                                    bids_may_not_equal_tricks=k % 4 < 2, hidden_bids=k % 3 == 0,
                                    first_dealer=dealer))
            k += 1
    return out


def python_view(state: Any) -> dict[str, Any]:
    """A Python engine Wizard state in the core's ``state(i)`` terms."""
    from cardtable.games.wizard.rules import mask_of

    return {
        "round": state.round, "dealer": state.dealer, "phase": state.phase, "to_act": state.to_act,
        "hands": state.hands, "trump_card": state.trump_card, "trump": state.trump, "bids": state.bids,
        "tricks": state.tricks, "leader": state.leader, "lead": state.lead, "trick": state.trick,
        "played": mask_of(state.played), "totals": state.totals, "rng": state.rng,
        "held": tuple(h.bit_count() for h in state.hands),
        "shown": tuple(min(255, max(0, t // 10 + 100)) for t in state.totals),
    }


def check(options: Any, *, seed: int, num_envs: int, steps: int, rewards: str = "game", policy_seed: int = 0,
          heuristic_every: int = 3, all_seats_every: int = 4, game: Any = None, **flags: Any) -> Tally:
    """Play ``steps`` batch steps of ``num_envs`` envs on both sides; ``Mismatch`` at the first difference.

    ``game`` is the Python engine to compare with (default: the registered one; a test passes a
    deliberately broken one); ``flags`` go to the core (``defect``). ``Tally.ends`` counts what the
    games went through: rounds scored, exact bids, rounds without trump, trump named by the dealer,
    decisions where the sum rule forbade a bid, bids made while hidden.
    """
    def count(tally: Tally, before: Any, after: Any, action: int) -> None:
        _count(tally, before, after, action, game or load_game("wizard"), options)

    schedule = (1,) + (0,) * (heuristic_every - 1) if heuristic_every > 0 else (0,)
    return lockstep("wizard", options, view=python_view, seed=seed, num_envs=num_envs, steps=steps, rewards=rewards,
                    policy_seed=policy_seed, schedule=schedule, all_seats_every=all_seats_every, game=game,
                    count=count, **flags)


def _count(tally: Tally, before: Any, after: Any, action: int, game: Any, options: Any) -> None:
    """What the step went through (see ``check``)."""
    from cardtable.games.wizard.encoding import TRUMP_BASE
    from cardtable.games.wizard.state import unpack_row

    if game.forbidden_bid(before) is not None:
        tally.ends["bid forbidden"] += 1
    if before.phase == "bidding" and options.hidden_bids:
        tally.ends["bid hidden"] += 1
    if action >= TRUMP_BASE:
        tally.ends["trump named"] += 1
    if len(after.rows) > len(before.rows):
        bids, tricks = unpack_row(after.rows[-1], len(after.hands))
        tally.ends["rounds scored"] += 1
        tally.ends["exact bids"] += sum(b == t for b, t in zip(bids, tricks))
        if before.trump < 0:
            tally.ends["rounds without trump"] += 1
