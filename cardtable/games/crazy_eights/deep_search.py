"""The deep Crazy Eights search (``search_deep``): many sampled deals per real choice, read hands, the game's odds.

Flat Monte Carlo like ``crazy_eights.search`` (the first search, ``search_v1``), with four changes:

- **Speed.** Deals are sampled straight into bitmasks (``deal_table``; the stock is not shuffled,
  its cards are drawn at random) and played out by ``crazy_eights.playout`` without the engine's
  events and copies: about 10 times more playouts in the same time, 1000 per real choice by default.
- **Hands read by the heuristic's rules** (``crazy_eights.reading.ModelTracker``): besides what a
  draw proves, a card played says which costlier cards its player did not hold, and an eight or a
  plain card in the endgame says more. Sampled deals respect it.
- **Value: the chance of winning the game** from the totals after the round (``win_chance``: the
  per-opponent chances from the spread of round penalties, combined), exact in the last round.
- **The budget goes to the contenders.** Candidates are scored on the same deals and playout
  random numbers; every ``BATCH`` deals, one the best beats by ``CULL_Z`` paired standard errors is
  dropped, and the rest share its playouts. A forced move costs nothing.

Ties go to the ``heuristic`` bot's move. Options: ``sims`` (playouts per real choice), ``ms`` (a
time cap; the best move so far is returned), ``read`` (1: read plays as above, 0: draws only),
``flat`` (accepted as 1 only), and measured variants, off by default because none won measurably
more (docs/bots.md): ``plan`` (our next turn in a playout: 1 chosen by what we would see then,
``_next_turn``; 2 the best move in that world, 3 halfway between that and the heuristic's,
``_next_turn_in_world``) and ``last`` (1: a round that leaves one to play is valued by who goes
out, ``win_chance.last_round_chance``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.core.bot import parse_bot_options
from cardtable.core.types import Seat
from cardtable.games.crazy_eights.actions import Action, Play, PlayEight
from cardtable.games.crazy_eights.bots import HeuristicBot
from cardtable.games.crazy_eights.game import MATCH
from cardtable.games.crazy_eights.observation import CrazyEightsObservation
from cardtable.games.crazy_eights.playout import STOPPED, Table, apply_play, hand_penalty, heuristic_move, play_round
from cardtable.games.crazy_eights.reading import ModelTracker
from cardtable.games.crazy_eights.rules import BIT, DECK_SIZE, EIGHTS, SUIT_INDEX, SUIT_OF, default_hand_size, mask_of
from cardtable.games.crazy_eights.search import candidates_usual_first
from cardtable.games.crazy_eights.state import CrazyEightsState
from cardtable.games.crazy_eights.win_chance import win_chance

TableSampler = Callable[[CrazyEightsObservation, random.Random, Mapping[Seat, int]], Table]


@dataclass(frozen=True)
class DeepSearchOptions:
    """The budget: playouts per real decision (shared by the candidate moves), an optional time cap, the
    reading, and the two variants (``plan``, ``last``; see the module)."""

    sims: int = 1000
    ms: float = 0.0
    flat: int = 1
    read: int = 1
    last: int = 0
    plan: int = 0

    def __post_init__(self) -> None:
        if self.sims < 1:
            raise ValueError(f"search option sims must be at least 1, not {self.sims}")
        if self.ms < 0:
            raise ValueError(f"search option ms must be 0 (no cap) or positive, not {self.ms}")
        if self.read not in (0, 1):
            raise ValueError(f"search option read must be 0 or 1, not {self.read}")
        if self.plan not in (0, 1, 2, 3):
            raise ValueError(f"search option plan must be 0, 1, 2 or 3, not {self.plan}")
        if self.last not in (0, 1):
            raise ValueError(f"search option last must be 0 or 1, not {self.last}")
        if self.flat != 1:
            raise ValueError(f"search option flat must be 1: the Crazy Eights search is always flat, not {self.flat}")


def parse_options(values: Mapping[str, Any]) -> DeepSearchOptions:
    """Options from ``key=value`` data (strings are converted); ``ValueError`` in one line if wrong."""
    return parse_bot_options(DeepSearchOptions, values)


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


def table_of(world: CrazyEightsState) -> Table:
    """The playout's view of a sampled world."""
    return Table(list(world.hands), list(world.stock), world.discards, world.top, world.suit, world.turn,
                 world.drawn, world.passes, world.round_actions, world.draw_until)


