"""Would the review order Mus's players better if its playouts were played by the learned net, or by ``careful``?

The review's Mus playouts use the threshold policy of the search (``mus.world.playout_policy``). Here the
same review is made with the shipped Mus net choosing every move of the playouts instead (one net call a
step; ``--playouts careful``: the ``careful`` bot, the other seats' own player), and the mean loss a
decision of seat 0 is printed for each bot named, with a 95% interval that counts each game as one sample
(as ``benchmarks/review.py --part order`` does).

    python research/review_net_playouts.py --games 12 --bots careful,reader,random
    python research/review_net_playouts.py --games 40 --bots learned,careful --playouts careful
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

import cardtable
import cardtable.review.values as values
from cardtable.bots.learned import Net, net_for
from cardtable.core.encoding import encoding_for
from cardtable.review import review_record

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from review import HEURISTIC, ORDER_OPTIONS, per_decision_pm95, play, seats


def net_policy(game: values.AnyGame) -> Any:
    """A playout policy: the net's favourite legal action, from the true state's encoding of the seat."""
    encoding = encoding_for(game)
    nets: dict[str, Net] = {}

    def policy(state: Any, seat: int, legal: Sequence[Any], rng: random.Random) -> Any:
        if len(legal) == 1:
            return legal[0]
        options = encoding.options_of(state)
        key = repr(options)
        if key not in nets:
            nets[key] = net_for(game, options)[0]
        scores = nets[key].values(np.frombuffer(encoding.features(state, seat), np.uint8))
        return max(legal, key=lambda a: (float(scores[encoding.action_id(a, state)]), -encoding.action_id(a, state)))

    return policy


def with_playouts(game: values.AnyGame, policy: Any) -> values.ReviewSpec:
    """Mus's review spec with ``policy`` playing the playouts to the end of the hand."""
    from cardtable.games.mus import world

    spec = values._mus(game)
    playout = values.stepwise(game, world.hand_over, policy)
    return values.ReviewSpec(spec.game, spec.unit, spec.horizon, playout, spec.value, spec.scores, spec.score_labels,
                             spec.mistake, spec.blunder)


def main() -> None:
    """Print each bot's mean loss a decision under the chosen playouts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--bots", default="careful,reader,random")
    parser.add_argument("--playouts", choices=["net", "careful"], default="net")
    args = parser.parse_args()
    if args.playouts == "net":
        values._SPECS["mus"] = lambda game: with_playouts(game, net_policy(game))
    else:
        from cardtable.games.mus.players.careful import CarefulBot

        values._SPECS["mus"] = lambda game: with_playouts(game, values.bot_policy(game, CarefulBot()))
    game = cardtable.load_game("mus")
    options = ORDER_OPTIONS.get("mus", {})
    n = seats("mus", options)
    for bot in args.bots.split(","):
        start = time.process_time()
        per_game = []
        for g in range(args.games):
            record = play("mus", [bot] + [HEURISTIC["mus"]] * (n - 1), 500 + g, options)
            per_game.append([d.loss for d in review_record(game, record, 0, budget=24, seed=g).decisions])
        mean, half = per_decision_pm95(per_game)
        print(f"mus {bot}: {sum(map(len, per_game))} decisions, mean loss {mean:.3f} ± {half:.3f}, "
              f"{time.process_time() - start:.0f} CPU s", flush=True)


if __name__ == "__main__":
    main()
