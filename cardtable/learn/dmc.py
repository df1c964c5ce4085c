"""Deep Monte-Carlo training on the batch core: the net values each action id; targets are the returns that followed.

An epoch deals ``envs`` x ``games_per_env`` fresh games on the compiled core (seeds fixed by the run's
seed and the epoch's number), plays them to the end with the net in its seats (greedy, with a small
share of random legal moves) and the core's built-in policy in the others, then fits the values of
the actions taken to the returns that followed (``TrainSpec.returns``) with a few passes of Adam.
Because an epoch starts from fresh games, the run's whole state at an epoch's end is the weights,
the optimiser's state and the epoch number: a checkpoint holds exactly that, and a run resumed
from it goes on as if never stopped (``tests/learn/test_train.py`` compares the weights).

The method and its choice are explained in docs/learning.md.
"""

from __future__ import annotations

import json
import math
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import jax
import numpy as np
import numpy.typing as npt

import cardtable.vector as vector
from cardtable.bots.learned import Net
from cardtable.learn import model
from cardtable.learn.spec import TrainSpec, learner_seats

EVAL_SEED = 1 << 62
"""The first deal of the evaluation games: far from every training epoch's deals."""


@dataclass
class EpochStats:
    """What one epoch did and cost."""

    epoch: int
    samples: int
    games: int
    updates: int
    loss: float
    collect_seconds: float
    learn_seconds: float
    simulator_seconds: float


@dataclass
class Evaluation:
    """The net (greedy) in one seat or side against the opponent policy in the others, on fixed deals."""

    wins: float
    games: int

    @property
    def rate(self) -> float:
        """The share of games won."""
        return self.wins / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        """Wilson's 95 % interval of the win rate."""
        return wilson(self.wins, self.games)


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval for ``wins`` out of ``games``."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Progress:
    """The run so far: epochs done, time spent, and one row of the learning curve per evaluation."""

    epoch: int = 0
    seconds: float = 0.0
    samples: int = 0
    updates: int = 0
    collect_seconds: float = 0.0
    learn_seconds: float = 0.0
    simulator_seconds: float = 0.0
    curve: list[dict[str, Any]] = field(default_factory=list)
    best_epoch: int = -1
    best_rate: float = -1.0


