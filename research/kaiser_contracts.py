"""Kaiser contracts by bid level: who bids what, how often it is made, and what it scores.

Plays ``--games`` games of one pair against another (seats rotating: game g puts ``A`` in seats 0 and
2 when g is even, in 1 and 3 when odd) and tabulates, per bot and per winning bid (6 … 10, suit or
no trump): contracts won, made (with a Wilson 95 % interval) and the bidders' mean change of score.

    python research/kaiser_contracts.py search heuristic --games 10 --seed 1
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from pathlib import Path

import cardtable
from cardtable.bots import make_bot

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
from strength import wilson


def main() -> None:
    """Play the games, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = cardtable.load_game("kaiser")
    rng = random.Random(args.seed)
    table: dict[tuple[str, int, bool], list[int]] = defaultdict(lambda: [0, 0, 0])  # won, made, score sum
    for g in range(args.games):
        deal = rng.randrange(2**31)
        names = [args.a, args.b] * 2 if g % 2 == 0 else [args.b, args.a] * 2
        bots = [make_bot(game, name, deal + 7919 * s) for s, name in enumerate(names)]
        state, _ = game.new(game.options(), deal)
        while (seat := game.to_act(state)) is not None:
            action = bots[seat].act(game.observe(state, seat), game.legal_actions(state, seat))
            state, _ = game.apply(state, seat, action)
        for line in state.sheet:
            row = table[(names[line.bidder], line.bid, line.no_trump)]
            row[0] += 1
            row[1] += line.made
            row[2] += line.change[line.bidder & 1]
    print(f"kaiser contracts: {args.a} pair vs {args.b} pair, {args.games} games (seed {args.seed})")
    for (name, bid, nt), (won, made, score) in sorted(table.items()):
        low, high = wilson(made, won)
        print(f"  {name:<12} bid {bid}{' nt' if nt else '   '}  won {won:>4}  made {made / won:.3f} "
              f"[{low:.3f}, {high:.3f}]  bidders' mean change {score / won:+.1f}")


if __name__ == "__main__":
    main()
