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

import numpy as np

from cardtable.core.registry import load_game
from cardtable.rl import rewards as rw
from cardtable.vector.check import Mismatch, Tally
from cardtable.vector.cores import load_core

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
    from cardtable.bots import make_bot
    from cardtable.games.wizard.encoding import ENCODING

    game = game or load_game("wizard")
    core = load_core("wizard").Core(num_envs, seed, options, policy_seed, rewards=rewards, **flags)
    n = core.players
    obs = np.zeros((num_envs, core.obs_size), np.uint8)
    mask = np.zeros((num_envs, core.num_actions), np.int8)
    player = np.zeros(num_envs, np.int32)
    reward = np.zeros((num_envs, n), np.float32)
    done = np.zeros(num_envs, np.uint8)
    actions = np.zeros(num_envs, np.int64)
    seat_buffer = np.zeros(core.obs_size, np.uint8)
    bot = make_bot(game, "heuristic")
    core.reset(obs, mask, player)
    states = [game.new(options, core.seed_of(i))[0] for i in range(num_envs)]
    tally = Tally()

    def fail(step: int, env: int, what: str, ours: Any, theirs: Any) -> None:
        raise Mismatch(f"step {step}, env {env} (seed {core.seed_of(env)}): {what} "
                       f"differs: core {ours!r}, Python engine {theirs!r}")

    for step in range(steps):
        heuristic = heuristic_every > 0 and step % heuristic_every == 0
        for i, state in enumerate(states):
            ours, theirs = core.state(i), python_view(state)
            for key, value in theirs.items():
                if ours[key] != value:
                    fail(step, i, key, ours[key], value)
            seat = state.to_act
            if player[i] != seat:
                fail(step, i, "the seat to act", int(player[i]), seat)
            legal = ENCODING.legal_ids(state, seat)
            if np.flatnonzero(mask[i]).tolist() != legal:
                fail(step, i, "the legal ids", np.flatnonzero(mask[i]).tolist(), legal)
            if obs[i].tobytes() != ENCODING.features(state, seat):
                fail(step, i, f"the encoding of seat {seat}", obs[i].tobytes(), ENCODING.features(state, seat))
            if all_seats_every > 0 and step % all_seats_every == 0:
                for other in range(n):
                    core.encode(i, other, seat_buffer)
                    if seat_buffer.tobytes() != ENCODING.features(state, other):
                        fail(step, i, f"the encoding of seat {other}", seat_buffer.tobytes(),
                             ENCODING.features(state, other))
            if game.forbidden_bid(state) is not None:
                tally.ends["bid forbidden"] += 1
            if state.phase == "bidding" and options.hidden_bids:
                tally.ends["bid hidden"] += 1
        core.policy(1 if heuristic else 0, actions)
        if heuristic:
            for i, state in enumerate(states):
                choice = bot.act(game.observe(state, state.to_act), game.legal_actions(state, state.to_act))
                if ENCODING.action_id(choice) != actions[i]:
                    fail(step, i, "the heuristic's choice", int(actions[i]), ENCODING.action_id(choice))
        if core.step(actions, obs, mask, reward, done, player, 0, True) != -1:
            raise Mismatch(f"step {step}: the core refused an action its own policy chose")
        for i, state in enumerate(states):
            after, _ = game.apply(state, state.to_act, ENCODING.action_from_id(int(actions[i]), state))
            expected = [0.0] * n
            if rewards == "round":
                expected = rw.round_rewards("wizard", state, after)
            outcome = game.outcome(after)
            if outcome is not None and rewards == "game":
                expected = rw.final_rewards(tuple(outcome.winners), n)
            if reward[i].tolist() != expected:
                fail(step, i, "the rewards", reward[i].tolist(), expected)
            _count(tally, state, after, int(actions[i]))
            if bool(done[i]) != (outcome is not None):
                fail(step, i, "the done flag", bool(done[i]), outcome is not None)
            if outcome is not None:
                tally.games += 1
                after = game.new(options, core.seed_of(i))[0]
            states[i] = after
            tally.decisions += 1
    return tally


def _count(tally: Tally, before: Any, after: Any, action: int) -> None:
    """What the step went through (see ``check``)."""
    from cardtable.games.wizard.encoding import TRUMP_BASE
    from cardtable.games.wizard.state import unpack_row

    if action >= TRUMP_BASE:
        tally.ends["trump named"] += 1
    if len(after.rows) > len(before.rows):
        bids, tricks = unpack_row(after.rows[-1], len(after.hands))
        tally.ends["rounds scored"] += 1
        tally.ends["exact bids"] += sum(b == t for b, t in zip(bids, tricks))
        if before.trump < 0:
            tally.ends["rounds without trump"] += 1
