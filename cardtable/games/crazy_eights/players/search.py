"""The Crazy Eights search (``search``, ``search_quick``): flat Monte Carlo on deals that read the hands exactly.

Most turns are forced (one card plays, or a draw): those cost nothing. At a real choice every
candidate (each plain card; one eight per suit it may name) is scored on the same sampled deals,
each played out with the same random numbers (common random numbers) by ``playout.play_round``,
every seat by the ``heuristic``'s rules; the value of a playout is the chance of winning the game
from the totals at the round's end (``win_chance``; exact in the last round). Every ``BATCH``
deals a candidate the best beats by ``CULL_Z`` paired standard errors is dropped and the rest share
its playouts; the best mean is played, ties going to the ``heuristic``'s move.

The deals come from ``particles.ParticleFilter``: hypotheses of the other hands that a replay of
the round by the heuristic's exact rule reproduces. When the filter has none (opponents who do not
play as the heuristic does, a round joined in the middle) they come from ``reading.ModelTracker``'s
constraints (``deal_table``); ``fallbacks`` counts those decisions.

Options: ``sims`` (playouts per real choice), ``ms`` (a time cap; building particles takes at most
half of it and the best move so far is returned), ``particles`` (hypotheses kept, N), ``tries``
(attempts to build one, per hypothesis wanted: the cost cap) and ``flat`` (accepted as 1 only, for
command lines written for other games).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.core.bot import check_budget, parse_bot_options
from cardtable.core.types import Seat
from cardtable.games.crazy_eights.actions import Action, Play, PlayEight
from cardtable.games.crazy_eights.observation import CrazyEightsObservation
from cardtable.games.crazy_eights.players.compiled import FAST
from cardtable.games.crazy_eights.players.heuristic import HeuristicBot
from cardtable.games.crazy_eights.players.particles import ParticleFilter
from cardtable.games.crazy_eights.players.playout import Table, apply_play, hand_penalty, play_round
from cardtable.games.crazy_eights.players.reading import ModelTracker
from cardtable.games.crazy_eights.players.win_chance import gap_cdf, win_chance
from cardtable.games.crazy_eights.rules import BIT, DECK_SIZE, SUIT_INDEX, SUIT_OF, cards_of, default_hand_size, mask_of

TableSampler = Callable[[CrazyEightsObservation, random.Random, Mapping[Seat, int]], Table]


@dataclass(frozen=True)
class SearchOptions:
    """The budget (playouts per real decision, shared by the candidates), a time cap, the filter's size and cost cap."""

    sims: int = 1000
    ms: float = 0.0
    flat: int = 1
    particles: int = 200
    tries: int = 20

    def __post_init__(self) -> None:
        check_budget(self.sims, self.ms)
        if self.flat != 1:
            raise ValueError(f"search option flat must be 1: the Crazy Eights search is always flat, not {self.flat}")
        if not 1 <= self.particles <= 100_000:
            raise ValueError(f"search option particles must be 1 to 100000, not {self.particles}")
        if not 1 <= self.tries <= 10_000:
            raise ValueError(f"search option tries must be 1 to 10000, not {self.tries}")


def parse_options(values: Mapping[str, Any]) -> SearchOptions:
    """Options from ``key=value`` data (strings are converted); ``ValueError`` in one line if wrong."""
    return parse_bot_options(SearchOptions, values)


# The candidates.


def candidates(obs: CrazyEightsObservation, legal: Sequence[Action]) -> list[Action]:
    """The distinct moves: each plain card, and one eight (all eights are alike) per suit it may name."""
    out: list[Action] = [a for a in legal if type(a) is Play]
    eights = [a for a in legal if type(a) is PlayEight]
    if eights:
        card = eights[0].card
        out.extend(a for a in eights if a.card == card)
    return out or list(legal)


def candidates_usual_first(obs: CrazyEightsObservation, legal: Sequence[Action], heuristic: Any) -> list[Action]:
    """``candidates``, with ``heuristic``'s move first when there is a choice: it wins ties (common in a
    decided last round), not the lowest card."""
    moves = candidates(obs, legal)
    if len(moves) > 1:
        usual = heuristic.act(obs, legal)
        moves.sort(key=lambda m: m != usual)
    return moves


def move_of(action: Action) -> tuple[int, int]:
    """A playing action as (card, suit then in force)."""
    if isinstance(action, PlayEight):
        return action.card, SUIT_INDEX[action.suit]
    assert isinstance(action, Play)
    return action.card, SUIT_OF[action.card]


#: Sampled deals between two culls of the candidates that are clearly worse than the best.
BATCH = 50
#: A candidate is dropped when the best beats it by this many standard errors (paired, same deals).
CULL_Z = 3.0


