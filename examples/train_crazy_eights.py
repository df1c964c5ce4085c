"""Train a small policy for two-player Crazy Eights with NumPy only, and measure it against the built-in bots.

    python examples/train_crazy_eights.py                       # a few minutes on one CPU core
    python examples/train_crazy_eights.py --games 1000 --eval-games 100 --final-games 200 --out /tmp/c.png

The agent plays through ``cardtable.rl.single_agent_env`` and sees only the encoding's bytes
and the action mask. Its policy is a linear softmax over the legal action ids, each described
by seven numbers read from those bytes (is it an eight, is the opponent nearly out, how many
cards of the suit in force it leaves, the penalty points it sheds, whether it changes the suit,
how many cards of its rank it leaves, whether an eight names the longest suit). The seven
weights are learned by the cross-entropy method, a derivative-free policy search: each
generation draws ``--population`` weight vectors around the current mean, every one plays the
same ``--deals`` games (one round, seven cards each) against the ``random`` bot, seats
alternating, greedily; the ``--elite`` best by total return (+1 for a win, -1 for a loss, plus
the score margin: the opponent's penalty points minus the agent's, over 100) give the next mean
and spread. Playing the same deals makes the comparison of candidates far less noisy than
policy gradients, which on this budget mostly learned noise.

Every ``--eval-every`` training games the greedy policy plays evaluation games against
``random`` and ``heuristic`` on fixed deals; the curve goes to ``--out`` (default
``crazy-eights-curve.png`` in the working directory). At the end it prints
the win rates with Wilson 95 % intervals, beside the untrained policy (θ = 0: greedy play then
takes the lowest legal id, which happens to keep the eights, a decent rule already), the
built-in heuristic bot and the random bot, all measured on the same deals and seats.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

import cardtable.rl as rl

OPTIONS = {"players": 2, "rounds": 1}


# The policy.

FEATURES = ("eight", "eight when the opponent is nearly out", "cards left in the suit in force after it",
            "penalty points shed", "changes the suit", "cards left of its rank", "names my longest suit")
SUIT_MASKS = [np.arange(52) // 13 == s for s in range(4)]
RANKS = np.arange(52) % 13
EIGHT = 6


def action_features(obs: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The legal ids and, for each, what it does as seen from the encoding's bytes (no game state)."""
    o = obs["observation"]
    ids = np.flatnonzero(obs["action_mask"])
    hand = o[:52].astype(bool)
    suit_now = int(np.argmax(o[104:108]))
    opponent_cards = int(o[165])
    suit_counts = np.array([int((hand & m & (RANKS != EIGHT)).sum()) for m in SUIT_MASKS])
    phi = np.zeros((len(ids), len(FEATURES)))
    for k, a in enumerate(ids):
        if a >= 68:  # draw or pass: nothing to choose
            continue
        if a >= 52:
            named = (a - 52) % 4
            left = suit_counts[named]
            phi[k] = (1, opponent_cards <= 2, left / 7, 50 / 50, 0, 0,
                      suit_counts[named] == suit_counts.max())
            continue
        suit = a // 13
        left = suit_counts[suit] - 1
        same_rank = int((hand & (RANKS[a] == RANKS)).sum()) - 1
        penalty = 1 if RANKS[a] == 12 else 10 if RANKS[a] >= 8 else RANKS[a] + 2
        phi[k] = (0, 0, left / 7, penalty / 50, suit != suit_now, same_rank / 3, 0)
    return ids, phi


@dataclass
class Policy:
    """A linear softmax over the legal actions: π(a) ∝ exp(θ · φ(a)); greedy play takes the largest θ · φ(a)."""

    theta: np.ndarray

    @classmethod
    def new(cls) -> Policy:
        """θ = 0: no preference (greedy play then takes the lowest legal id)."""
        return cls(np.zeros(len(FEATURES)))

    def probabilities(self, phi: np.ndarray) -> np.ndarray:
        """π over the rows of ``phi``."""
        z = phi @ self.theta
        p = np.exp(z - z.max())
        return p / p.sum()


# Playing.


