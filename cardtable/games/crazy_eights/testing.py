"""Testing aid: Crazy Eights states from an explicit deck order or explicit hands.

Two ways in, both returning a state the ordinary ``GAME.apply`` plays on::

    from cardtable.games.crazy_eights.testing import cards, state_from_hands
    state = state_from_hands(GAME.options(players=2), ["7♠ 8♥", "K♦ 2♣"], starter="7♦", stock="Q♠ 3♣")
    # seat 0 (left of dealer 1) to act; Q♠ is the next card drawn.

- :func:`state_from_deck_order` deals like the real game from a pack whose first card is dealt first:
  one card at a time from the dealer's left, then the starter, then the stock (next card drawn first).
- :func:`state_from_hands` places the cards directly; cards listed nowhere are out of play.

Either takes ``seed``: later rounds (and stock rebuilds) are shuffled from it as in a real game.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.core.events import Event
from cardtable.core.types import CardId, Seat
from cardtable.games.crazy_eights.game import deal_round, new_state
from cardtable.games.crazy_eights.options import CrazyEightsOptions
from cardtable.games.crazy_eights.rules import DECK, SUIT_INDEX, SUIT_OF, mask_of
from cardtable.games.crazy_eights.state import CrazyEightsState

Cards = str | Sequence[CardId]


def cards(spec: Cards) -> list[CardId]:
    """Card ids from text (``"7♠ 8H, 10d"``) or from ids (returned as a list)."""
    return DECK.parse_many(spec) if isinstance(spec, str) else list(spec)


def state_from_deck_order(options: CrazyEightsOptions, order: Cards, *, dealer: Seat = 0,
                          seed: int = 0) -> tuple[CrazyEightsState, list[Event]]:
    """Deal round 1 from ``order`` (all 52 cards, first dealt first) with ``dealer`` dealing."""
    ids = cards(order)
    if sorted(ids) != list(range(len(DECK))):
        raise ValueError("a deck order must list each of the 52 cards once")
    state = new_state(options, seed)
    state.dealer = dealer
    return state, deal_round(state, ids)


def state_from_hands(options: CrazyEightsOptions, hands: Sequence[Cards], starter: str | CardId,
                     stock: Cards = (), *, discards: Cards = (), suit: str | None = None,
                     dealer: Seat | None = None, turn: Seat | None = None, round: int = 1,
                     totals: Sequence[int] | None = None, seed: int = 0) -> CrazyEightsState:
    """A mid-round state: ``hands`` per seat, ``starter`` on top, ``stock`` in draw order (first drawn first).

    ``suit`` (a name such as ``"hearts"``) is the suit in force, by default the top card's;
    ``discards`` lie under the top card; ``turn`` defaults to the dealer's left, the dealer to
    the last seat.
    """
    n = options.players
    if len(hands) != n:
        raise ValueError(f"{n} hands expected, got {len(hands)}")
    top = cards([starter] if isinstance(starter, int) else starter)[0]
    placed = [c for h in hands for c in cards(h)] + [top] + cards(stock) + cards(discards)
    if len(set(placed)) != len(placed):
        raise ValueError("a card is placed twice")
    state = new_state(options, seed)
    state.dealer = n - 1 if dealer is None else dealer
    state.round = round
    state.totals = tuple(totals) if totals is not None else (0,) * n
    state.hands = tuple(mask_of(cards(h)) for h in hands)
    state.stock = tuple(reversed(cards(stock)))
    state.discards = mask_of(cards(discards))
    state.top = top
    state.suit = SUIT_OF[top] if suit is None else SUIT_INDEX[suit]
    state.turn = (state.dealer + 1) % n if turn is None else turn
    state.drawn = state.passes = state.round_actions = 0
    state.last_drawn = None
    return state
