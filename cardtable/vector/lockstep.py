"""The differential driver the games' checks share: a compiled core and the Python engine stepped in lockstep.

At every decision of every env it compares the core's state (``Core.state(i)``) with the game's view
of the Python state, the seat to act, the legal ids (the core's mask against ``legal_ids``), the
encoding of the seat to act (every ``all_seats_every`` steps, of every seat) against ``features``,
and, on steps played by a built-in player, its choice against the Python bot of that name; after
each step the rewards and the done flags. The actions come from the core's built-in policies (a
schedule of policy indices, one per batch step) and are replayed in the Python engine through its
validated ``apply``. ``check`` (Crazy Eights), ``check_wizard``, ``check_durak`` and ``check_kaiser`` call it
with their game's view.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardtable.core.registry import load_game
from cardtable.rl import rewards as rw
from cardtable.rl.spaces import encoding_for
from cardtable.vector.cores import load_core


class Mismatch(AssertionError):
    """The core and the Python engine differ; the message names the env, the step, what differs and both values."""


@dataclass
class Tally:
    """What one check covered."""

    decisions: int = 0
    games: int = 0
    #: What the games went through, by name (each check says which: rounds ended by how, ...).
    ends: Counter[str] = field(default_factory=Counter)


View = Callable[[Any], dict[str, Any]]
"""A Python engine state in the core's ``state(i)`` terms (the keys it compares)."""
End = Callable[[Any, Any], "str | None"]
"""How a step ended a round or game (for the tally), or ``None``: ``end(before, after)``."""
Count = Callable[[Tally, Any, Any, int], None]
"""Anything else a step went through, into the tally: ``count(tally, before, after, action_id)``."""


def lockstep(name: str, options: Any, *, view: View, seed: int, num_envs: int, steps: int, rewards: str = "game",
             policy_seed: int = 0, schedule: Sequence[int] = (0,), all_seats_every: int = 4, game: Any = None,
             end: End | None = None, count: Count | None = None, **flags: Any) -> Tally:
    """Play ``steps`` batch steps of ``num_envs`` envs on both sides; ``Mismatch`` at the first difference.

    ``schedule[step % len(schedule)]`` is the built-in policy of each step (0 is random; the others
    are compared with the Python bot of the same name). ``game`` is the Python engine to compare with
    (default: the registered one; a test passes a deliberately broken one); ``end`` and ``count`` fill the
    tally after each env's step; ``flags`` go to the core.
    """
    registered = load_game(name)
    game = game or registered
    encoding = encoding_for(registered)
    module = load_core(name)
    core = module.Core(num_envs, seed, options, policy_seed, rewards=rewards, **flags)
    bots = {k: registered.bots()[policy](0) for k, policy in enumerate(module.POLICIES) if k}
    n = core.players
    obs = np.zeros((num_envs, core.obs_size), np.uint8)
    mask = np.zeros((num_envs, core.num_actions), np.int8)
    player = np.zeros(num_envs, np.int32)
    reward = np.zeros((num_envs, n), np.float32)
    done = np.zeros(num_envs, np.uint8)
    actions = np.zeros(num_envs, np.int64)
    seat_buffer = np.zeros(core.obs_size, np.uint8)
    core.reset(obs, mask, player)
    states = [game.new(options, core.seed_of(i))[0] for i in range(num_envs)]
    tally = Tally()

    def fail(step: int, env: int, what: str, ours: Any, theirs: Any) -> None:
        raise Mismatch(f"{name} step {step}, env {env} (seed {core.seed_of(env)}): {what} "
                       f"differs: core {ours!r}, Python engine {theirs!r}")

    for step in range(steps):
        policy = schedule[step % len(schedule)]
        for i, state in enumerate(states):
            ours, theirs = core.state(i), view(state)
            for key, value in theirs.items():
                if ours[key] != value:
                    fail(step, i, key, ours[key], value)
            seat = game.to_act(state)
            if player[i] != seat:
                fail(step, i, "the seat to act", int(player[i]), seat)
            legal = encoding.legal_ids(state, seat)
            if np.flatnonzero(mask[i]).tolist() != legal:
                fail(step, i, "the legal ids", np.flatnonzero(mask[i]).tolist(), legal)
            if obs[i].tobytes() != encoding.features(state, seat):
                fail(step, i, f"the encoding of seat {seat}", obs[i].tobytes(), encoding.features(state, seat))
            if all_seats_every > 0 and step % all_seats_every == 0:
                for other in range(n):
                    core.encode(i, other, seat_buffer)
                    if seat_buffer.tobytes() != encoding.features(state, other):
                        fail(step, i, f"the encoding of seat {other}", seat_buffer.tobytes(),
                             encoding.features(state, other))
        core.policy(policy, actions)
        if policy:
            for i, state in enumerate(states):
                seat = game.to_act(state)
                choice = bots[policy].act(game.observe(state, seat), game.legal_actions(state, seat))
                if encoding.action_id(choice, state) != actions[i]:
                    fail(step, i, f"the {module.POLICIES[policy]} player's choice", int(actions[i]),
                         encoding.action_id(choice, state))
        if core.step(actions, obs, mask, reward, done, player, 0, True) != -1:
            raise Mismatch(f"{name} step {step}: the core refused an action its own policy chose")
        for i, state in enumerate(states):
            after, _ = game.apply(state, game.to_act(state), encoding.action_from_id(int(actions[i]), state))
            expected = [0.0] * n
            if rewards == "round":
                expected = rw.round_rewards(name, state, after)
            outcome = game.outcome(after)
            if outcome is not None and rewards == "game":
                expected = rw.final_rewards(tuple(outcome.winners), n)
            if reward[i].tolist() != expected:
                fail(step, i, "the rewards", reward[i].tolist(), expected)
            if end is not None and (how := end(state, after)) is not None:
                tally.ends[how] += 1
            if count is not None:
                count(tally, state, after, int(actions[i]))
            if bool(done[i]) != (outcome is not None):
                fail(step, i, "the done flag", bool(done[i]), outcome is not None)
            if outcome is not None:
                tally.games += 1
                after = game.new(options, core.seed_of(i))[0]
            states[i] = after
            tally.decisions += 1
    return tally