def move_of(action: Action) -> tuple[int, int]:
    """A playing action as (card, suit then in force)."""
    if isinstance(action, PlayEight):
        return action.card, SUIT_INDEX[action.suit]
    assert isinstance(action, Play)
    return action.card, SUIT_OF[action.card]


@dataclass(slots=True)
class _Turn:
    """Our next turn as we would see it (one per observation): its moves and each one's values so far."""

    moves: list[tuple[int, int]]
    sums: list[float]
    visits: int = 0


def turn_moves(hands: list[int], seat: Seat, playable: int) -> list[tuple[int, int]]:
    """The distinct moves as (card, suit then in force), the heuristic's first: each plain card, then the
    lowest eight naming each suit."""
    usual = heuristic_move(hands, seat, playable)
    out = [usual]
    plain = playable & ~EIGHTS
    while plain:
        low = plain & -plain
        plain ^= low
        card = low.bit_length() - 1
        if card != usual[0]:
            out.append((card, SUIT_OF[card]))
    eights = playable & EIGHTS
    if eights:
        eight = (eights & -eights).bit_length() - 1
        out.extend((eight, s) for s in range(4) if (eight, s) != usual)
    return out


#: Visits of one of our next turns before its best move so far, not the heuristic's, is what it plays.
TRUST = 4


def _moves_at(t: Table, seat: Seat) -> list[tuple[int, int]]:
    """Our distinct moves at the turn ``t`` stopped at (``turn_moves``; none if nothing plays)."""
    playable = t.hands[seat] & MATCH[t.top * 4 + t.suit]
    return turn_moves(t.hands, seat, playable) if playable else []


def _every_move(t: Table, rng: random.Random, moves: list[tuple[int, int]],
                value: Callable[[list[int]], float]) -> list[float]:
    """Each move played from ``t`` and the round played out, all on the same random numbers; their values."""
    state = rng.getstate()
    got = []
    for card, suit in moves:
        branch = t.copy()
        rng.setstate(state)
        if not apply_play(branch, card, suit):
            play_round(branch, rng)
        got.append(value(branch.hands))
    return got


def _next_turn(t: Table, rng: random.Random, seat: Seat, turns: dict[tuple[int, ...], _Turn],
               value: Callable[[list[int]], float]) -> tuple[float, int]:
    """Our next turn in a playout (``t`` stopped at its start): the value of the move our plan plays there,
    and the playouts spent.

    Every move is played out from here on the same random numbers and each one's mean is kept per
    observation (top, suit, pile, hand sizes: what we would see then, so the worlds that reach it are
    the ones we could be in). The move chosen is the best by the means of the earlier visits (the
    heuristic's until ``TRUST`` visits), so its value is not biased upwards by this visit's luck.
    """
    moves = _moves_at(t, seat)
    if len(moves) < 2:
        play_round(t, rng)
        return value(t.hands), 1
    key = (t.top, t.suit, t.discards, *(h.bit_count() for h in t.hands))
    turn = turns.get(key)
    if turn is None:
        turn = turns[key] = _Turn(moves, [0.0] * len(moves))
    chosen = 0
    if turn.visits >= TRUST:
        chosen = max(range(len(moves)), key=lambda j: (turn.sums[j], -j))
    got = _every_move(t, rng, moves, value)
    for j, v in enumerate(got):
        turn.sums[j] += v
    turn.visits += 1
    return got[chosen], len(moves)


def _next_turn_in_world(t: Table, rng: random.Random, seat: Seat, value: Callable[[list[int]], float],
                        half: bool) -> tuple[float, int]:
    """Our next turn in a playout (``t`` stopped at its start) valued in this world alone, and the playouts spent.

    Every move is played out from here on the same random numbers. The best of them is what we could
    do there if we knew this world (its hands and its draws): too hopeful, since at the table we will
    not. The heuristic's move is what the flat search assumes: too modest, since we will know more
    then than now and play better than the heuristic. ``half`` values the turn halfway between the
    two (``plan=3``); without it, the best (``plan=2``).
    """
    moves = _moves_at(t, seat)
    if len(moves) < 2:
        play_round(t, rng)
        return value(t.hands), 1
    got = _every_move(t, rng, moves, value)
    best = max(got)
    return (0.5 * (got[0] + best) if half else best), len(moves)


