"""How well the Crazy Eights searches read the hidden cards: probability put on each card's true place.

Four ``heuristic`` players play; one seat is watched by the readers. At each of that seat's real
choices (two or more distinct moves), every card it has not seen is in one of the other hands or
in the stock. Each reader gives a distribution of where the card is, from the deals it would
search on: ``particles`` (``particles.ParticleFilter``, the ``search`` bot's; its fallback's deals
when it has no particle), ``model``
(``reading.ModelTracker`` constraints: the removed ``search_deep``'s, still the particle search's fallback),
``draws`` (what draws prove only) and ``uniform`` (hand sizes only). Printed per reader: the mean
probability on the true place over cards and decisions, with a 95 % interval over games, and the
mean log-probability (deals that put zero on the truth count as 1/(2·deals)), and the calibration
of "this seat holds this card": over tenths of predicted probability, the mean gap between the
predicted and the observed frequency (weighted by cases), and the top tenth's figures.

    python research/crazy_eights_reading.py --games 20 --seed 1
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections.abc import Callable

import cardtable
from cardtable.bots import make_bot
from cardtable.games.crazy_eights.observation import CrazyEightsObservation
from cardtable.games.crazy_eights.players.particles import ParticleFilter
from cardtable.games.crazy_eights.players.reading import ModelTracker
from cardtable.games.crazy_eights.players.search import candidates, deal_table
from cardtable.games.crazy_eights.rules import BIT, FULL_MASK, mask_of

Places = Callable[[CrazyEightsObservation], list[list[int]]]  # sampled deals: per deal, the others' hands


def _score(deals: list[list[int]], truth: list[int], unseen: int) -> tuple[float, float]:
    """Mean probability on the true place of each unseen card, and mean log of it, over the deals."""
    n = len(truth)
    probs = []
    for card in range(52):
        if not unseen & BIT[card]:
            continue
        where = next((s for s in range(n) if truth[s] & BIT[card]), n)  # n: the stock
        hits = sum(1 for hands in deals if (hands[where] & BIT[card] if where < n else
                                            not any(h & BIT[card] for h in hands)))
        probs.append(hits / len(deals))
    floor = 1 / (2 * len(deals))
    return statistics.fmean(probs), statistics.fmean(math.log(max(p, floor)) for p in probs)


class Calibration:
    """Predicted probabilities that a seat holds a card against how often it did, in tenths."""

    def __init__(self) -> None:
        self.bins = [[0, 0.0, 0] for _ in range(10)]  # cases, predicted sum, hits

    def add(self, deals: list[list[int]], truth: list[int], unseen: int, me: int) -> None:
        """Every (other seat, unseen card) of one decision."""
        for s in range(len(truth)):
            if s == me:
                continue
            for card in range(52):
                if unseen & BIT[card]:
                    p = sum(1 for hands in deals if hands[s] & BIT[card]) / len(deals)
                    b = self.bins[min(9, int(p * 10))]
                    b[0] += 1
                    b[1] += p
                    b[2] += bool(truth[s] & BIT[card])

    def text(self) -> str:
        """The weighted mean gap and the top tenth."""
        total = sum(b[0] for b in self.bins)
        gap = sum(abs(b[1] - b[2]) for b in self.bins if b[0]) / total
        n, ps, hits = self.bins[9]
        top = f"predicted {ps / n:.3f}, held {hits / n:.3f} of {n}" if n else "empty"
        return f"calibration gap {gap:.3f}; top tenth: {top}"


def main(argv: list[str] | None = None) -> None:
    """Play the games and print each reader's score."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deals", type=int, default=200, help="deals sampled per reader per decision")
    args = parser.parse_args(argv)
    game = cardtable.load_game("crazy_eights")
    names = ("particles", "model", "draws", "uniform")
    per_game: dict[str, list[float]] = {k: [] for k in names}
    logs: dict[str, list[float]] = {k: [] for k in names}
    calibration = {"particles": Calibration(), "model": Calibration()}
    decisions = fallbacks = 0
    rng = random.Random(args.seed)
    for g in range(args.games):
        deal, me = rng.randrange(2**31), g % 4
        state, _ = game.new(game.options(players=4), deal)
        bots = [make_bot(game, "heuristic") for _ in range(4)]
        pf = ParticleFilter(args.deals, 20, deal)
        model, draws = ModelTracker(read_plays=True), ModelTracker(read_plays=False)
        sample_rng = random.Random(deal)
        scores: dict[str, list[float]] = {k: [] for k in names}
        while (seat := game.to_act(state)) is not None:
            obs, legal = game.observe(state, seat), game.legal_actions(state, seat)
            if seat == me:
                for reader in (pf, model, draws):
                    reader.before_turn(obs)
                if len(candidates(obs, legal)) > 1:
                    decisions += 1
                    truth = [0 if s == me else h for s, h in enumerate(state.hands)]
                    unseen = FULL_MASK & ~mask_of(obs.hand) & ~mask_of(obs.discard_pile) & ~BIT[obs.top]

                    def tables(forbidden: dict[int, int], obs: CrazyEightsObservation = obs,
                               rnd: random.Random = sample_rng, me: int = me) -> list[list[int]]:
                        out = []
                        for _ in range(args.deals):
                            hands = deal_table(obs, rnd, forbidden).hands
                            out.append([0 if s == me else h for s, h in enumerate(hands)])
                        return out

                    model_deals = tables(model.forbidden(obs))
                    if pf.update(obs):
                        particle_deals = [list(h) for h, _ in pf.particles]
                    else:
                        fallbacks += 1
                        particle_deals = model_deals
                    for name, found in (("particles", particle_deals), ("model", model_deals),
                                        ("draws", tables(draws.forbidden(obs))), ("uniform", tables({}))):
                        mean, log = _score(found, truth, unseen)
                        if name in calibration:
                            calibration[name].add(found, truth, unseen, me)
                        scores[name].append(mean)
                        logs[name].append(log)
            action = bots[seat].act(obs, legal)
            if seat == me:
                for reader in (pf, model, draws):
                    reader.after_action(obs, action)
            state, _ = game.apply(state, seat, action)
        for name in names:
            if scores[name]:
                per_game[name].append(statistics.fmean(scores[name]))
    print(f"{args.games} games (seed {args.seed}), {decisions} decisions, {args.deals} deals per reader; "
          f"particle fallbacks {fallbacks}")
    for name in names:
        values = per_game[name]
        mean = statistics.fmean(values)
        half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.nan
        print(f"  {name:9s} probability on the true place {mean:.3f} ± {half:.3f}; "
              f"mean log-probability {statistics.fmean(logs[name]):.3f}"
              + (f"; {calibration[name].text()}" if name in calibration else ""))


if __name__ == "__main__":
    main()
