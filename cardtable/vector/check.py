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
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardtable.core.registry import load_game
from cardtable.rl import rewards as rw
from cardtable.vector.cores import load_core


class Mismatch(AssertionError):
    """The core and the Python engine differ; the message names the env, the step, what differs and both values."""


@dataclass
class Tally:
    """What one check covered."""

    decisions: int = 0
    games: int = 0
    #: Rounds ended, by how (``RoundScore.end``: out, blocked, limit).
    ends: Counter[str] = field(default_factory=Counter)


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
    from cardtable.games.crazy_eights.encoding import ENCODING
    from cardtable.games.crazy_eights.players.heuristic import HeuristicBot

    game = game or load_game("crazy_eights")
    core = load_core("crazy_eights").Core(num_envs, seed, options, policy_seed, rewards=rewards, **flags)
    n = core.players
    obs = np.zeros((num_envs, core.obs_size), np.uint8)
    mask = np.zeros((num_envs, core.num_actions), np.int8)
    player = np.zeros(num_envs, np.int32)
    reward = np.zeros((num_envs, n), np.float32)
    done = np.zeros(num_envs, np.uint8)
    actions = np.zeros(num_envs, np.int64)
    seat_buffer = np.zeros(core.obs_size, np.uint8)
    bot = HeuristicBot()
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
            counts = (tuple(h.bit_count() for h in state.hands), state.discards.bit_count())
            if (ours["held"], ours["pile"]) != counts:
                fail(step, i, "the cards held and in the discards", (ours["held"], ours["pile"]), counts)
            seat = state.turn
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
        core.policy(1 if heuristic else 0, actions)
        if heuristic:
            for i, state in enumerate(states):
                choice = bot.act(game.observe(state, state.turn), game.legal_actions(state, state.turn))
                if ENCODING.action_id(choice) != actions[i]:
                    fail(step, i, "the heuristic's choice", int(actions[i]), ENCODING.action_id(choice))
        if core.step(actions, obs, mask, reward, done, player, 0, True) != -1:
            raise Mismatch(f"step {step}: the core refused an action its own policy chose")
        for i, state in enumerate(states):
            after, _ = game.apply(state, state.turn, ENCODING.action_from_id(int(actions[i]), state))
            expected = [0.0] * n
            if rewards == "round":
                expected = rw.round_rewards("crazy_eights", state, after)
            outcome = game.outcome(after)
            if outcome is not None and rewards == "game":
                expected = rw.final_rewards(tuple(outcome.winners), n)
            if reward[i].tolist() != expected:
                fail(step, i, "the rewards", reward[i].tolist(), expected)
            if len(after.sheet) > len(state.sheet):
                tally.ends[after.sheet[-1].end] += 1
            if bool(done[i]) != (outcome is not None):
                fail(step, i, "the done flag", bool(done[i]), outcome is not None)
            if outcome is not None:
                tally.games += 1
                after = game.new(options, core.seed_of(i))[0]
            states[i] = after
            tally.decisions += 1
    return tally