class Trainer:
    """One training run of ``spec`` from ``seed`` (``run`` goes on from ``progress``)."""

    def __init__(self, spec: TrainSpec, seed: int) -> None:
        self.spec = spec
        self.seed = seed
        probe = vector.make(spec.game, 1, rewards=spec.reward_mode, **spec.options)
        self.options = probe.options
        self.players = probe.players
        self.obs_size = probe.obs_shape[0]
        self.num_actions = probe.num_actions
        self.sizes = (self.obs_size, *spec.hidden, self.num_actions)
        self.opt = model.optimizer(spec.learning_rate)
        self._update = model.make_update(self.opt)
        self.params = model.init_params(self.sizes, self.input_scale(), seed)
        self.opt_state = self.opt.init(self.params)
        self.progress = Progress()

    # Setting up.

    def input_scale(self) -> npt.NDArray[np.float32]:
        """1 / the largest value each encoding byte took in random games (1 for flags), fixed by the seed."""
        env = vector.make(self.spec.game, 256, seed=self.seed, rewards=self.spec.reward_mode, **self.spec.options)
        obs, _, _ = env.reset()
        top = obs.max(axis=0).astype(np.float32)
        for _ in range(400):
            obs, *_ = env.step(env.sample("random"))
            np.maximum(top, obs.max(axis=0), out=top)
        scale: npt.NDArray[np.float32] = (1.0 / np.maximum(top, 1.0)).astype(np.float32)
        return scale

    def epoch_seed(self, epoch: int) -> int:
        """The first deal of epoch ``epoch`` (each epoch's games are new deals)."""
        return ((self.seed & 0xFFFFFFF) << 32) + epoch * (1 << 20)

    # Acting.

    def values(self, x: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
        """The net's values for rows of encodings (padded to a power of two: few compiled shapes)."""
        n = x.shape[0]
        size = 1 << max(4, (n - 1).bit_length())
        if size != n:
            x = np.concatenate([x, np.zeros((size - n, x.shape[1]), x.dtype)])
        out: npt.NDArray[np.float32] = np.asarray(model.act_values(self.params, x))[:n]
        return out

    def choose(self, obs: npt.NDArray[np.uint8], mask: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
        """The legal id of highest value per row (the lowest id on a tie), as the shipped bot chooses."""
        q = self.values(obs)
        q = np.where(mask.astype(bool), q, -np.inf)
        best: npt.NDArray[np.int64] = np.argmax(q, axis=1).astype(np.int64)
        return best

    # One epoch.

    def collect(self, epoch: int) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int32], npt.NDArray[np.float32],
                                           int, float]:
        """Play the epoch's games; ``(encodings, actions, returns, games, simulator seconds)`` of the net's seats."""
        spec, n = self.spec, self.spec.envs
        first = self.epoch_seed(epoch)
        env = vector.make(spec.game, n, seed=first, rewards=spec.reward_mode, autoreset=False,
                          policy_seed=first ^ 0x5DEECE66D, **spec.options)
        obs, mask, player = env.reset()
        learner = np.zeros((n, self.players + 1), bool)  # the last column: a finished env (player -1)
        for i in range(n):
            learner[i, list(learner_seats(spec, self.players, i))] = True
        rng = np.random.default_rng(first)
        everyone = np.arange(n)
        games_left = np.full(n, spec.games_per_env)
        finished = np.zeros(n, bool)
        cum = np.zeros((n, self.players), np.float64)
        open_rows: list[list[int]] = [[] for _ in range(n)]
        events: list[list[npt.NDArray[np.float32]]] = [[] for _ in range(n)]
        xs: list[npt.NDArray[np.uint8]] = []
        acts: list[npt.NDArray[np.int64]] = []
        seats: list[int] = []
        before: list[float] = []
        segment: list[int] = []
        targets: list[float] = []
        sim = 0.0
        games = 0
        while not finished.all():
            is_net = learner[everyone, player]
            rows = np.flatnonzero(is_net)
            t0 = time.perf_counter()
            actions = env.sample(spec.opponent)
            sim += time.perf_counter() - t0
            if rows.size:
                x = obs[rows]
                chosen = self.choose(x, mask[rows])
                draw = rng.random(rows.size)
                guided = draw >= 1.0 - spec.guide  # the opponent policy's own move: a demonstration
                chosen[guided] = actions[rows[guided]]
                explore = draw < spec.epsilon
                if explore.any():
                    t0 = time.perf_counter()
                    randoms = env.sample("random")
                    sim += time.perf_counter() - t0
                    chosen[explore] = randoms[rows[explore]]
                actions[rows] = chosen
                base = len(seats)
                xs.append(x)
                acts.append(chosen)
                for j, e in enumerate(rows.tolist()):
                    s = int(player[e])
                    open_rows[e].append(base + j)
                    seats.append(s)
                    before.append(float(cum[e, s]))
                    segment.append(len(events[e]))
                    targets.append(0.0)
            t0 = time.perf_counter()
            obs, mask, rewards, done, player = env.step(actions)
            sim += time.perf_counter() - t0
            if spec.returns == "hand":
                for e in np.flatnonzero(rewards.any(axis=1)).tolist():
                    events[e].append(rewards[e].copy())
            cum += rewards
            for e in np.flatnonzero(done & ~finished).tolist():
                for r in open_rows[e]:
                    s = seats[r]
                    if spec.returns == "game":
                        targets[r] = float(cum[e, s] - before[r])
                    else:
                        k = segment[r]
                        targets[r] = float(events[e][k][s]) * spec.reward_scale if k < len(events[e]) else 0.0
                open_rows[e], events[e] = [], []
                cum[e] = 0.0
                games += 1
                games_left[e] -= 1
                if games_left[e] > 0:
                    env.reset_env(e)
                else:
                    finished[e] = True
            player = env.player
        x_all = np.concatenate(xs) if xs else np.zeros((0, self.obs_size), np.uint8)
        a_all = np.concatenate(acts).astype(np.int32) if acts else np.zeros(0, np.int32)
        return x_all, a_all, np.asarray(targets, np.float32), games, sim

    def learn(self, x: npt.NDArray[np.uint8], a: npt.NDArray[np.int32], g: npt.NDArray[np.float32],
              epoch: int) -> tuple[int, float]:
        """``passes`` shuffled passes of full batches over the epoch's samples; ``(updates, mean loss)``."""
        spec = self.spec
        rng = np.random.default_rng(self.epoch_seed(epoch) + 1)
        updates, losses = 0, []
        factor = np.float32(spec.rate_factor(epoch))
        for _ in range(spec.passes):
            order = rng.permutation(len(g))
            for start in range(0, len(order) - spec.batch + 1, spec.batch):
                idx = order[start:start + spec.batch]
                self.params, self.opt_state, loss = self._update(self.params, self.opt_state, x[idx], a[idx], g[idx],
                                                                      factor)
                losses.append(loss)
                updates += 1
        return updates, float(np.mean(jax.device_get(losses))) if losses else float("nan")

    def epoch(self) -> EpochStats:
        """Collect and learn one epoch; the progress moves on by one."""
        p = self.progress
        t0 = time.perf_counter()
        x, a, g, games, sim = self.collect(p.epoch)
        t1 = time.perf_counter()
        updates, loss = self.learn(x, a, g, p.epoch)
        t2 = time.perf_counter()
        stats = EpochStats(p.epoch, len(g), games, updates, loss, t1 - t0, t2 - t1, sim)
        p.epoch += 1
        p.samples += len(g)
        p.updates += updates
        p.collect_seconds += t1 - t0
        p.learn_seconds += t2 - t1
        p.simulator_seconds += sim
        p.seconds += t2 - t0
        return stats

    # Measuring.

    def evaluate(self, games: int | None = None, *, opponent: str | None = None) -> Evaluation:
        """The greedy net in seat ``i % players`` (or side ``i % 2``) of game ``i`` against ``opponent``."""
        spec = self.spec
        n = games or spec.eval_games
        env = vector.make(spec.game, n, seed=EVAL_SEED, rewards="game", autoreset=False, **spec.options)
        obs, mask, player = env.reset()
        mine = np.zeros((n, self.players + 1), bool)
        for i in range(n):
            mine[i, list(learner_seats(spec.with_(self_play=0.0), self.players, i))] = True
        first_seat = np.array([np.flatnonzero(mine[i, :-1])[0] for i in range(n)])
        everyone = np.arange(n)
        result = np.zeros(n, np.float32)
        while (player >= 0).any():
            actions = env.sample(opponent or spec.opponent)
            rows = np.flatnonzero(mine[everyone, player])
            if rows.size:
                actions[rows] = self.choose(obs[rows], mask[rows])
            obs, mask, rewards, _, player = env.step(actions)
            result += rewards[everyone, first_seat]
            player = env.player
        return Evaluation(float((result > 0).sum()), n)

    # Weights.

    def net(self) -> Net:
        """The current weights as the shipped bot's numpy net."""
        return model.to_net(self.params)

    # Checkpoints.

    def save_checkpoint(self, path: Path) -> None:
        """The run's whole state at an epoch's end, written beside and then moved (the old one kept until then)."""
        leaves = jax.tree_util.tree_leaves(self.opt_state)
        arrays: dict[str, Any] = {f"param.{k}": np.asarray(v) for k, v in self.params.items()}
        arrays.update({f"opt.{i}": np.asarray(v) for i, v in enumerate(leaves)})
        meta = {"spec": spec_json(self.spec), "seed": self.seed, "progress": asdict(self.progress)}
        arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), np.uint8)
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "wb") as f:
            np.savez(f, **arrays)
            f.flush()
            os.fsync(f.fileno())
        tmp.replace(path)

    def load_checkpoint(self, path: Path) -> None:
        """Go on from a checkpoint of this same run; ``ValueError`` if it is another run's."""
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
        meta = json.loads(arrays.pop("meta").tobytes().decode())
        stored = {**spec_json(self.spec), **meta["spec"]}  # a field added since: the run did what it now asks
        if stored != spec_json(self.spec) or meta["seed"] != self.seed:
            raise ValueError(f"{path} is the checkpoint of another run (seed {meta['seed']}, {meta['spec']})")
        self.params = {k[6:]: jax.numpy.asarray(v) for k, v in arrays.items() if k.startswith("param.")}
        template = self.opt.init(self.params)
        treedef = jax.tree_util.tree_structure(template)
        count = len(jax.tree_util.tree_leaves(template))
        self.opt_state = jax.tree_util.tree_unflatten(treedef, [jax.numpy.asarray(arrays[f"opt.{i}"])
                                                                for i in range(count)])
        self.progress = Progress(**meta["progress"])


def spec_json(spec: TrainSpec) -> dict[str, Any]:
    """The spec as JSON data (what a checkpoint stores and compares)."""
    data = asdict(spec)
    data["hidden"] = list(spec.hidden)
    return data

