"""How well the Crazy Eights search's value models give the chance of winning the game from the totals.

Positions are the totals after the first rounds of heuristic play (``--rounds`` 3, ``--left`` rounds
still to play, a random seat watched). The reference is Monte Carlo: the rounds left are played out
``--sims`` times by four ``heuristic`` players on fresh deals (``crazy_eights.playout``), the watched
seat's win share counted (ties shared). Printed per model: the RMS and the largest gap to the
reference over the positions, and the reference's own standard error (its noise):

- ``product``: ``win_chance``'s product of per-opponent chances raised to log2(n)/(n-1);
- ``who_out``: ``last_round_chance`` (one round left only): someone goes out, the others' penalties
  are independent draws.

    python research/crazy_eights_win_chance.py --left 1 --positions 200 --sims 4000 --seed 1
"""

from __future__ import annotations

import argparse
import math
import random
import statistics

from cardtable.games.crazy_eights.players.playout import Table, hand_penalty, play_round
from cardtable.games.crazy_eights.players.win_chance import win_chance


def round_penalties(rng: random.Random, players: int, cards_each: int, leader: int) -> list[int]:
    """One round of heuristic players on a fresh deal: every seat's penalty."""
    deck = list(range(52))
    rng.shuffle(deck)
    dealt = players * cards_each
    hands = [sum(1 << c for c in deck[cards_each * i:cards_each * (i + 1)]) for i in range(players)]
    table = Table(hands, deck[dealt + 1:], 0, deck[dealt], deck[dealt] // 13, leader, random_draws=True)
    play_round(table, rng)
    return [hand_penalty(h) for h in table.hands]


def reference(totals: list[int], seat: int, left: int, dealer: int, sims: int, rng: random.Random) -> float:
    """The seat's win share over ``sims`` playings of the rounds left."""
    n = len(totals)
    won = 0.0
    for _ in range(sims):
        end = list(totals)
        for r in range(left):
            for s, p in enumerate(round_penalties(rng, n, 5, (dealer + 1 + r) % n)):
                end[s] += p
        if end[seat] == min(end):
            won += 1.0 / end.count(end[seat])
    return won / sims


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--left", type=int, choices=(1, 2), default=1, help="rounds still to play")
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--sims", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    players, rounds = 4, 3
    gaps: dict[str, list[float]] = {"product": [], "who_out": []}
    noise = []
    for _ in range(args.positions):
        totals = [0] * players
        dealer = rng.randrange(players)
        for _ in range(rounds - args.left):
            for s, p in enumerate(round_penalties(rng, players, 5, (dealer + 1) % players)):
                totals[s] += p
            dealer = (dealer + 1) % players
        seat = rng.randrange(players)
        truth = reference(totals, seat, args.left, dealer, args.sims, rng)
        noise.append(math.sqrt(truth * (1 - truth) / args.sims))
        gaps["product"].append(win_chance(totals, seat, args.left, 5, True) - truth)
        if args.left == 1:
            gaps["who_out"].append(win_chance(totals, seat, 1, 5, True, last=True) - truth)
    print(f"{args.positions} positions with {args.left} round(s) left, reference {args.sims} playings each "
          f"(its standard error: mean {statistics.fmean(noise):.4f})")
    for name, values in gaps.items():
        if values:
            rms = math.sqrt(statistics.fmean(v * v for v in values))
            print(f"  {name:<8} RMS gap {rms:.4f}  largest {max(values, key=abs):+.4f}  "
                  f"mean {statistics.fmean(values):+.4f}")


if __name__ == "__main__":
    main()
