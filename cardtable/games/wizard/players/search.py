"""Wizard's ``search`` bot: determinized flat Monte Carlo (PIMC) over sampled deals, with a bid-aware playout.

Each decision samples ``sims`` deals of the unseen cards consistent with what the seat knows
(its hand, the cards played and by whom, the suits each seat has shown it lacks: ``world.shown_voids``),
and on every deal scores every candidate card by playing the round out with a fast bitmask
simulator (``playout.py``): the same deals for every candidate (common random numbers), so the
cards are compared on equal luck. A candidate's value is the seat's points in the round (in the
last rounds: the chance of finishing first). The playout policy's own card stands unless another
beats it clearly on the same deals (a paired test). Cards that cannot play differently (two
jesters, touching ranks) count once. Sampled deals are weighted by how well they explain the bids
already made (a deal that puts every wizard in the hand of a seat that bid zero counts little).
``cover`` (3 by default since the fifth round): the playout policy keeps the sure winners (wizards,
trumps nothing unseen beats in trump) that cover the tricks still needed and ducks with its other
cards. Bids and the trump choice are the ``heuristic``'s.

Options: ``sims`` (sampled deals per decision, 256 since the fifth round, 64 before; the budget;
deterministic given the seed), ``ms`` (a time cap in milliseconds, 0 for none: the search then
returns its best move so far, after at least one deal), ``fit`` (how strongly deals are weighted
by the bids, 0 for not at all), ``cover`` (3; 0 off, 1 wizards, 2 and top trumps once no wizard is
unseen, 3 and top trumps), ``end`` (the last rounds played for the chance of winning) and ``z``
(standard errors a move must gain over the policy's). The options measured and lost (``rel``,
``shift``, ``more``, ``infer``, ``simbid``, ``simcards``, ``stack``, ``bidsd``, ``pool``) were
removed after commit a6d799d; their figures are in research/wizard.md.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.cards import CardId
from cardtable.core.bot import check_budget, parse_bot_options
from cardtable.core.observation import Observation
from cardtable.games.wizard import rules
from cardtable.games.wizard.actions import Bid, ChooseTrump, Play, WizardAction
from cardtable.games.wizard.observation import WizardObservation
from cardtable.games.wizard.players import playout
from cardtable.games.wizard.players.compiled import FAST
from cardtable.games.wizard.players.heuristic import HeuristicBot
from cardtable.games.wizard.world import hidden_places, sample_hands


@dataclass(frozen=True)
class PimcOptions:
    """The budget of Wizard's search: sampled deals per decision, a time cap, the weight of the bids."""

    sims: int = 256
    ms: float = 0.0
    fit: float = 1.0
    end: int = 3
    z: float = 2.0
    cover: int = 3

    def __post_init__(self) -> None:
        check_budget(self.sims, self.ms)
        if self.fit < 0:
            raise ValueError(f"search option fit must be 0 or positive, not {self.fit}")
        if self.end < 0:
            raise ValueError(f"search option end must be 0 or positive, not {self.end}")
        if self.z < 0:
            raise ValueError(f"search option z must be 0 or positive, not {self.z}")
        if self.cover not in (0, 1, 2, 3):
            raise ValueError(f"search option cover must be 0, 1, 2 or 3, not {self.cover}")


def parse_pimc_options(values: Mapping[str, Any]) -> PimcOptions:
    """Options from ``key=value`` data (strings are converted); ``ValueError`` in one line if wrong."""
    return parse_bot_options(PimcOptions, values)


