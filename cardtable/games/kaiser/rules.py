"""Stateless Kaiser rules on card ids and bitmasks: suits, ranks, tricks, bids, scores and the end of the game.

Card ids come from :data:`cardtable.cards.KAISER_32`: eight per suit (♠ 0–7, ♥ 8–15,
♦ 16–23, ♣ 24–31), lowest rank first, so ``id >> 3`` is the suit and ``id & 7`` the rank.
A hand is an int bitmask with bit ``id`` set for each card held.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cardtable.cards import FRENCH_SUITS, KAISER_32, CardId
from cardtable.cards import mask_of as mask_of
from cardtable.core.types import Seat

THREE_OF_SPADES: CardId = 0
FIVE_OF_HEARTS: CardId = 8
NO_TRUMP = 4
"""The trump index meaning "no trump" (suits are 0–3: spades, hearts, diamonds, clubs)."""
SUIT_WORDS: tuple[str, ...] = tuple(s.word for s in FRENCH_SUITS)
SUIT_SYMBOLS: tuple[str, ...] = tuple(s.symbol for s in FRENCH_SUITS)
FULL_DECK = (1 << 32) - 1
MAX_BID = 10
HAND_POINTS = 10
"""Every hand is worth 10: 8 tricks, +5 for the 5♥, −3 for the 3♠."""
CARD_TEXT: tuple[str, ...] = tuple(KAISER_32.text(c) for c in range(32))
CARD_WORDS: tuple[str, ...] = tuple(KAISER_32.card(c).words() for c in range(32))
TEAMS: tuple[tuple[Seat, Seat], tuple[Seat, Seat]] = ((0, 2), (1, 3))
HAND_CAP = 200
"""A game that somehow lasts this many hands ends there; the higher total wins (a tie is shared)."""

# Bit positions of every mask of up to 8 bits, so iterating a suit's cards is one lookup.
_BYTE_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(b for b in range(8) if m >> b & 1) for m in range(256)
)


#: SUIT_CARDS[suit][byte]: the card ids of one suit's 8-bit slice of a hand, lowest first.
SUIT_CARDS: tuple[tuple[tuple[CardId, ...], ...], ...] = tuple(
    tuple(tuple(8 * suit + b for b in bits) for bits in _BYTE_BITS) for suit in range(4)
)


def cards_of(mask: int) -> list[CardId]:
    """The card ids in a bitmask, lowest id first."""
    return [*SUIT_CARDS[0][mask & 0xFF], *SUIT_CARDS[1][mask >> 8 & 0xFF],
            *SUIT_CARDS[2][mask >> 16 & 0xFF], *SUIT_CARDS[3][mask >> 24 & 0xFF]]


def card_power(card: CardId, led_suit: int, trump: int) -> int:
    """How strongly a card bids for the trick: trumps beat the led suit, other suits never win."""
    suit = card >> 3
    if suit == trump:
        return 16 + (card & 7)
    if suit == led_suit:
        return 8 + (card & 7)
    return 0


def trick_winner(trick: Sequence[tuple[Seat, CardId]], trump: int) -> Seat:
    """The seat that takes a (complete or partial) trick: highest trump, else highest of the led suit."""
    led = trick[0][1] >> 3
    best_seat, best = trick[0][0], -1
    for seat, card in trick:
        power = card_power(card, led, trump)
        if power > best:
            best_seat, best = seat, power
    return best_seat


def trick_points(cards: Iterable[CardId]) -> int:
    """A trick's worth: 1, +5 if it holds the 5♥, −3 if it holds the 3♠."""
    points = 1
    for card in cards:
        if card == FIVE_OF_HEARTS:
            points += 5
        elif card == THREE_OF_SPADES:
            points -= 3
    return points


def bid_value(points: int, no_trump: bool) -> int:
    """A bid's rank for comparison: higher points win, and no trump beats the same points in a suit."""
    return 2 * points + (1 if no_trump else 0)


def hand_score(bid: int, no_trump: bool, taken: int) -> int:
    """The bidders' change of score: what they took if they made the bid, else minus the bid; doubled in no trump."""
    change = taken if taken >= bid else -bid
    return 2 * change if no_trump else change


def sort_hand(hand: int, trump: int) -> tuple[CardId, ...]:
    """A hand for display: the trump suit first, then spades, hearts, diamonds, clubs; low to high in each."""
    order = [trump] if 0 <= trump < 4 else []
    order += [s for s in range(4) if s != trump]
    out: list[CardId] = []
    for suit in order:
        byte = hand >> (8 * suit) & 0xFF
        out.extend(SUIT_CARDS[suit][byte])
    return tuple(out)


def parse_suit(text: str) -> int | None:
    """The suit index written as a symbol, a letter or a word ("♥", "H", "hearts"); ``None`` if none."""
    key = text.strip().lower()
    for i, suit in enumerate(FRENCH_SUITS):
        if key in (suit.symbol, suit.word, suit.word[:-1], suit.name[0].lower()):
            return i
    return None


def game_verdict(totals: tuple[int, int], bidder_side: int, target: int,
                 hand_no: int) -> tuple[tuple[Seat, ...], str] | None:
    """Who has won after a hand, and why; ``None`` if play goes on."""
    crossed = [totals[s] >= target for s in (0, 1)]
    names = ("seats 0 and 2", "seats 1 and 3")
    if crossed[0] and crossed[1]:
        return TEAMS[bidder_side], f"both sides reached {target}; the bidders, {names[bidder_side]}, win"
    for s in (0, 1):
        if crossed[s]:
            return TEAMS[s], f"{names[s]} reached {target}"
    for s in (0, 1):
        if totals[s] <= -target:
            return TEAMS[1 - s], f"{names[s]} fell to {-target}; {names[1 - s]} win"
    if hand_no >= HAND_CAP:
        if totals[0] == totals[1]:
            return (0, 1, 2, 3), f"the {HAND_CAP}-hand limit with the scores level"
        s = 0 if totals[0] > totals[1] else 1
        return TEAMS[s], f"the {HAND_CAP}-hand limit; {names[s]} are ahead"
    return None
