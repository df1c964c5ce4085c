"""Durak worlds for search: the other hands and the deck consistent with one seat's view; playout hints.

A seat knows its hand, the bout on the table, the discarded cards, the turned-up trump (the
deck's last card while the deck lasts), the hand and deck sizes, and every card taken in view of
all that is still in a hand (``known_cards``: cards picked up on a take or handed over, and the
trump card once drawn). Each other hand keeps its known cards and is filled up at random from the
unseen ones; the rest, in random order, is the deck, with the trump card at its bottom.
The lowest-trump rule for the first attack is not used (it says little after the first bout).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtable.core.search import SearchHints
from cardtable.core.types import Seat
from cardtable.core.worlds import deal_hidden
from cardtable.games.durak import rules
from cardtable.games.durak.actions import STOP, TAKE, DurakAction
from cardtable.games.durak.observation import DurakObservation
from cardtable.games.durak.state import DurakState, position_state


def sample_world(obs: DurakObservation, rng: random.Random) -> DurakState:
    """A full state consistent with ``obs``."""
    if obs.seat is None:
        raise ValueError("a world is sampled for a seat, not for a spectator")
    me, n = obs.seat, obs.players
    known = [frozenset(k) for k in obs.known_cards] if obs.known_cards else [frozenset()] * n
    seen = set(obs.hand) | set(obs.bout) | set(obs.discarded) | set().union(*known)
    if obs.deck_count:
        seen.add(obs.trump_card)
    hidden = [c for c in range(rules.DECK_SIZE) if c not in seen]
    others = [s for s in range(n) if s != me]
    places = [(obs.hand_counts[s] - len(known[s]), 0) for s in others]
    places.append((obs.deck_count - (1 if obs.deck_count else 0), 0))
    deal = deal_hidden(hidden, places, rng)
    hands: list[tuple[int, ...]] = [()] * n
    hands[me] = obs.hand
    for other, cards in zip(others, deal):
        hands[other] = (*known[other], *cards)
    return position_state(
        n, obs.trump_card, hands, (*deal[-1], obs.trump_card) if obs.deck_count else (),
        attacker=obs.attacker if obs.attacker is not None else 0,
        defender=obs.defender if obs.defender is not None else 0,
        bout=obs.bout, bout_number=obs.bout_number, gone=obs.discarded, discards=obs.discards,
        known=[c for k in known for c in k], left=[0 if playing else 1 for playing in obs.in_game],
        over=obs.finished, fool=obs.fool, capped=obs.attack_cap == "defender_hand")


# Playout hints: play to the end of the game with a cheap policy on the state.


def playout_policy(state: DurakState, seat: Seat, legal: Sequence[DurakAction], rng: random.Random) -> DurakAction:
    """Defend with the lowest beating card (a trump only if needed), else take; attack low, keep trumps."""
    setup = state.setup
    trump = setup.trump
    if TAKE in legal:
        beats = [a for a in legal if a is not TAKE]
        if not beats:
            return TAKE
        return min(beats, key=lambda a: rules.SORT_KEY[trump][a.card])  # type: ignore[union-attr]
    cards = [a for a in legal if a is not STOP]
    if not cards:
        return STOP
    if STOP in legal:
        plain = [a for a in cards if rules.SUIT[a.card] != trump]  # type: ignore[union-attr]
        if not plain and state.drawn < len(setup.stock):
            return STOP
        cards = plain or cards
    return min(cards, key=lambda a: rules.SORT_KEY[trump][a.card])  # type: ignore[union-attr]


def game_value(state: DurakState, seat: Seat) -> float:
    """+1 for leaving first, -1 for the fool, 0 otherwise (the outcome's score)."""
    if not state.over:
        return 0.0
    if state.fool == seat:
        return -1.0
    firsts = [s for s, b in enumerate(state.left) if b and b == min(x for x in state.left if x)]
    return 1.0 if seat in firsts and len(firsts) == 1 else 0.0


HINTS = SearchHints(value=game_value, policy=playout_policy)
