"""Exact bids of Wizard's playout policy alone in self-play (bids by the heuristic's rule): a proxy for policy changes.

Every seat bids as the ``heuristic`` (optionally moved by ``--shift``) and plays ``playout.policy_card``
with the given ``--cover`` rule; no search. A few seconds for 60 four-player games::

    python research/wizard_policy_selfplay.py --games 60 --seed 8 --cover 3
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))

from strength import wilson

import cardtable
from cardtable.games.wizard.actions import Bid, Play
from cardtable.games.wizard.observation import WizardObservation
from cardtable.games.wizard.players import playout
from cardtable.games.wizard.players.heuristic import HeuristicBot


def main(argv: list[str] | None = None) -> None:
    """Play the games and print the exact-bid rate with its Wilson interval and the mean round points."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--cover", type=int, default=0, choices=(0, 1, 2, 3))
    parser.add_argument("--shift", type=float, default=0.0)
    args = parser.parse_args(argv)
    game = cardtable.load_game("wizard")
    opts = game.options({}, players=args.players)
    rng = random.Random(args.seed)
    heuristic = HeuristicBot(0)
    exact = rounds = points = 0
    for _ in range(args.games):
        state, _ = game.new(opts, rng.randrange(2**31))
        while (seat := game.to_act(state)) is not None:
            obs = game.observe(state, seat)
            assert isinstance(obs, WizardObservation)
            legal = game.legal_actions(state, seat)
            if isinstance(legal[0], Play):
                action: object = Play(playout.policy_card(obs, args.cover))
            elif isinstance(legal[0], Bid):
                estimate = HeuristicBot.estimate(obs) + args.shift
                action = min(legal, key=lambda b: (abs(b.tricks - estimate), b.tricks)  # type: ignore[union-attr]
                             if isinstance(b, Bid) else (99.0, 0))
            else:
                action = heuristic.act(obs, legal)
            state, _ = game.apply(state, seat, action)  # type: ignore[arg-type]
        for row in game.observe(state, 0).score_sheet:
            for s in range(args.players):
                rounds += 1
                exact += row.bids[s] == row.tricks[s]
                points += row.points[s]
    low, high = wilson(exact, rounds)
    print(f"cover {args.cover} shift {args.shift:+.2f}: exact {exact / rounds:.3f} [{low:.3f}, {high:.3f}] of {rounds}"
          f" seat-rounds, mean round points {points / rounds:.2f}")


if __name__ == "__main__":
    main()
