"""Record every Wizard seat-round of some games (hand, bids heard, bid, tricks, points) as JSON lines.

The raw data behind the bid model (``cardtable/games/wizard/bid_table.py``, fitted by
``players/calibrate.py``): which hands, in which bidding position and after which bids, take how
many tricks when a given bot plays them. Seats rotate between games as in ``strength.py``::

    nice -n 10 python research/wizard_rounds.py --lineup search heuristic heuristic heuristic \\
        --games 40 --seed 1 > /tmp/wizard_rounds_4p_s1.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys

import cardtable
from cardtable.bots import make_bot
from cardtable.games.wizard.observation import WizardObservation


def main(argv: list[str] | None = None) -> None:
    """Play the games and print one JSON object per seat and round."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lineup", nargs="+", required=True, help="one bot name per seat")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, help="start at this game of the seed's sequence")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    game = cardtable.load_game("wizard")
    n = len(args.lineup)
    opts = game.options(dict(o.split("=", 1) for o in args.option), players=n)
    rng = random.Random(args.seed)
    deals = [rng.randrange(2**31) for _ in range(args.first + args.games)]
    for g in range(args.first, args.first + args.games):
        deal = deals[g]
        seating = [args.lineup[(s + g) % n] for s in range(n)]
        bots = [make_bot(game, name, deal + 7919 * s) for s, name in enumerate(seating)]
        state, _ = game.new(opts, deal)
        at_bid: dict[tuple[int, int], dict[str, object]] = {}
        while (seat := game.to_act(state)) is not None:
            obs = game.observe(state, seat)
            assert isinstance(obs, WizardObservation)
            legal = game.legal_actions(state, seat)
            action = bots[seat].act(obs, legal)
            if obs.phase == "bidding":
                at_bid[(obs.round, seat)] = {
                    "game": g, "players": n, "round": obs.round, "rounds": obs.rounds, "seat": seat,
                    "bot": seating[seat], "position": (seat - obs.dealer - 1) % n, "hand": list(obs.hand),
                    "trump": obs.trump_suit, "heard": [b for b in obs.bids], "forbidden": obs.forbidden_bid,
                    "bid": getattr(action, "tricks", None),
                    "totals": list(obs.totals)}
            state, _ = game.apply(state, seat, action)
        for row in game.observe(state, 0).score_sheet:
            for seat in range(n):
                rec = at_bid[(row.round, seat)]
                rec["tricks"], rec["points"] = row.tricks[seat], row.points[seat]
                print(json.dumps(rec))
        outcome = game.outcome(state)
        print(f"game {g + 1}/{args.games} winners {outcome.winners if outcome else None}", file=sys.stderr)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
