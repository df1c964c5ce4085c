"""How well the search's playouts predict the tricks a Wizard seat then takes, per round size (bids by simulation).

Plays games with the given line-up; at every bid it samples ``--deals`` deals as the search does (weighted
by the bids heard), plays each out from the bid actually made with the playout policy (the seats still
to bid bidding as the heuristic) and records the simulated mean tricks and chance of an exact bid, with
the playouts' seats knowing the undealt stack (``stack0``) and not (``stack1``), next to the tricks the
seat then took. Prints, per round size, the mean (taken − simulated) tricks and the exact rates::

    nice -n 10 python research/wizard_bid_bias.py --lineup search search search search --games 6 --seed 501
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict

import cardtable
from cardtable.bots import make_bot
from cardtable.games.wizard.players import playout
from cardtable.games.wizard.observation import WizardObservation
from cardtable.games.wizard.pimc import bid_likelihood
from cardtable.games.wizard.world import sample_hands


def simulate(obs: WizardObservation, bid: int, deals: int, rng: random.Random) -> dict[str, float]:
    """The weighted mean simulated tricks and exact chance of ``bid`` for both stack settings (same deals)."""
    me = obs.seat if obs.seat is not None else 0
    table = playout.Table.from_observation(obs)
    sums: dict[str, float] = defaultdict(float)
    total = 0.0
    for _ in range(deals):
        hands, stack = sample_hands(obs, rng)
        weight = bid_likelihood(obs, table, hands, 1.0)
        if weight <= 0.0:
            continue
        total += weight
        bids = playout.round_bids(table, hands, me, bid)
        for name, st in (("stack0", 0), ("stack1", stack)):
            tricks = playout.tricks_from_bid(table, hands, me, bids, st)[me]
            sums[f"{name}_tricks"] += weight * tricks
            sums[f"{name}_exact"] += weight * (tricks == bid)
    return {k: v / total for k, v in sums.items()} if total else {}


def main(argv: list[str] | None = None) -> None:
    """Play the games, print one JSON line per seat-round, then the summary per round size to stderr."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lineup", nargs="+", required=True)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=501)
    parser.add_argument("--deals", type=int, default=128)
    args = parser.parse_args(argv)
    game = cardtable.load_game("wizard")
    n = len(args.lineup)
    opts = game.options({}, players=n)
    rng = random.Random(args.seed)
    rows = []
    for g in range(args.games):
        deal = rng.randrange(2**31)
        seating = [args.lineup[(s + g) % n] for s in range(n)]
        bots = [make_bot(game, name, deal + 7919 * s) for s, name in enumerate(seating)]
        sim_rng = random.Random(deal)
        state, _ = game.new(opts, deal)
        at_bid: dict[tuple[int, int], dict[str, object]] = {}
        while (seat := game.to_act(state)) is not None:
            obs = game.observe(state, seat)
            assert isinstance(obs, WizardObservation)
            action = bots[seat].act(obs, game.legal_actions(state, seat))
            if obs.phase == "bidding":
                bid = int(getattr(action, "tricks"))
                at_bid[(obs.round, seat)] = {"game": g, "round": obs.round, "seat": seat,
                                             "position": (seat - obs.dealer - 1) % n, "bid": bid,
                                             **simulate(obs, bid, args.deals, sim_rng)}
            state, _ = game.apply(state, seat, action)
        for row in game.observe(state, 0).score_sheet:
            for s in range(n):
                rec = at_bid[(row.round, s)]
                rec["tricks"] = row.tricks[s]
                rows.append(rec)
                print(json.dumps(rec))
        sys.stdout.flush()
        print(f"game {g + 1}/{args.games}", file=sys.stderr)
    by_size: dict[int, list[dict[str, object]]] = defaultdict(list)
    for r in rows:
        by_size[int(str(r["round"]))].append(r)
    print("round  n  exact  sim_exact(s0,s1)  taken-sim tricks(s0,s1)", file=sys.stderr)
    for size in sorted(by_size):
        rs = by_size[size]
        k = len(rs)

        def mean(key: str) -> float:
            return sum(float(str(r[key])) for r in rs) / k  # noqa: B023

        exact = sum(r["tricks"] == r["bid"] for r in rs) / k
        bias0 = sum(float(str(r["tricks"])) - float(str(r["stack0_tricks"])) for r in rs) / k
        bias1 = sum(float(str(r["tricks"])) - float(str(r["stack1_tricks"])) for r in rs) / k
        print(f"{size:5} {k:3} {exact:.3f}  {mean('stack0_exact'):.3f} {mean('stack1_exact'):.3f}"
              f"  {bias0:+.3f} {bias1:+.3f}", file=sys.stderr)


if __name__ == "__main__":
    main()
