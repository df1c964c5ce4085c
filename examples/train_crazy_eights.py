"""Train a small policy for two-player Crazy Eights with NumPy only, and measure it against the built-in bots.

    python examples/train_crazy_eights.py                       # about 3-5 minutes on one CPU core
    python examples/train_crazy_eights.py --games 2000 --eval-games 200 --plot /tmp/curve.png   # a quick look

The policy is a one-hidden-layer network (the encoding's 174 bytes in, 70 action logits out,
illegal actions masked out) trained by REINFORCE with a running-mean baseline: the agent plays
whole games (one round, seven cards each) against the ``random`` bot through
``cardtable.rl.single_agent_env``, alternating seats. Its training reward is the game's score
margin (the opponent's penalty points minus its own, divided by 100: going out and leaving the
opponent with many points is better than scraping a win), plus 1 for a win and -1 for a loss.
Every ``--eval-every`` training games it plays greedy evaluation games against ``random`` and
``heuristic`` on fixed deals; the curve goes to ``--plot``. At the end it prints the win rates with
Wilson 95 % intervals, beside the built-in heuristic bot and the random bot measured on the same
deals and seats (like for like).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import cardtable.rl as rl

OPTIONS = {"players": 2, "rounds": 1}


# The policy.


@dataclass
class Policy:
    """A masked-softmax MLP: x (uint8 features) → tanh(x W1 + b1) W2 + b2 → logits over action ids."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    moments: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    steps: int = 0

    @classmethod
    def new(cls, inputs: int, hidden: int, actions: int, rng: np.random.Generator) -> Policy:
        """Small random weights."""
        return cls(rng.normal(0, 1 / math.sqrt(inputs), (inputs, hidden)), np.zeros(hidden),
                   rng.normal(0, 0.01, (hidden, actions)), np.zeros(actions))

    def probabilities(self, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Hidden activations and the action probabilities (zero where ``mask`` is 0), for a batch."""
        h = np.tanh(x @ self.w1 + self.b1)
        logits = h @ self.w2 + self.b2
        logits = np.where(mask > 0, logits, -1e9)
        logits -= logits.max(axis=-1, keepdims=True)
        p = np.exp(logits) * (mask > 0)
        return h, p / p.sum(axis=-1, keepdims=True)

    def update(self, x: np.ndarray, mask: np.ndarray, actions: np.ndarray, advantages: np.ndarray,
               lr: float) -> None:
        """One Adam step on -mean(advantage * log π(action)) (+ a little entropy bonus)."""
        h, p = self.probabilities(x, mask)
        n = len(actions)
        grad_logits = p.copy()
        grad_logits[np.arange(n), actions] -= 1.0
        grad_logits *= advantages[:, None] / n
        # Entropy bonus keeps exploring early on: d(-H)/dlogits = p * (log p + H).
        logp = np.log(np.where(p > 0, p, 1.0))
        entropy = -(p * logp).sum(axis=1, keepdims=True)
        grad_logits += 0.01 * p * (logp + entropy) / n
        grads = {"w2": h.T @ grad_logits, "b2": grad_logits.sum(0)}
        grad_h = grad_logits @ self.w2.T * (1 - h * h)
        grads["w1"] = x.T @ grad_h
        grads["b1"] = grad_h.sum(0)
        self.steps += 1
        for name, g in grads.items():
            m, v = self.moments.get(name, (np.zeros_like(g), np.zeros_like(g)))
            m = 0.9 * m + 0.1 * g
            v = 0.999 * v + 0.001 * g * g
            self.moments[name] = (m, v)
            m_hat, v_hat = m / (1 - 0.9 ** self.steps), v / (1 - 0.999 ** self.steps)
            setattr(self, name, getattr(self, name) - lr * m_hat / (np.sqrt(v_hat) + 1e-8))


def features(obs: dict[str, np.ndarray]) -> np.ndarray:
    """The encoding's bytes as floats; counts are scaled down to about 0–1."""
    return obs["observation"].astype(np.float32) / SCALE


SCALE = np.ones(174, np.float32)
SCALE[164:] = 20.0  # the counts at the end of the encoding (cards held, stock, …, totals)


# Playing.


def play(env: Any, seed: int, policy: Policy | None, rng: np.random.Generator, *,
         greedy: bool) -> tuple[float, list[np.ndarray], list[np.ndarray], list[int], float]:
    """One game; the agent's reward (+1 win, -1 loss), its inputs, masks and chosen ids, and the score margin."""
    obs, _ = env.reset(seed=seed)
    xs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    actions: list[int] = []
    done, reward, info = False, 0.0, {}
    while not done:
        mask = obs["action_mask"]
        if policy is None:
            action = int(rng.choice(np.flatnonzero(mask)))
        else:
            x = features(obs)
            _, p = policy.probabilities(x[None, :], mask[None, :])
            action = int(p[0].argmax()) if greedy else int(rng.choice(len(mask), p=p[0]))
            xs.append(x)
            masks.append(mask)
            actions.append(action)
        obs, reward, done, _, info = env.step(action)
    return float(reward), xs, masks, actions, margin(info, env.seat)


def margin(info: dict[str, Any], seat: int) -> float:
    """The opponent's penalty points minus the agent's, over 100 (two players)."""
    scores = info["outcome"].scores
    return (scores[1 - seat] - scores[seat]) / 100


def wilson(wins: float, n: int) -> tuple[float, float, float]:
    """The win rate and its Wilson 95 % interval (a draw counts half a win)."""
    z = 1.96
    rate = wins / n
    centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return rate, centre - half, centre + half


def evaluate(envs: list[Any], games: int, policy: Policy | None, base_seed: int) -> tuple[float, float, float]:
    """Win rate over ``games`` fixed deals (seeds ``base_seed + i``), seats alternating."""
    rng = np.random.default_rng(base_seed)
    wins = 0.0
    for i in range(games):
        reward, *_ = play(envs[i % 2], base_seed + i, policy, rng, greedy=True)
        wins += (reward + 1) / 2
    return wilson(wins, games)


class HeuristicAgent:
    """The built-in heuristic bot in the agent's seat, for the like-for-like comparison."""

    def __init__(self, env: Any) -> None:
        from cardtable.bots import make_bot

        self.bot = make_bot(env.game, "heuristic", 99)

    def rate(self, envs: list[Any], games: int, base_seed: int) -> tuple[float, float, float]:
        """Win rate of the heuristic bot on the same deals and seats as ``evaluate``."""
        wins = 0.0
        for i in range(games):
            env = envs[i % 2]
            env.reset(seed=base_seed + i)
            done, reward = False, 0.0
            while not done:
                state = env.game_state
                legal = env.game.legal_actions(state, env.seat)
                action = self.bot.act(env.game.observe(state, env.seat), legal)
                _, reward, done, _, _ = env.step(env.encoding.action_id(action, state))
            wins += (reward + 1) / 2
        return wilson(wins, games)


# Training.


def main() -> None:
    """Train, evaluate along the way, plot the curve and print the final comparison."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20000, help="training games")
    parser.add_argument("--batch", type=int, default=64, help="games per policy update")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--eval-every", type=int, default=2000, help="training games between evaluations")
    parser.add_argument("--eval-games", type=int, default=400, help="games per evaluation point")
    parser.add_argument("--final-games", type=int, default=2000, help="games per opponent in the final evaluation")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plot", default="docs/rl-crazy-eights.png", help="where to write the curve (PNG)")
    parser.add_argument("--json", help="also write the figures to this JSON file")
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    train = [rl.single_agent_env("crazy_eights", opponents="random", seat=s, **OPTIONS) for s in (0, 1)]
    opponents = {name: [rl.single_agent_env("crazy_eights", opponents=name, seat=s, **OPTIONS) for s in (0, 1)]
                 for name in ("random", "heuristic")}
    size = train[0].observation_space["observation"].shape[0]
    assert size == len(SCALE), f"the encoding has {size} bytes, this example expects {len(SCALE)}"
    policy = Policy.new(size, args.hidden, train[0].action_space.n, rng)
    eval_seed = 10**6  # evaluation deals never seen in training
    curve: list[dict[str, Any]] = []

    def checkpoint(played: int) -> None:
        point = {"games": played}
        for name, envs in opponents.items():
            point[name] = evaluate(envs, args.eval_games, policy, eval_seed)
        curve.append(point)
        print(f"{played:>7} games  win rate vs random {point['random'][0]:.3f}  "
              f"vs heuristic {point['heuristic'][0]:.3f}  ({time.perf_counter() - start:.0f} s)", flush=True)

    start = time.perf_counter()
    baseline = 0.0
    checkpoint(0)
    played = 0
    while played < args.games:
        xs, masks, actions, advantages = [], [], [], []
        for _ in range(args.batch):
            reward, x, m, a, score = play(train[played % 2], args.seed * 10**7 + played, policy, rng, greedy=False)
            played += 1
            xs += x
            masks += m
            actions += a
            value = reward + score
            advantages += [value - baseline] * len(a)
            baseline = 0.99 * baseline + 0.01 * value
        policy.update(np.array(xs), np.array(masks), np.array(actions), np.array(advantages), args.lr)
        if played % args.eval_every < args.batch:
            checkpoint(played)
    train_seconds = time.perf_counter() - start

    final_seed = 2 * 10**6
    final: dict[str, dict[str, tuple[float, float, float]]] = {}
    for name, envs in opponents.items():
        final[name] = {
            "trained policy": evaluate(envs, args.final_games, policy, final_seed),
            "heuristic bot": HeuristicAgent(envs[0]).rate(envs, args.final_games, final_seed),
            "random bot": evaluate(envs, args.final_games, None, final_seed),
        }
    print(f"\ntrained on {played} games in {train_seconds:.0f} s; {args.final_games} evaluation games per row "
          "(the same deals and seats for every row of an opponent)")
    print(f"{'opponent':<11}{'agent':<16}{'win rate':>9}   95 % interval")
    for name, rows in final.items():
        for agent, (rate, low, high) in rows.items():
            print(f"{name:<11}{agent:<16}{rate:>9.3f}   {low:.3f}–{high:.3f}")
    if args.plot:
        plot(curve, args.plot)
        print(f"curve written to {args.plot}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"curve": curve, "final": final, "train_seconds": train_seconds, "args": vars(args)}, out,
                      indent=2)


def plot(curve: list[dict[str, Any]], path: str) -> None:
    """Win rate against training games, with 95 % bands, one line per opponent."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=100)
    games = [p["games"] for p in curve]
    for name, colour in (("random", "tab:blue"), ("heuristic", "tab:orange")):
        rate = [p[name][0] for p in curve]
        ax.plot(games, rate, marker="o", color=colour, label=f"vs {name} bot")
        ax.fill_between(games, [p[name][1] for p in curve], [p[name][2] for p in curve], color=colour, alpha=0.2)
    ax.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xlabel("training games (against the random bot)")
    ax.set_ylabel("greedy win rate (95 % interval)")
    ax.set_title("Crazy Eights, 2 players: a NumPy policy-gradient agent")
    ax.set_ylim(0, 1)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path)


if __name__ == "__main__":
    main()