def _survivors(values: list[list[float]], alive: list[int]) -> list[int]:
    """The candidates still worth sampling: those the best does not beat by ``CULL_Z`` standard errors."""
    k = len(values[alive[0]])
    means = {i: math.fsum(values[i][-k:]) / k for i in alive}
    best = max(alive, key=lambda i: (means[i], -i))
    keep = []
    for i in alive:
        if i == best:
            keep.append(i)
            continue
        diffs = [a - b for a, b in zip(values[best][-k:], values[i][-k:])]
        mean = math.fsum(diffs) / k
        var = math.fsum((d - mean) ** 2 for d in diffs) / max(1, k - 1)
        if mean <= CULL_Z * math.sqrt(var / k):
            keep.append(i)
    return keep


# The fallback deals: what the others cannot hold, read by ``ModelTracker``.


def _pick(pool: list[int], k: int, rnd: Callable[[], float]) -> list[int]:
    """``k`` cards taken at random out of ``pool`` (which loses them; its order is not kept)."""
    out = []
    for _ in range(k):
        i = int(rnd() * len(pool))
        out.append(pool[i])
        pool[i] = pool[-1]
        pool.pop()
    return out


def deal_table(obs: CrazyEightsObservation, rng: random.Random, forbidden: Mapping[Seat, int]) -> Table:
    """A random deal of the unseen cards consistent with ``obs`` and ``forbidden``, as a playout table.

    Seats known to lack cards are dealt first, each a uniform choice among the cards it may hold;
    the others then get uniform choices of the rest, and the stock keeps what is left, in no order
    (the table draws at random). A constraint that cannot be met (an opponent who does not play as
    assumed) is dropped rather than failing.
    """
    me = obs.seat if obs.seat is not None else 0
    seen = 0
    for c in obs.hand:
        seen |= BIT[c]
    for c in obs.discard_pile:
        seen |= BIT[c]
    seen |= BIT[obs.top]
    pool = [c for c in range(DECK_SIZE) if not seen >> c & 1]
    rnd = rng.random
    hands = [0] * obs.players
    hands[me] = mask_of(obs.hand)
    order = sorted((s for s in range(obs.players) if s != me), key=lambda s: s not in forbidden)
    for s in order:
        k = obs.hand_counts[s]
        lacks = forbidden.get(s, 0)
        allowed = [c for c in pool if not lacks >> c & 1] if lacks else pool
        if len(allowed) < k:
            allowed = pool
        cards = _pick(allowed, k, rnd)
        if allowed is not pool:
            taken = mask_of(cards)
            pool = [c for c in pool if not taken >> c & 1]
        hands[s] = mask_of(cards)
    return Table(hands, pool, mask_of(obs.discard_pile), obs.top, SUIT_INDEX[obs.suit],
                 obs.to_act if obs.to_act is not None else me, obs.drawn_this_turn, obs.passes_in_row, 0,
                 obs.draw_until_playable, random_draws=True)


# The bot.


