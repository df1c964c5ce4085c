"""Crazy Eights worlds for search: the other hands and the stock consistent with one seat's view.

A seat knows its hand, the top card and the suit in force, the pile under the top card (every card
in it was seen played), the hand sizes and the stock size. The unseen cards are dealt among the
other hands and the stock in random order. The round's action counter (a safety limit that never
binds in ordinary play) restarts at 0 in a sampled world.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtable.core.rng import rng_state
from cardtable.core.worlds import deal_hidden
from cardtable.games.crazy_eights.observation import CrazyEightsObservation
from cardtable.games.crazy_eights.options import CrazyEightsOptions
from cardtable.games.crazy_eights.rules import BIT, DECK_SIZE, SUIT_INDEX
from cardtable.games.crazy_eights.state import CrazyEightsState


def _mask(cards: Sequence[int]) -> int:
    out = 0
    for c in cards:
        out |= BIT[c]
    return out


def sample_world(obs: CrazyEightsObservation, rng: random.Random) -> CrazyEightsState:
    """A full state consistent with ``obs``: the unseen cards dealt at random among the other hands and the stock."""
    if obs.seat is None:
        raise ValueError("a world is sampled for a seat, not for a spectator")
    me, n = obs.seat, obs.players
    seen = _mask(obs.hand) | _mask(obs.discard_pile) | BIT[obs.top]
    hidden = [c for c in range(DECK_SIZE) if not seen & BIT[c]]
    others = [s for s in range(n) if s != me]
    places = [(obs.hand_counts[s], 0) for s in others] + [(obs.stock_count, 0)]
    deal = deal_hidden(hidden, places, rng)
    hands = [0] * n
    hands[me] = _mask(obs.hand)
    for other, cards in zip(others, deal):
        hands[other] = _mask(cards)
    s = CrazyEightsState.__new__(CrazyEightsState)
    s.options = CrazyEightsOptions(players=n, draw_until_playable=obs.draw_until_playable,
                                   rounds=obs.rounds)  # type: ignore[arg-type]
    s.players, s.draw_until = n, obs.draw_until_playable
    s.hands, s.stock, s.discards = tuple(hands), tuple(deal[-1]), _mask(obs.discard_pile)
    s.top, s.suit = obs.top, SUIT_INDEX[obs.suit]
    s.turn = obs.to_act if obs.to_act is not None else 0
    s.drawn, s.last_drawn, s.passes = obs.drawn_this_turn, obs.last_drawn, obs.passes_in_row
    s.round, s.dealer, s.round_actions = obs.round, obs.dealer, 0
    s.sheet, s.totals, s.rng, s.over = obs.sheet, obs.totals, rng_state(rng.randrange(2**62)), obs.over
    return s

