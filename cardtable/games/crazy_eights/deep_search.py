"""A faster, deeper Crazy Eights search: many more sampled deals per real choice, played out on bitmasks.

Work in progress: the flat Monte Carlo of ``crazy_eights.search`` with the bitmask playout of
``crazy_eights.playout``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from cardtable.core.types import Seat
from cardtable.games.crazy_eights.actions import Action, Play, PlayEight
from cardtable.games.crazy_eights.bots import HeuristicBot
from cardtable.games.crazy_eights.observation import CrazyEightsObservation
from cardtable.games.crazy_eights.playout import Table, apply_play, hand_penalty, play_round
from cardtable.games.crazy_eights.reading import ModelTracker
from cardtable.games.crazy_eights.rules import BIT, DECK_SIZE, SUIT_INDEX, SUIT_OF, default_hand_size, mask_of
from cardtable.games.crazy_eights.search import candidates
from cardtable.games.crazy_eights.state import CrazyEightsState
from cardtable.games.crazy_eights.win_chance import win_chance

TableSampler = Callable[[CrazyEightsObservation, random.Random, Mapping[Seat, int]], Table]


@dataclass(frozen=True)
class DeepSearchOptions:
    """The budget: playouts per real decision (shared by the candidate moves) and an optional time cap."""

    sims: int = 1000
    ms: float = 0.0
    flat: int = 1
    read: int = 1


    def __post_init__(self) -> None:
        if self.sims < 1:
            raise ValueError(f"search option sims must be at least 1, not {self.sims}")
        if self.ms < 0:
            raise ValueError(f"search option ms must be 0 (no cap) or positive, not {self.ms}")
        if self.read not in (0, 1):
            raise ValueError(f"search option read must be 0 or 1, not {self.read}")
        if self.flat != 1:
            raise ValueError(f"search option flat must be 1: the Crazy Eights search is always flat, not {self.flat}")


def parse_options(values: Mapping[str, Any]) -> DeepSearchOptions:
    """Options from ``key=value`` data (strings converted); a one-line ``ValueError`` if wrong."""
    known = [f.name for f in fields(DeepSearchOptions)]
    out: dict[str, Any] = {}
    for key, raw in values.items():
        if key not in known:
            raise ValueError(f"search has no option {key!r} (known: {', '.join(known)})")
        try:
            out[key] = float(raw) if key == "ms" else int(raw)
        except (TypeError, ValueError):
            raise ValueError(f"search option {key} must be a number, not {raw!r}") from None
    return DeepSearchOptions(**out)


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
        moves = candidates(obs, legal_actions)
        if len(moves) > 1:
            usual = self.heuristic.act(obs, legal_actions)
            moves.sort(key=lambda m: m != usual)
        action = moves[0] if len(moves) == 1 else self._search(obs, moves)
        self.tracker.after_action(obs, action)
        return action

    def _search(self, obs: CrazyEightsObservation, moves: list[Action]) -> Action:
        """Score every move on the same deals and playout seeds; stop at the time cap with the best so far."""
        seat: Seat = obs.seat  # type: ignore[assignment]  # checked by act
        forbidden = self.tracker.forbidden(obs)
        deadline = time.perf_counter() + self.options.ms / 1000 if self.options.ms else math.inf
        plays = [move_of(m) for m in moves]
        totals = [0.0] * len(moves)
        rounds_left = obs.rounds - obs.round
        worlds = max(1, self.options.sims // len(moves))
        cards_each = self.deal_size or default_hand_size(obs.players)

        def value(end: list[int]) -> float:
            return win_chance(end, seat, rounds_left, cards_each, obs.draw_until_playable)

        done = 0
        while done < worlds:
            base = self.sampler(obs, self.rng, forbidden)
            seed = self.rng.randrange(2**62)
            for i, (card, suit) in enumerate(plays):
                t = base.copy()
                if not apply_play(t, card, suit):
                    play_round(t, random.Random(seed))
                totals[i] += value([a + hand_penalty(h) for a, h in zip(obs.totals, t.hands)])
            done += 1
            if time.perf_counter() >= deadline:
                break
        self.worlds_done = done
        return moves[max(range(len(moves)), key=lambda i: (totals[i], -i))]
