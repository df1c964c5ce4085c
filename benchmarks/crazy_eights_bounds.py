"""How much the Crazy Eights search could gain from information it does not have: a diagnostic, not a bot.

Plays the flat search (``crazy_eights.search.RaceSearchBot``) alone against three ``heuristic`` bots,
seats rotating, but lets it cheat: ``--know hands`` gives it the others' true hands (the stock order
still shuffled in every sampled deal), ``--know all`` the true state (the stock order too). Prints
its win share with a Wilson 95 % interval. If even ``hands`` stays near the fair share, no better
guess of the hands can lift a fair search much above it.

    python benchmarks/crazy_eights_bounds.py --know hands --games 40 --seed 3
"""

from __future__ import annotations

import argparse
import copy
import random
import sys
from pathlib import Path
from typing import Any

import cardtable
import cardtable.games.crazy_eights.search as search
from cardtable.bots import make_bot
from cardtable.core.rng import rng_state

sys.path.insert(0, str(Path(__file__).parent))
from strength import wilson  # the same interval as the strength benchmark


def main(argv: list[str] | None = None) -> None:
    """Play the cheating search against three heuristics and print its win share."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--know", choices=("hands", "all"), default="hands")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--sims", type=int, default=160)
    args = parser.parse_args(argv)
    game = cardtable.load_game("crazy_eights")
    truth: dict[str, Any] = {}

    def cheat(obs: Any, rng: random.Random, forbidden: Any = None) -> Any:
        world = copy.copy(truth["state"])
        if args.know == "hands":
            stock = list(world.stock)
            rng.shuffle(stock)
            world.stock, world.rng = tuple(stock), rng_state(rng.randrange(2**62))
        return world

    search.sample_world = cheat  # type: ignore[assignment]  # the diagnostic's whole point
    rng, wins = random.Random(args.seed), 0.0
    for g in range(args.games):
        deal, me = rng.randrange(2**31), g % 4
        bots = [make_bot(game, "heuristic") for _ in range(4)]
        bots[me] = search.RaceSearchBot(deal, sims=args.sims)
        state, _ = game.new(game.options(players=4), deal)
        while (seat := game.to_act(state)) is not None:
            truth["state"] = state
            action = bots[seat].act(game.observe(state, seat), game.legal_actions(state, seat))
            state, _ = game.apply(state, seat, action)
        outcome = game.outcome(state)
        assert outcome is not None
        wins += 1 / len(outcome.winners) if me in outcome.winners else 0.0
    low, high = wilson(wins, args.games)
    print(f"search knowing {args.know}: {args.games} games, win share {wins / args.games:.3f} "
          f"[{low:.3f}, {high:.3f}] (fair share 0.25)")


if __name__ == "__main__":
    main()
