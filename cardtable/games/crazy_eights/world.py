"""Crazy Eights worlds for search: the other hands and the stock consistent with one seat's view.

A seat knows its hand, the top card and the suit in force, the pile under the top card (every card
in it was seen played), the hand sizes and the stock size. The unseen cards are dealt among the
other hands and the stock in random order. What a draw says about a hand comes from outside the
observation (a bot that remembers the turns: ``crazy_eights.search.OpponentTracker``) as masks of
cards a seat cannot hold (``forbidden``). The round's
action counter (a safety limit that never binds in ordinary play) restarts at 0 in a sampled world.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

from cardtable.core.rng import rng_state
from cardtable.core.search import SearchHints
from cardtable.core.types import Seat
from cardtable.core.worlds import deal_hidden
from cardtable.games.crazy_eights.actions import Action, Play, PlayEight
from cardtable.games.crazy_eights.bots import ENDGAME_CARDS
from cardtable.games.crazy_eights.observation import CrazyEightsObservation
from cardtable.games.crazy_eights.options import CrazyEightsOptions
from cardtable.games.crazy_eights.rules import (
    BIT,
    DECK_SIZE,
    EIGHTS,
    PENALTY,
    SUIT_INDEX,
    SUIT_MASK,
    SUIT_NAMES,
    SUIT_OF,
    cards_of,
)
from cardtable.games.crazy_eights.state import CrazyEightsState


def _mask(cards: Sequence[int]) -> int:
    out = 0
    for c in cards:
        out |= BIT[c]
    return out


def sample_world(obs: CrazyEightsObservation, rng: random.Random,
                 forbidden: Mapping[Seat, int] | None = None) -> CrazyEightsState:
    """A full state consistent with ``obs``; ``forbidden[s]``: a mask of cards seat s is known not to hold."""
    if obs.seat is None:
        raise ValueError("a world is sampled for a seat, not for a spectator")
    me, n = obs.seat, obs.players
    seen = _mask(obs.hand) | _mask(obs.discard_pile) | BIT[obs.top]
    hidden = [c for c in range(DECK_SIZE) if not seen & BIT[c]]
    others = [s for s in range(n) if s != me]
    lacks = forbidden or {}
    places = [(obs.hand_counts[s], lacks.get(s, 0)) for s in others] + [(obs.stock_count, 0)]
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


# Playout hints: play the round out with the heuristic's rules; value the chance of winning the game.

#: The scale of the logistic win chance, in penalty points per remaining round: 40 points behind the
#: best other total with one round to play counts as about a 27 % chance.
SPREAD = 40.0


def round_over(world: CrazyEightsState, state: CrazyEightsState) -> bool:
    """The playout stops once the round the search started in is scored."""
    return len(state.sheet) > len(world.sheet)


def win_value(state: CrazyEightsState, seat: Seat) -> float:
    """The seat's chance of winning the game from the totals at the end of a round, roughly."""
    totals = state.totals
    own = totals[seat]
    best = min(t for s, t in enumerate(totals) if s != seat)
    if state.over:
        if own > best:
            return 0.0
        return 1.0 / sum(1 for t in totals if t == own)
    left = state.options.rounds - len(state.sheet)
    return 1.0 / (1.0 + math.exp((own - best) / (SPREAD * math.sqrt(left))))


def heuristic_policy(state: CrazyEightsState, seat: Seat, legal: Sequence[Action], rng: random.Random) -> Action:
    """The ``heuristic`` bot's move on the state: costliest plain card, eights kept until an opponent is nearly out."""
    plain = [a for a in legal if type(a) is Play]
    eights = [a for a in legal if type(a) is PlayEight]
    if not plain and not eights:
        return legal[0]
    hand = state.hands[seat]
    counts = [0, 0, 0, 0]
    points = [0, 0, 0, 0]
    for s in range(4):
        suit_cards = hand & SUIT_MASK[s] & ~EIGHTS
        counts[s] = suit_cards.bit_count()
    endgame = eights and any(state.hands[s].bit_count() <= ENDGAME_CARDS for s in range(state.players) if s != seat)
    if plain and not endgame:
        return max(plain, key=lambda a: (PENALTY[a.card], counts[SUIT_OF[a.card]], -a.card))
    card = eights[0].card
    for c in cards_of(hand & ~EIGHTS):
        points[SUIT_OF[c]] += PENALTY[c]
    suit = SUIT_NAMES[max(range(4), key=lambda s: (counts[s], points[s], -s))]
    return next(a for a in eights if a.card == card and a.suit == suit)


HINTS = SearchHints(horizon=round_over, value=win_value, policy=heuristic_policy)