def play(env: Any, seed: int, policy: Policy | None, rng: np.random.Generator, *,
         greedy: bool = True) -> tuple[float, float]:
    """One game: the agent's reward (+1 win, -1 loss) and the score margin."""
    obs, _ = env.reset(seed=seed)
    done, reward, info = False, 0.0, {}
    while not done:
        if policy is None:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        else:
            ids, phi = action_features(obs)
            p = policy.probabilities(phi)
            action = int(ids[int(p.argmax()) if greedy else int(rng.choice(len(ids), p=p))])
        obs, reward, done, _, info = env.step(action)
    return float(reward), margin(info, env.seat)


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
        reward, _ = play(envs[i % 2], base_seed + i, policy, rng)
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
    parser.add_argument("--games", type=int, default=6144, help="training games (all candidates together)")
    parser.add_argument("--population", type=int, default=16, help="candidate weight vectors per generation")
    parser.add_argument("--deals", type=int, default=64, help="deals every candidate plays per generation")
    parser.add_argument("--elite", type=int, default=4, help="best candidates kept per generation")
    parser.add_argument("--spread", type=float, default=1.0, help="initial standard deviation of the weights")
    parser.add_argument("--noise", type=float, default=0.1, help="extra spread added each generation")
    parser.add_argument("--eval-every", type=int, default=1, help="generations between evaluations")
    parser.add_argument("--eval-games", type=int, default=300, help="games per evaluation point")
    parser.add_argument("--final-games", type=int, default=1000, help="games per opponent in the final evaluation")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", "--plot", dest="out", default="crazy-eights-curve.png",
                        help="where to write the curve (PNG; default: in the working directory)")
    parser.add_argument("--json", help="also write the figures to this JSON file")
    parser.add_argument("--replot", metavar="JSON", help="only redraw --plot from a JSON file this script wrote")
    args = parser.parse_args()
    for flag, path in (("--out", args.out), ("--json", args.json)):
        if path is not None and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
            parser.error(f"{flag} {path}: no such directory")  # before training, not after it
    if args.replot:
        with open(args.replot, encoding="utf-8") as source:
            plot(json.load(source)["curve"], args.out)
        return

    rng = np.random.default_rng(args.seed)
    train = [rl.single_agent_env("crazy_eights", opponents="random", seat=s, **OPTIONS) for s in (0, 1)]
    opponents = {name: [rl.single_agent_env("crazy_eights", opponents=name, seat=s, **OPTIONS) for s in (0, 1)]
                 for name in ("random", "heuristic")}
    policy = Policy.new()
    eval_seed = 10**6  # evaluation deals never seen in training
    curve: list[dict[str, Any]] = []

    def checkpoint(played: int) -> None:
        """Evaluate the current mean weights against both bots and print one line."""
        point: dict[str, Any] = {"games": played}
        for name, envs in opponents.items():
            point[name] = evaluate(envs, args.eval_games, policy, eval_seed)
        curve.append(point)
        print(f"{played:>7} games  win rate vs random {point['random'][0]:.3f}  "
              f"vs heuristic {point['heuristic'][0]:.3f}  ({time.perf_counter() - start:.0f} s)", flush=True)

    start = time.perf_counter()
    checkpoint(0)
    played, generation = 0, 0
    mean, spread = np.zeros(len(FEATURES)), np.full(len(FEATURES), args.spread)
    while played < args.games:
        # Every candidate plays the same deals, seats alternating: their differences are not luck of the deal.
        candidates = mean + spread * rng.standard_normal((args.population, len(FEATURES)))
        deals = [args.seed * 10**7 + played + i for i in range(args.deals)]
        scores = []
        for theta in candidates:
            candidate = Policy(theta)
            total = 0.0
            for i, deal in enumerate(deals):
                reward, score = play(train[i % 2], deal, candidate, rng)
                total += reward + score
            scores.append(total)
        played += args.population * args.deals
        generation += 1
        elite = candidates[np.argsort(scores)[-args.elite:]]
        mean, spread = elite.mean(axis=0), elite.std(axis=0) + args.noise
        policy = Policy(mean)
        if generation % args.eval_every == 0 or played >= args.games:
            checkpoint(played)
    train_seconds = time.perf_counter() - start
    print("learned weights: " + ", ".join(f"{name} {w:+.2f}" for name, w in zip(FEATURES, policy.theta)))

    final_seed = 2 * 10**6
    final: dict[str, dict[str, tuple[float, float, float]]] = {}
    for name, envs in opponents.items():
        final[name] = {
            "trained policy": evaluate(envs, args.final_games, policy, final_seed),
            "untrained (θ=0)": evaluate(envs, args.final_games, Policy.new(), final_seed),
            "heuristic bot": HeuristicAgent(envs[0]).rate(envs, args.final_games, final_seed),
            "random bot": evaluate(envs, args.final_games, None, final_seed),
        }
    print(f"\ntrained on {played} games in {train_seconds:.0f} s; {args.final_games} evaluation games per row "
          "(the same deals and seats for every row of an opponent)")
    print(f"{'opponent':<11}{'agent':<16}{'win rate':>9}   95 % interval")
    for name, rows in final.items():
        for agent, (rate, low, high) in rows.items():
            print(f"{name:<11}{agent:<16}{rate:>9.3f}   {low:.3f}–{high:.3f}")
    if args.out:
        plot(curve, args.out)
        print(f"curve written to {args.out}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"curve": curve, "final": final, "train_seconds": train_seconds, "args": vars(args),
                       "weights": dict(zip(FEATURES, policy.theta.tolist()))}, out, indent=2)


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
    ax.set_title("Crazy Eights, 2 players: a linear policy, cross-entropy method")
    ax.set_ylim(0, 1)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path)


if __name__ == "__main__":
    main()
