"""How much the Crazy Eights search could gain from information it does not have: a diagnostic, not a bot.

Plays a search bot alone against three ``heuristic`` bots, seats rotating, but lets it cheat:
``--know hands`` gives it the others' true hands (the stock order still unknown: shuffled, or drawn
at random, in every sampled deal), ``--know all`` the true state (the stock order too; only a
rebuilt stock's order stays unknown). ``--know none`` is the fair search, on the same deals.
Prints its win share with a Wilson 95 % interval. ``--bot flat`` is the first flat search
(``crazy_eights.search.RaceSearchBot``, the bot ``search_v1``), ``--bot deep`` the bitmask search
(``crazy_eights.deep_search.DeepSearchBot``, the bot ``search_deep``).

    python research/crazy_eights_bounds.py --bot deep --know hands --games 40 --seed 3
"""

from __future__ import annotations

import argparse
import copy
import random
import sys
from pathlib import Path
from typing import Any

import cardtable
import cardtable.games.crazy_eights.deep_search as deep_search
import cardtable.games.crazy_eights.search as search
from cardtable.bots import make_bot
from cardtable.core.rng import rng_state

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
from strength import wilson  # the same interval as the strength benchmark


def main(argv: list[str] | None = None) -> None:
    """Play the cheating search against three heuristics and print its win share."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--know", choices=("hands", "all", "none"), default="hands")
    parser.add_argument("--bot", choices=("flat", "deep"), default="deep")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--sims", type=int, default=0, help="playouts per decision (default: the bot's own)")
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

    def cheat_table(obs: Any, rng: random.Random, forbidden: Any = None) -> Any:
        table = deep_search.table_of(truth["state"])
        table.actions = 0
        table.random_draws = args.know == "hands"
        return table

    if args.bot == "flat" and args.know != "none":
        search.sample_world = cheat  # type: ignore[assignment]  # the diagnostic's whole point
    budget = {"sims": args.sims} if args.sims else {}
    rng, wins = random.Random(args.seed), 0.0
    for g in range(args.games):
        deal, me = rng.randrange(2**31), g % 4
        bots = [make_bot(game, "heuristic") for _ in range(4)]
        if args.bot == "flat":
            bots[me] = search.RaceSearchBot(deal, **budget)
        else:
            bot = deep_search.DeepSearchBot(deal, **budget)
            if args.know != "none":
                bot.sampler = cheat_table
            bots[me] = bot
        state, _ = game.new(game.options(players=4), deal)
        while (seat := game.to_act(state)) is not None:
            truth["state"] = state
            action = bots[seat].act(game.observe(state, seat), game.legal_actions(state, seat))
            state, _ = game.apply(state, seat, action)
        outcome = game.outcome(state)
        assert outcome is not None
        wins += 1 / len(outcome.winners) if me in outcome.winners else 0.0
    low, high = wilson(wins, args.games)
    print(f"{args.bot} search knowing {args.know}: {args.games} games (seed {args.seed}), win share "
          f"{wins / args.games:.3f} [{low:.3f}, {high:.3f}] (fair share 0.25)", flush=True)


if __name__ == "__main__":
    main()
