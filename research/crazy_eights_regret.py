"""How much better than the heuristic one move can be, by the search's own playouts: a diagnostic, not a bot.

Takes positions of four-player games between ``heuristic`` bots where the seat to act has a real
choice (two or more distinct moves), scores every candidate move on ``--worlds`` sampled deals
(common random numbers, every seat then playing the heuristic, valued by the chance of winning the
game as ``crazy_eights.deep_search`` does) and prints, per real choice, the win chance the
heuristic's move gives up against the best candidate (its regret) and how many real choices a seat
meets per game. Their product is about what a flat search can add to the heuristic's 0.25 share
(if its estimates were exact). ``--know hands`` deals the others' true hands (the stock order stays
unknown): the same figure for a search that reads the hands perfectly.

    python research/crazy_eights_regret.py --positions 40 --worlds 2000 --seed 1
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from typing import Any

import cardtable
from cardtable.bots import make_bot
from cardtable.games.crazy_eights.deep_search import deal_table, move_of, table_of
from cardtable.games.crazy_eights.playout import apply_play, hand_penalty, play_round
from cardtable.games.crazy_eights.search import candidates
from cardtable.games.crazy_eights.win_chance import win_chance


def move_values(obs: Any, moves: list[Any], worlds: int, rng: random.Random, truth: Any | None) -> list[float]:
    """The mean win chance of each move over the same sampled deals and playout seeds."""
    totals = [0.0] * len(moves)
    for _ in range(worlds):
        if truth is None:
            base = deal_table(obs, rng, {})
        else:
            base = table_of(truth)
            base.actions, base.random_draws = 0, True
        seed = rng.randrange(2**62)
        for i, move in enumerate(moves):
            table = base.copy()
            card, suit = move_of(move)
            if not apply_play(table, card, suit):
                play_round(table, random.Random(seed))
            end = [a + hand_penalty(h) for a, h in zip(obs.totals, table.hands)]
            totals[i] += win_chance(end, obs.seat, obs.rounds - obs.round, 5, obs.draw_until_playable)
    return [t / worlds for t in totals]


def main(argv: list[str] | None = None) -> None:
    """Sample positions, score their moves and print the heuristic's regret per real choice."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--worlds", type=int, default=2000, help="sampled deals per position")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--know", choices=("none", "hands"), default="none")
    args = parser.parse_args(argv)
    game = cardtable.load_game("crazy_eights")
    rng = random.Random(args.seed)
    regrets: list[float] = []
    choices = games = 0
    while len(regrets) < args.positions:
        state, _ = game.new(game.options(players=4), rng.randrange(2**31))
        bots = [make_bot(game, "heuristic") for _ in range(4)]
        games += 1
        while (seat := game.to_act(state)) is not None:
            obs, legal = game.observe(state, seat), game.legal_actions(state, seat)
            moves = candidates(obs, legal)
            usual = bots[seat].act(obs, legal)
            if len(moves) > 1:
                choices += 1
                if rng.random() < 0.2 and len(regrets) < args.positions:
                    truth = state if args.know == "hands" else None
                    values = move_values(obs, moves, args.worlds, random.Random(rng.randrange(2**62)), truth)
                    regrets.append(max(values) - values[moves.index(usual)])
            state, _ = game.apply(state, seat, usual)
    mean = statistics.fmean(regrets)
    half = 1.96 * statistics.stdev(regrets) / math.sqrt(len(regrets))
    per_game = choices / games / 4
    print(f"know {args.know}: {len(regrets)} positions, {args.worlds} deals each (seed {args.seed}); the heuristic's "
          f"regret per real choice {mean:.4f} ± {half:.4f} (win chance); {per_game:.1f} real choices per seat "
          f"per game ({games} games); about +{per_game * mean:.3f} [{per_game * max(0.0, mean - half):.3f}, "
          f"{per_game * (mean + half):.3f}] win share per game for an exact one-move search", flush=True)


if __name__ == "__main__":
    main()
