"""The cards going out: the deal of a hand (FEM III.2) and the cards drawn for the discards (FEM III.15).

Seats grow counter-clockwise and the cards go out one at a time from the mano (``dealer + 1``)
to the dealer. Every draw comes from the state's own RNG, so a seed replays the same cards.
The phase changes that follow (to the mus decision) are ``MusGame``'s, like every transition.
"""

from __future__ import annotations

from cardtable.core import Event
from cardtable.core.fast import constructor
from cardtable.core.rng import shuffled
from cardtable.games.mus import events as E
from cardtable.games.mus.state import MusState

_ALL_CARDS = tuple(range(40))
# Events, built without the frozen dataclass __init__ (core.fast: the very same objects).
_hand_dealt = constructor(E.HandDealt)
_cards_dealt = constructor(E.CardsDealt)
_cards_replaced = constructor(E.CardsReplaced)


def deal(s: MusState, events: list[Event]) -> None:
    """Shuffle and deal 4 cards each, one at a time, counter-clockwise from the mano; a fresh jugada."""
    cards, s.rng = shuffled(s.rng, _ALL_CARDS)
    order = s.order()
    hands: list[list[int]] = [[], [], [], []]
    for i in range(16):
        hands[order[i % 4]].append(cards[i])
    s.hands = tuple(tuple(sorted(h)) for h in hands)
    s.deck, s.discards = tuple(cards[16:]), ()
    s.hand_no += 1
    s.mus_rounds, s.mus_count = 0, 0
    s.pending, s.discard_counts = (None, None, None, None), (0, 0, 0, 0)
    s.betting, s.results, s.envites, s.shown = None, (), (), False
    s.declared_pares = s.declared_juego = (None, None, None, None)
    s.signals_used, s.signals_seen = frozenset(), ((), (), (), ())
    events.append(_hand_dealt(s.hand_no, s.dealer, s.mano))
    events.extend(_cards_dealt(seat, s.hands[seat]) for seat in order)


def replace_cards(s: MusState, events: list[Event]) -> None:
    """Everybody discarded: replace from the deck, reshuffling the discards if it runs out (FEM III.15)."""
    hands = [list(h) for h in s.hands]
    pile, deck = list(s.discards), list(s.deck)
    order = s.order()
    for seat in order:
        out = s.pending[seat] or ()
        hands[seat] = [c for c in hands[seat] if c not in out]
        pile.extend(out)
    for seat in order:
        out = s.pending[seat] or ()
        drawn: list[int] = []
        for _ in out:
            if not deck:
                deck, s.rng = shuffled(s.rng, pile)
                pile = []
                events.append(E.DeckReshuffled(len(deck)))
            drawn.append(deck.pop(0))
        hands[seat] = sorted(hands[seat] + drawn)
        events.append(_cards_replaced(seat, out, tuple(drawn)))
    s.hands, s.deck, s.discards = tuple(tuple(h) for h in hands), tuple(deck), tuple(pile)
    s.discard_counts = tuple(len(p or ()) for p in s.pending)
    s.pending = (None, None, None, None)
    s.mus_rounds += 1
    s.mus_count = 0