class PimcBot:
    """Scores every candidate move on the same sampled deals played out to the end of the round."""

    name = "search"
    accepts_options = True

    def __init__(self, seed: int = 0, **options: Any) -> None:
        self.options = parse_pimc_options(options)
        self.rng = random.Random(seed)
        self.heuristic = HeuristicBot(seed)
        self.simulations_done = 0

    def act(self, observation: Observation, legal_actions: Sequence[WizardAction]) -> WizardAction:
        """The candidate with the best mean value over the sampled deals (the only legal action at once)."""
        assert isinstance(observation, WizardObservation)
        obs = observation
        if obs.seat is None:
            raise ValueError("the search bot plays a seat; a spectator's observation has none")
        if len(legal_actions) == 1:
            return legal_actions[0]
        if not isinstance(legal_actions[0], Play):
            return self._call(obs, legal_actions)
        cards = distinct_cards(obs, [a.card for a in legal_actions if isinstance(a, Play)])
        if len(cards) == 1:
            return Play(cards[0])
        policy = self._default_card(obs, legal_actions)
        default = representative(policy, cards)
        best = self._search(obs, cards, default)
        return Play(policy if best == default else best)

    def _call(self, obs: WizardObservation, legal_actions: Sequence[WizardAction]) -> WizardAction:
        """A trump choice (the heuristic's) or a bid (``_bid``): the search plays cards only."""
        if isinstance(legal_actions[0], ChooseTrump):
            return self.heuristic.act(obs, legal_actions)
        return self._bid(obs, [a.tricks for a in legal_actions if isinstance(a, Bid)])

    def _default_card(self, obs: WizardObservation, legal_actions: Sequence[WizardAction]) -> CardId:
        """The card that stands unless another beats it clearly on the same deals: the playout policy's."""
        return playout.policy_card(obs, self.options.cover)

    def _bid(self, obs: WizardObservation, allowed: list[int]) -> Bid:
        """The allowed bid nearest the heuristic's estimate."""
        estimate = HeuristicBot.estimate(obs)
        return Bid(min(allowed, key=lambda b: (abs(b - estimate), b)))

    def _search(self, obs: WizardObservation, moves: list[int], default: int) -> int:
        """The move with the best weighted mean value, if it beats ``default`` (the policy's move) clearly enough.

        The margin is a paired test on the same deals: the best move's mean gain over the default must
        be at least ``z`` standard errors, else the default stands (noise never overrides the policy).
        """
        opts = self.options
        deadline = time.perf_counter() + opts.ms / 1000 if opts.ms else math.inf
        me = obs.seat if obs.seat is not None else 0
        rows: list[list[float]] = []
        weights: list[float] = []
        table = playout.Table.from_observation(obs)
        table.cover = opts.cover
        value = round_value(obs, me, opts.end)
        done = 0
        fast = FAST.get()
        if fast is not None:  # the same deals, weights and playouts in C
            done = self._compiled_deals(fast, obs, table, moves).run(rows, weights, opts.sims, deadline)
        while fast is None and done < opts.sims:
            hands, weight = self._sample(obs, table)
            done += 1
            if weight > 0.0:
                rows.append([value(playout.play_round_from_card(table, hands, me, move)) for move in moves])
                weights.append(weight)
            if time.perf_counter() >= deadline:
                break
        self.simulations_done = done * len(moves)
        return choose(rows, weights, moves, default, opts.z)

    def _compiled_deals(self, fast: Any, obs: WizardObservation, table: playout.Table, moves: list[int]) -> Any:
        """This decision's compiled ``Deals``: ``_sample``'s deals and weights and ``round_value``'s value."""
        me = obs.seat if obs.seat is not None else 0
        hidden, others, places = hidden_places(obs)
        left = obs.rounds - obs.round
        mode = 0 if left >= self.options.end else 1 if left == 0 else 2
        return fast.Deals(self.rng, table, me, moves, rules.mask_of(obs.hand), hidden, places, others,
                          self.options.fit, obs.round, list(obs.bids), obs.bids_hidden, mode, obs.totals,
                          ROUND_SPREAD * math.sqrt(left))

    def _sample(self, obs: WizardObservation, table: playout.Table) -> tuple[list[int], float]:
        """One deal of the unseen cards to the other hands, and its weight given the bids made."""
        hands, _ = sample_hands(obs, self.rng)
        if not self.options.fit:
            return hands, 1.0
        return hands, bid_likelihood(obs, table, hands, self.options.fit)


# What a round's points are worth.

#: The spread of the difference of two seats' round points (for the chance of finishing first).
ROUND_SPREAD = 35.0