class DeepSearchBot:
    """Flat Monte Carlo with common random numbers over many sampled deals, played out on bitmasks."""

    name = "search_deep"
    accepts_options = True

    def __init__(self, seed: int = 0, **options: Any) -> None:
        self.options = parse_options(options)
        self.rng = random.Random(seed)
        self.tracker = ModelTracker(read_plays=bool(self.options.read))
        self.heuristic = HeuristicBot()
        self.sampler: TableSampler = deal_table
        self.worlds_done = 0
        self.seen_round = -1
        self.deal_size = 0

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """The candidate with the best mean value over the sampled deals (the only legal action at once)."""
        obs: CrazyEightsObservation = observation
        if obs.seat is None:
            raise ValueError("the search bot plays a seat; a spectator's observation has none")
        if obs.round != self.seen_round:
            # Our first turn of a round: nobody has drawn into our hand yet, so it shows the deal's size.
            self.seen_round = obs.round
            self.deal_size = len(obs.hand) + (0 if obs.drawn_this_turn == 0 else -obs.drawn_this_turn)
        self.tracker.before_turn(obs)
        moves = candidates_usual_first(obs, legal_actions, self.heuristic)
        action = moves[0] if len(moves) == 1 else self._search(obs, moves)
        self.tracker.after_action(obs, action)
        return action

    def _search(self, obs: CrazyEightsObservation, moves: list[Action], deadline: float | None = None) -> Action:
        """Score every move on the same deals and playout seeds; stop at the time cap (or ``deadline``,
        a ``time.perf_counter`` value) with the best so far."""
        seat: Seat = obs.seat  # type: ignore[assignment]  # checked by act
        forbidden = self.tracker.forbidden(obs)
        if deadline is None:
            deadline = time.perf_counter() + self.options.ms / 1000 if self.options.ms else math.inf
        plays = [move_of(m) for m in moves]
        last = bool(self.options.last)
        rounds_left = obs.rounds - obs.round
        cards_each = self.deal_size or default_hand_size(obs.players)

        def value(hands: list[int]) -> float:
            """The chance of winning the game from the round's end (the hands left)."""
            end = [a + hand_penalty(h) for a, h in zip(obs.totals, hands)]
            return win_chance(end, seat, rounds_left, cards_each, obs.draw_until_playable, last=last)

        stop = seat if self.options.plan else -1
        alive = list(range(len(moves)))
        values: list[list[float]] = [[] for _ in moves]
        turns: list[dict[tuple[int, ...], _Turn]] = [{} for _ in moves]  # our next turn, by what we would see
        spent = done = 0
        while spent < self.options.sims and len(alive) > 1:
            base = self.sampler(obs, self.rng, forbidden)
            seed = self.rng.randrange(2**62)
            for i in alive:
                card, suit = plays[i]
                t = base.copy()
                if apply_play(t, card, suit):
                    values[i].append(value(t.hands))
                    continue
                rng = random.Random(seed)
                if play_round(t, rng, stop) == STOPPED:  # our next turn (only with the plan option)
                    if self.options.plan == 1:
                        got, cost = _next_turn(t, rng, seat, turns[i], value)
                    else:
                        got, cost = _next_turn_in_world(t, rng, seat, value, self.options.plan == 3)
                    values[i].append(got)
                    spent += cost - 1
                    continue
                values[i].append(value(t.hands))
            spent += len(alive)
            done += 1
            if done % BATCH == 0:
                alive = _survivors(values, alive)
            if time.perf_counter() >= deadline:
                break
        self.worlds_done = done
        means = [math.fsum(v) / len(v) if v else -math.inf for v in values]
        return moves[max(alive, key=lambda i: (means[i], -i))]
