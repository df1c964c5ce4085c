"""How well the search's playout policy explains real Wizard plays: given the true hands, and given sampled ones.

For each line-up (every seat the same bot), plays a few 4-player games of 10 rounds and, at every
play after the first of a round, asks ``inference.misses`` how many of the other seats' plays so far
the policy would have made differently holding the true hands, and holding hands sampled as the
search samples them. Prints the share of plays missed both ways::

    nice -n 10 python research/wizard_inference.py
"""

from __future__ import annotations

import argparse
import random

import cardtable
from cardtable.bots import make_bot
from cardtable.games.wizard import inference
from cardtable.games.wizard.world import sample_hands


def main(argv: list[str] | None = None) -> None:
    """Print, per bot, the share of plays the policy misses with the true and with sampled hands."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", nargs="+", default=["search:sims=16", "heuristic"])
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args(argv)
    game = cardtable.load_game("wizard")
    for name in args.bots:
        true_misses = sampled_misses = plays_read = 0
        for seed in range(args.games):
            bots = [make_bot(game, name, seed * 10 + i) for i in range(4)]
            state, _ = game.new(game.options(players=4, rounds=10), seed)
            rng = random.Random(seed)
            while (seat := game.to_act(state)) is not None:
                obs, legal = game.observe(state, seat), game.legal_actions(state, seat)
                if obs.phase == "playing" and obs.played_cards:
                    plays = inference.play_history(obs)
                    if plays:
                        true_misses += inference.misses(plays, list(state.hands), state.trump)
                        sampled_misses += inference.misses(plays, sample_hands(obs, rng)[0], state.trump)
                        plays_read += len(plays)
                state, _ = game.apply(state, seat, bots[seat].act(obs, legal))
        print(f"{name}: {plays_read} plays read; missed with the true hands {true_misses / plays_read:.3f},"
              f" with sampled hands {sampled_misses / plays_read:.3f}")


if __name__ == "__main__":
    main()