class ParticleSearchBot:
    """Flat Monte Carlo with common random numbers on particle deals (``ModelTracker``'s as the fallback)."""

    name = "search"
    accepts_options = True

    def __init__(self, seed: int = 0, **options: Any) -> None:
        self.options = parse_options(options)
        self.rng = random.Random(seed)
        self.tracker = ModelTracker()
        self.filter = ParticleFilter(self.options.particles, self.options.tries, seed)
        self.heuristic = HeuristicBot()
        self.sampler: TableSampler = deal_table
        self.worlds_done = 0
        self.seen_round = -1
        self.deal_size = 0

    @property
    def fallbacks(self) -> int:
        """Decisions whose deals came from the fallback sampler (no particle explained the round)."""
        return self.filter.fallbacks

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """The candidate with the best mean value over the sampled deals (the only legal action at once)."""
        obs: CrazyEightsObservation = observation
        if obs.seat is None:
            raise ValueError("the search bot plays a seat; a spectator's observation has none")
        if obs.round != self.seen_round:
            # Our first turn of a round: nobody has drawn into our hand yet, so it shows the deal's size.
            self.seen_round = obs.round
            self.deal_size = len(obs.hand) - obs.drawn_this_turn
        self.tracker.before_turn(obs)
        self.filter.before_turn(obs)
        moves = self._candidates(obs, legal_actions)
        if len(moves) == 1:
            action = moves[0]
        else:
            start, ms = time.perf_counter(), self.options.ms
            # Building particles may take half the time cap; the search has what is left.
            deadline = start + ms / 2000 if ms else math.inf
            self.sampler = self._particle_table if self.filter.update(obs, deadline) else deal_table
            action = self._search(obs, moves, start + ms / 1000 if ms else math.inf)
        self.tracker.after_action(obs, action)
        self.filter.after_action(obs, action)
        return action

    def _candidates(self, obs: CrazyEightsObservation, legal: Sequence[Action]) -> list[Action]:
        """The moves to score, the default (the heuristic's move, which wins ties) first."""
        return candidates_usual_first(obs, legal, self.heuristic)

    def _search(self, obs: CrazyEightsObservation, moves: list[Action], deadline: float) -> Action:
        """Score every move on the same deals and playout seeds; stop at ``deadline`` (a ``time.perf_counter``
        value) with the best so far."""
        alive, values = self._score(obs, moves, deadline)
        means = [math.fsum(v) / len(v) if v else -math.inf for v in values]
        return moves[max(alive, key=lambda i: (means[i], -i))]

    def _score(self, obs: CrazyEightsObservation, moves: list[Action], deadline: float) -> tuple[list[int],
                                                                                               list[list[float]]]:
        """The candidates still in the race and every candidate's playout values (the worlds in C where built)."""
        seat: Seat = obs.seat  # type: ignore[assignment]  # checked by act
        forbidden = self.tracker.forbidden(obs)
        plays = [move_of(m) for m in moves]
        rounds_left = obs.rounds - obs.round
        cards_each = self.deal_size or default_hand_size(obs.players)

        def value(hands: list[int]) -> float:
            """The chance of winning the game from the round's end (the hands left)."""
            end = [a + hand_penalty(h) for a, h in zip(obs.totals, hands)]
            return win_chance(end, seat, rounds_left, cards_each, obs.draw_until_playable)

        alive = list(range(len(moves)))
        values: list[list[float]] = [[] for _ in moves]
        spent = done = 0
        worlds = self._compiled_worlds(obs, plays, values, forbidden, rounds_left, cards_each)
        while spent < self.options.sims and len(alive) > 1:
            if worlds is not None:  # the same worlds in C, up to the next cull
                spent, done, late = worlds.run(alive, spent, self.options.sims, done, deadline)
            else:
                base = self.sampler(obs, self.rng, forbidden)
                seed = self.rng.randrange(2**62)
                for i in alive:
                    card, suit = plays[i]
                    t = base.copy()
                    if not apply_play(t, card, suit):
                        play_round(t, random.Random(seed))
                    values[i].append(value(t.hands))
                spent += len(alive)
                done += 1
                late = time.perf_counter() >= deadline
            if done % BATCH == 0:
                alive = _survivors(values, alive)
            if late:
                break
        if worlds is not None:
            worlds.close()
        self.worlds_done = done
        return alive, values

    def _compiled_worlds(self, obs: CrazyEightsObservation, plays: list[tuple[int, int]], values: list[list[float]],
                         forbidden: Mapping[Seat, int], rounds_left: int, cards_each: int) -> Any:
        """This decision's compiled ``Worlds`` (its sampler, candidates and values), or None: the Python loop runs."""
        fast = FAST.get()
        if fast is None or self.sampler not in (self._particle_table, deal_table):
            return None
        me = obs.seat if obs.seat is not None else 0
        n = obs.players
        table = Table([mask_of(obs.hand) if s == me else 0 for s in range(n)], [], mask_of(obs.discard_pile), obs.top,
                      SUIT_INDEX[obs.suit], obs.to_act if obs.to_act is not None else me, obs.drawn_this_turn,
                      obs.passes_in_row, 0, obs.draw_until_playable, random_draws=True)
        particles = deal = None
        if self.sampler == self._particle_table:
            particles = self.filter.particles
        else:
            seen = mask_of(obs.hand) | mask_of(obs.discard_pile) | BIT[obs.top]
            order = sorted((s for s in range(n) if s != me), key=lambda s: s not in forbidden)
            deal = (seen, order, obs.hand_counts, [forbidden.get(s, 0) for s in range(n)])
        cdf = gap_cdf(n, cards_each, obs.draw_until_playable, rounds_left) if rounds_left > 0 else None
        return fast.Worlds(self.rng, table, me, plays, values, particles, deal, obs.totals, rounds_left, cdf,
                           math.log2(n) / (n - 1), BATCH)

    def _particle_table(self, obs: CrazyEightsObservation, rng: random.Random, forbidden: Mapping[Seat, int]) -> Table:
        """A playout table from one particle: its hands for the others, its stock drawn at random."""
        me = obs.seat if obs.seat is not None else 0
        hands, stock = self.filter.particles[int(rng.random() * len(self.filter.particles))]
        table_hands = list(hands)
        table_hands[me] = mask_of(obs.hand)
        return Table(table_hands, cards_of(stock), mask_of(obs.discard_pile), obs.top, SUIT_INDEX[obs.suit],
                     obs.to_act if obs.to_act is not None else me, obs.drawn_this_turn, obs.passes_in_row, 0,
                     obs.draw_until_playable, random_draws=True)


__all__ = ["ParticleSearchBot", "SearchOptions", "candidates", "deal_table", "parse_options"]
