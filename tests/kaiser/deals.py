"""Scripted Kaiser deals for the rule tests, and helpers to play them."""

from __future__ import annotations

from cardtable.core.events import Event
from cardtable.games.kaiser.state import KaiserState
from cardtable.games.kaiser.testing import GAME, play_script

# Every seat holds one whole suit: whoever holds trump (or leads in no trump) takes everything.
ONE_SUIT_EACH = [
    "A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 3♠",
    "A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥ 5♥",
    "A♦ K♦ Q♦ J♦ 10♦ 9♦ 8♦ 7♦",
    "A♣ K♣ Q♣ J♣ 10♣ 9♣ 8♣ 7♣",
]

# Seat 0 bids in spades and takes 7 (5 tricks, the 5♥, the 3♠); seats 1 and 3 take 3 club tricks.
SPLIT_SEVEN_THREE = [
    "A♠ K♠ Q♠ J♠ 10♠ 7♣ 8♣ 9♣",
    "A♣ K♣ Q♣ 8♥ 9♥ 10♥ J♥ Q♥",
    "3♠ 8♠ 9♠ 5♥ K♥ A♥ 7♦ 8♦",
    "J♣ 10♣ 9♦ 10♦ J♦ Q♦ K♦ A♦",
]
SPLIT_SEVEN_THREE_TRICKS = [
    "A♠ 8♥ 3♠ 9♦",    # seat 0 takes the 3♠: -2
    "K♠ 9♥ 8♠ 10♦",   # +1
    "Q♠ 10♥ 9♠ J♦",   # +1
    "J♠ J♥ 5♥ Q♦",    # partner throws the 5♥ on: +6
    "10♠ Q♥ K♥ K♦",   # +1, seat 0 has 7
    "7♣ A♣ A♥ 10♣",   # seat 1 takes it with the A♣; the off-suit A♥ wins nothing
    "K♣ 7♦ J♣ 8♣",
    "Q♣ 8♦ A♦ 9♣",    # seats 1 and 3 have 3
]

# Seat 1 bids in hearts and takes 12; seats 0 and 2 take only the last trick, holding the 3♠: -2.
DEFENDERS_MINUS_TWO = [
    "3♠ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣",
    "8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥ 7♦",
    "8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠ A♦",
    "5♥ 8♦ 9♦ 10♦ J♦ Q♦ K♦ A♣",
]
DEFENDERS_MINUS_TWO_TRICKS = [
    "A♥ 8♠ 5♥ 7♣",
    "K♥ 9♠ 8♦ 8♣",
    "Q♥ 10♠ 9♦ 9♣",
    "J♥ J♠ 10♦ 10♣",
    "10♥ Q♠ J♦ J♣",
    "9♥ K♠ Q♦ Q♣",
    "8♥ A♠ K♦ K♣",
    "7♦ A♦ A♣ 3♠",
]


def play_tricks(state: KaiserState, tricks: list[str]) -> tuple[KaiserState, list[Event]]:
    """Play whole tricks, each written as its four cards in playing order."""
    texts = [f"play {card}" for trick in tricks for card in trick.split()]
    return play_script(state, *texts)


def play_lowest(state: KaiserState, cards: int) -> tuple[KaiserState, list[Event]]:
    """Play ``cards`` cards, each seat choosing its lowest legal card."""
    events: list[Event] = []
    for _ in range(cards):
        seat = GAME.to_act(state)
        assert seat is not None
        state, new = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
        events.extend(new)
    return state, events
