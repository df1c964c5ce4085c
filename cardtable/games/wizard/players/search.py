"""Wizard's ``search`` bot: determinized flat Monte Carlo (PIMC) over sampled deals, with a bid-aware playout.

Each decision samples ``sims`` deals of the unseen cards consistent with what the seat knows
(its hand, the cards played and by whom, the suits each seat has shown it lacks: ``world.shown_voids``),
and on every deal scores every candidate card by playing the round out with a fast bitmask
simulator (``playout.py``): the same deals for every candidate (common random numbers), so the
cards are compared on equal luck. A candidate's value is the seat's points in the round (minus
``rel`` × the others' mean; ``rel`` is 0 by default; in the last rounds: the chance of finishing
first). The playout policy's own card stands unless another beats it clearly on the same deals (a
paired test). Cards that cannot play differently (two jesters, touching ranks) count once. Sampled
deals are weighted by how well they explain the bids already made (a deal that puts every wizard in
the hand of a seat that bid zero counts little; ``bidsd`` > 0: by the chance that the ``heuristic``'s
bidding rule, with a normal error of that spread, gives each bid) and, with ``pool`` > 1, resampled
from ``pool`` draws each so that the playouts go to the deals that explain the bids. ``stack=1``: in
the playouts every seat counts the undealt stack as unseen, as a real player must (0: the simulated
seats know which cards are out of play). ``cover`` (3 by default since the fifth round): the playout
policy keeps the sure winners (wizards, trumps nothing unseen beats in trump) that cover the tricks
still needed and ducks with its other cards. Bids and the trump choice are the
``heuristic``'s; with ``simbid=1`` the bids near its estimate are scored on the deals too (the seats
still to bid bidding as the heuristic does), in the rounds of at most ``simcards`` cards.

Options: ``sims`` (sampled deals per decision, 256 since the fifth round, 64 before; the budget;
deterministic given the seed), ``ms`` (a time cap in milliseconds, 0 for none: the search then
returns its best move so far, after at least one deal), ``fit`` (how strongly deals are weighted
by the bids, 0 for not at all), ``bidsd``
(0), ``pool`` (1), ``stack`` (0), ``cover`` (3; 0 off, 1 wizards, 2 and top trumps once no wizard is
unseen, 3 and top trumps), ``rel`` (the weight of the others' mean points), ``end`` (the last rounds played
for the chance of winning), ``z`` (standard errors a move must gain over the policy's), ``simbid`` (1:
bids by simulation), ``simcards`` (60), ``shift`` (added to the heuristic's trick estimate before the
bid is rounded), ``more`` (a close call, where another card leads but not by ``z`` standard errors,
gets ``more`` × ``sims`` deals more) and ``infer`` (deals are also weighted by ``exp(-infer × plays
they leave unexplained)``: ``inference.py``). Of the options added in the fifth round only ``cover``
is on by default; ``bidsd``, ``pool``, ``stack`` and ``simcards`` raised the exact bids by nothing
measurable (docs/bots.md).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.cards import CardId
from cardtable.core.bot import parse_bot_options
from cardtable.core.observation import Observation
from cardtable.games.wizard import rules
from cardtable.games.wizard.actions import Bid, ChooseTrump, Play, WizardAction
from cardtable.games.wizard.observation import WizardObservation
from cardtable.games.wizard.players import inference, playout
from cardtable.games.wizard.players.heuristic import HeuristicBot
from cardtable.games.wizard.world import sample_hands


@dataclass(frozen=True)
class PimcOptions:
    """The budget of Wizard's search: sampled deals per decision, a time cap, the weight of the bids."""

    sims: int = 256
    ms: float = 0.0
    fit: float = 1.0
    rel: float = 0.0
    end: int = 3
    simbid: int = 0
    z: float = 2.0
    shift: float = 0.0
    more: int = 0
    infer: float = 0.0
    stack: int = 0
    bidsd: float = 0.0
    pool: int = 1
    simcards: int = 60
    cover: int = 3

    def __post_init__(self) -> None:
        if self.sims < 1:
            raise ValueError(f"search option sims must be at least 1, not {self.sims}")
        if self.ms < 0:
            raise ValueError(f"search option ms must be 0 (no cap) or positive, not {self.ms}")
        if self.fit < 0:
            raise ValueError(f"search option fit must be 0 or positive, not {self.fit}")
        if self.end < 0:
            raise ValueError(f"search option end must be 0 or positive, not {self.end}")
        if self.z < 0:
            raise ValueError(f"search option z must be 0 or positive, not {self.z}")
        if self.infer < 0:
            raise ValueError(f"search option infer must be 0 or positive, not {self.infer}")
        if self.more < 0:
            raise ValueError(f"search option more must be 0 or positive, not {self.more}")
        if self.simbid not in (0, 1):
            raise ValueError(f"search option simbid must be 0 or 1, not {self.simbid}")
        if self.bidsd < 0:
            raise ValueError(f"search option bidsd must be 0 or positive, not {self.bidsd}")
        if self.cover not in (0, 1, 2, 3):
            raise ValueError(f"search option cover must be 0, 1, 2 or 3, not {self.cover}")
        if self.simcards < 1:
            raise ValueError(f"search option simcards must be at least 1, not {self.simcards}")
        if self.pool < 1:
            raise ValueError(f"search option pool must be at least 1, not {self.pool}")
        if self.stack not in (0, 1):
            raise ValueError(f"search option stack must be 0 or 1, not {self.stack}")


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
        first = legal_actions[0]
        if isinstance(first, ChooseTrump):
            return self.heuristic.act(obs, legal_actions)
        if isinstance(first, Bid):
            if not self.options.simbid or obs.round > self.options.simcards:
                return self._bid(obs, [a.tricks for a in legal_actions if isinstance(a, Bid)])
            bids = bid_candidates(obs, [a.tricks for a in legal_actions if isinstance(a, Bid)])
            if len(bids) == 1:
                return Bid(bids[0])
            default = int(self.heuristic.act(obs, legal_actions).tricks)  # type: ignore[union-attr]
            if default not in bids:
                bids.append(default)
            return Bid(self._search(obs, bids, default, bidding=True))
        cards = distinct_cards(obs, [a.card for a in legal_actions if isinstance(a, Play)])
        if len(cards) == 1:
            return Play(cards[0])
        policy = playout.policy_card(obs, self.options.cover)
        default = representative(policy, cards)
        best = self._search(obs, cards, default, bidding=False)
        return Play(policy if best == default else best)

    def _bid(self, obs: WizardObservation, allowed: list[int]) -> Bid:
        """The allowed bid nearest the heuristic's estimate moved by ``shift``."""
        estimate = HeuristicBot.estimate(obs) + self.options.shift
        return Bid(min(allowed, key=lambda b: (abs(b - estimate), b)))

    def _search(self, obs: WizardObservation, moves: list[int], default: int, *, bidding: bool) -> int:
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
        value = round_value(obs, me, opts.rel, opts.end)
        plays = inference.play_history(obs) if opts.infer and not bidding else []
        done = 0
        budget = opts.sims
        while done < budget:
            hands, stack, weight = self._sample(obs, table)
            if not opts.stack:
                stack = 0
            if plays and weight > 0.0:
                weight *= inference.play_likelihood(plays, hands, table.trump, opts.infer)
            done += 1
            if weight > 0.0:
                row = []
                for move in moves:
                    if bidding:
                        points = playout.play_round_from_bid(table, hands, me, move, stack)
                    else:
                        points = playout.play_round_from_card(table, hands, me, move, stack)
                    row.append(value(points))
                rows.append(row)
                weights.append(weight)
            if time.perf_counter() >= deadline:
                break
            if done == budget == opts.sims and opts.more and undecided(rows, weights, moves, default, opts.z):
                budget += opts.more * opts.sims  # a close call: sample more deals once
        self.simulations_done = done * len(moves)
        return choose(rows, weights, moves, default, opts.z)

    def _sample(self, obs: WizardObservation, table: playout.Table) -> tuple[list[int], int, float]:
        """One deal of the unseen cards to the other hands and the stack, and its weight given the bids made.

        With ``pool`` > 1, ``pool`` deals are drawn and one is kept with a chance proportional to its weight;
        it then weighs the mean weight of the pool (sampling-importance resampling: the playouts go to the
        deals that explain the bids, the weights stay unbiased).
        """
        opts = self.options
        hands, stack = sample_hands(obs, self.rng)
        if not opts.fit:
            return hands, stack, 1.0
        weight = bid_likelihood(obs, table, hands, opts.fit, opts.bidsd)
        if opts.pool == 1 or obs.bids_hidden:
            return hands, stack, weight
        total = weight
        for _ in range(opts.pool - 1):
            other, other_stack = sample_hands(obs, self.rng)
            w = bid_likelihood(obs, table, other, opts.fit, opts.bidsd)
            total += w
            if w > 0.0 and self.rng.random() * total < w:
                hands, stack = other, other_stack
        return hands, stack, total / opts.pool


