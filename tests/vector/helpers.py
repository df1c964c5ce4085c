"""Test bodies the per-game vector tests share: the views against ``cardtable.rl``, the built-in policies
against the Python bots, batch games replayed as records."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

import cardtable.rl as rl
import cardtable.vector as vector
from cardtable.core import GameRecord, replay


def assert_pettingzoo_is_cardtable_rl(name: str, seeds: Sequence[int], *, every_seat: bool = False,
                                      to_the_end: bool = False, **options: Any) -> None:
    """``vector.pettingzoo_env`` and ``cardtable.rl.env`` play the same random games on each seed: the same agent
    to act, observation, mask, reward and termination (``every_seat``: every seat's observation too;
    ``to_the_end``: both run out of agents together)."""
    ours = vector.pettingzoo_env(name, **options)
    theirs = rl.env(name, **options)
    for seed in seeds:
        ours.reset(seed=seed)
        theirs.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in theirs.agent_iter():
            assert ours.agent_selection == agent
            mine, reward, terminated, _, _ = ours.last()
            obs, expected, done, _, _ = theirs.last()
            assert (mine["observation"] == obs["observation"]).all()
            assert (mine["action_mask"] == obs["action_mask"]).all()
            assert (reward, terminated) == (expected, done)
            if every_seat:
                for other in theirs.possible_agents:
                    assert (ours.observe(other)["observation"] == theirs.observe(other)["observation"]).all()
            action = None if done else int(rng.choice(np.flatnonzero(obs["action_mask"])))
            theirs.step(action)
            ours.step(action)
        if to_the_end:
            assert ours.agents == theirs.agents == []


def assert_gymnasium_steps_and_replaces_finished_games(env: Any, seed: int, steps: int,
                                                       final_rewards: Sequence[list[float]], *,
                                                       sort: bool = False) -> None:
    """``env`` (a ``vector.gymnasium_env`` of 4 envs) plays ``steps`` steps of the lowest legal id: observations in
    the space, the acting seat's reward, each finished game's final observation and its rewards among
    ``final_rewards`` (``sort``: sorted first); at least one game ends."""
    obs, info = env.reset(seed=seed)
    ended = 0
    for _ in range(steps):
        actions = np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]])  # the lowest legal id
        acting = info["player"]
        obs, reward, terminated, truncated, info = env.step(actions)
        assert obs in env.observation_space and not truncated.any()
        assert reward.tolist() == info["rewards"][np.arange(4), acting].tolist()  # the acting seat's reward
        for i in np.flatnonzero(terminated):
            ended += 1
            assert info["_final_obs"][i] and info["final_obs"][i] in env.single_observation_space["observation"]
            rewards = info["rewards"][i].tolist()
            assert (sorted(rewards) if sort else rewards) in final_rewards
    assert ended > 0


def assert_heuristic_policy_is_the_bot(game: Any, encoding: Any, env: Any, bot: Any, steps: int) -> None:
    """``env.sample("heuristic")`` picks what ``bot`` picks in the Python engine, for ``steps`` batch steps of every
    env (``env`` reset, finished games replaced from the env's next seed)."""
    states = [game.new(env.options, s)[0] for s in env.seeds()]
    for _ in range(steps):
        actions = env.sample("heuristic")
        for i, state in enumerate(states):
            seat = game.to_act(state)
            choice = bot.act(game.observe(state, seat), game.legal_actions(state, seat))
            assert actions[i] == encoding.action_id(choice)
        env.step(actions)
        states = [game.new(env.options, env.seeds()[i])[0] if env.done[i] else
                  game.apply(state, game.to_act(state), encoding.action_from_id(int(actions[i])))[0]
                  for i, state in enumerate(states)]


def replayed_batch_games(game: Any, encoding: Any, env: Any, options: dict[str, Any],
                         games: int) -> Iterator[tuple[int, Any, list[float], int]]:
    """Play ``env`` (reset) with its heuristic policy until ``games`` games have ended (the last step's envs all
    counted); each finished game replayed in the Python engine from its seed and actions as a ``GameRecord`` on
    ``options``: yields the env, the replayed final state (``outcome`` checked), the rewards the env earned in
    that game and the seed it was dealt from."""
    n = env.num_envs
    played: list[list[tuple[int, Any]]] = [[] for _ in range(n)]
    earned = np.zeros((n, env.players))
    checked = 0
    while checked < games:
        seeds, actions, seats = env.seeds(), env.sample("heuristic"), env.player.copy()
        _, _, rewards, done, _ = env.step(actions)
        earned += rewards
        for i in range(n):
            played[i].append((int(seats[i]), encoding.action_from_id(int(actions[i]))))
            if done[i]:
                state, _ = replay(game, GameRecord(game.info.name, options, seeds[i], tuple(played[i])))
                assert game.outcome(state) is not None
                yield i, state, earned[i].tolist(), int(seeds[i])
                played[i], earned[i] = [], 0
                checked += 1