def round_value(obs: WizardObservation, me: int, end: int) -> Callable[[list[int]], float]:
    """Early on: the round's points; in the last ``end`` rounds: the chance of winning.

    The chance of finishing first is exact in the last round (the totals after it); before it, the
    product over the others of a normal chance of staying ahead with the rounds left.
    """
    left = obs.rounds - obs.round
    totals = obs.totals
    p = obs.players
    if left >= end:
        def points_value(points: list[int]) -> float:
            return float(points[me])
        return points_value
    if left == 0:
        def win_value(points: list[int]) -> float:
            final = [t + x for t, x in zip(totals, points)]
            best = max(final)
            if final[me] < best:
                return 0.0
            return 100.0 / final.count(best)
        return win_value
    spread = ROUND_SPREAD * math.sqrt(left)

    def chance_value(points: list[int]) -> float:
        mine = totals[me] + points[me]
        chance = 100.0
        for seat in range(p):
            if seat != me:
                lead = mine - totals[seat] - points[seat]
                chance *= 0.5 * (1.0 + math.erf(lead / (spread * math.sqrt(2.0))))
        return chance
    return chance_value


# Sampling and weighting deals.


def bid_likelihood(obs: WizardObservation, table: playout.Table, hands: list[int], fit: float) -> float:
    """How well a deal explains the bids made: a Gaussian in (bid − fitted estimate of the whole hand), variance
    1 + round/8, to the power ``fit``."""
    if obs.bids_hidden:
        return 1.0
    me = obs.seat if obs.seat is not None else 0
    log_weight = 0.0
    for seat, bid in enumerate(obs.bids):
        if seat == me or bid is None:
            continue
        # The hand the seat held when it bid: what it holds now plus what it has played this round.
        held = hands[seat] | table.played_by[seat]
        estimate = table.estimate(held)
        log_weight -= (bid - estimate) ** 2
    return math.exp(fit * log_weight / (2.0 * (1.0 + obs.round / 8)))


def choose(rows: list[list[float]], weights: list[float], moves: list[int], default: int, z: float) -> int:
    """The best move by weighted mean, unless its paired gain over ``default`` is under ``z`` standard errors."""
    total = sum(weights)
    if not rows or total == 0.0:
        return default
    means = [sum(w * row[i] for w, row in zip(weights, rows)) / total for i in range(len(moves))]
    best = max(range(len(moves)), key=lambda i: (means[i], -i))
    base = moves.index(default)
    if best == base:
        return default
    gain = means[best] - means[base]
    spread = sum(w * w * (row[best] - row[base] - gain) ** 2 for w, row in zip(weights, rows)) / (total * total)
    return moves[best] if gain > z * math.sqrt(spread) else default


# Candidate moves.


def representative(card: CardId, moves: list[CardId]) -> CardId:
    """The candidate standing for ``card`` among ``distinct_cards`` (the lowest card of its class)."""
    if card in moves:
        return card
    if rules.is_jester(card):
        return next(m for m in moves if rules.is_jester(m))
    if rules.is_wizard(card):
        return next(m for m in moves if rules.is_wizard(m))
    return max(m for m in moves if rules.SUIT_OF[m] == rules.SUIT_OF[card] and m < card)


def distinct_cards(obs: WizardObservation, cards: list[CardId]) -> list[CardId]:
    """The legal cards, one per class of cards that play alike (jesters, wizards, touching ranks of a suit)."""
    seen = rules.mask_of(obs.played_cards) | rules.mask_of(pc.card for pc in obs.trick)
    if obs.trump_card is not None:
        seen |= 1 << obs.trump_card
    mine = rules.mask_of(obs.hand)
    out: list[CardId] = []
    jester = wizard = False
    previous = -1
    for card in sorted(cards):
        if rules.is_jester(card):
            if not jester:
                out.append(card)
            jester = True
        elif rules.is_wizard(card):
            if not wizard:
                out.append(card)
            wizard = True
        else:
            if previous >= 0 and rules.SUIT_OF[previous] == rules.SUIT_OF[card]:
                between = ((1 << card) - 1) & ~((1 << (previous + 1)) - 1)
                if not between & ~(seen | mine):
                    previous = card
                    continue  # nothing anyone else could hold lies between: plays like the previous card
            out.append(card)
            previous = card
    return out


class QuickPimcBot(PimcBot):
    """``search_quick``: the search on 8 sampled deals, overriding the policy at one standard error (with the
    playout policy it was measured with, ``cover=0``)."""

    name = "search_quick"

    def __init__(self, seed: int = 0, **options: Any) -> None:
        super().__init__(seed, **{"sims": 8, "z": 1.0, "cover": 0, **options})