# What a round's points are worth.

#: The spread of the difference of two seats' round points (for the chance of finishing first).
ROUND_SPREAD = 35.0


def round_value(obs: WizardObservation, me: int, rel: float, end: int) -> Callable[[list[int]], float]:
    """Early on: the round's points minus ``rel`` × the others' mean; in the last ``end`` rounds: the chance of winning.

    The chance of finishing first is exact in the last round (the totals after it); before it, the
    product over the others of a normal chance of staying ahead with the rounds left.
    """
    left = obs.rounds - obs.round
    totals = obs.totals
    p = obs.players
    if left >= end:
        def points_value(points: list[int]) -> float:
            return points[me] - rel * (sum(points) - points[me]) / (p - 1)
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


def bid_likelihood(obs: WizardObservation, table: playout.Table, hands: list[int], fit: float,
                   sd: float = 0.0) -> float:
    """How well a deal explains the bids made.

    ``sd`` 0: a Gaussian in (bid − fitted estimate of the whole hand), variance 1 + round/8. ``sd`` > 0:
    the chance that the ``heuristic``'s rule (the fitted estimate, shaded, nudged by the bids that seat had
    heard) plus a normal error of spread ``sd`` rounds to the bid made; each seat's chance is at least
    ``BID_FLOOR`` (a player who bids otherwise never rules a deal out).
    """
    if obs.bids_hidden:
        return 1.0
    me = obs.seat if obs.seat is not None else 0
    if sd > 0.0:
        return float(_rule_likelihood(obs, table, hands, sd) ** fit)
    log_weight = 0.0
    for seat, bid in enumerate(obs.bids):
        if seat == me or bid is None:
            continue
        # The hand the seat held when it bid: what it holds now plus what it has played this round.
        held = hands[seat] | table.played_by[seat]
        estimate = table.estimate(held)
        log_weight -= (bid - estimate) ** 2
    return math.exp(fit * log_weight / (2.0 * (1.0 + obs.round / 8)))


#: The least chance a bid is given under the heuristic's bidding rule (``bid_likelihood`` with ``sd``).
BID_FLOOR = 0.02


def _rule_likelihood(obs: WizardObservation, table: playout.Table, hands: list[int], sd: float) -> float:
    """The product over the seats that bid of the chance the heuristic's rule, with noise ``sd``, gives their bid."""
    me = obs.seat if obs.seat is not None else 0
    p = obs.players
    first = (obs.dealer + 1) % p
    heard: list[int] = []
    weight = 1.0
    scale = sd * math.sqrt(2.0)
    for k in range(p):
        seat = (first + k) % p
        bid = obs.bids[seat]
        if bid is None:
            break
        if seat != me:
            estimate = table.estimate(hands[seat] | table.played_by[seat]) - table.shade
            if heard:
                estimate += table.pressure * (sum(heard) - len(heard) * obs.round / p)
            low = -math.inf if bid == 0 else (bid - 0.5 - estimate) / scale
            high = math.inf if bid >= obs.round else (bid + 0.5 - estimate) / scale
            chance = 0.5 * (math.erf(high) - math.erf(low))
            weight *= max(chance, BID_FLOOR)
        heard.append(bid)
    return weight


def undecided(rows: list[list[float]], weights: list[float], moves: list[int], default: int, z: float) -> bool:
    """Whether the best mean beats ``default`` but not yet by ``z`` standard errors (more deals may decide it)."""
    total = sum(weights)
    if not rows or total == 0.0:
        return False
    means = [sum(w * row[i] for w, row in zip(weights, rows)) / total for i in range(len(moves))]
    best = max(range(len(moves)), key=lambda i: (means[i], -i))
    base = moves.index(default)
    return best != base and choose(rows, weights, moves, default, z) == default


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


def bid_candidates(obs: WizardObservation, allowed: list[int]) -> list[int]:
    """The allowed bids within about two tricks of the heuristic's estimate."""
    estimate = HeuristicBot.estimate(obs)
    near = [b for b in allowed if abs(b - estimate) <= 2.0]
    return near or [min(allowed, key=lambda b: abs(b - estimate))]


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
