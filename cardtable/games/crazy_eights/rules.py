"""Crazy Eights rules as stateless helpers over card ids and hand bitmasks.

Cards are ``STANDARD_52`` ids (suit-major: ♠ 0–12, ♥ 13–25, ♦ 26–38, ♣ 39–51;
ranks 2 … A within a suit). A hand is an int bitmask with bit ``c`` set when it
holds card ``c``; the tables below are built once so the hot path is integer
arithmetic only.
"""

from __future__ import annotations

from typing import Final, Literal

from cardtable.cards import FRENCH_SUITS, STANDARD_52
from cardtable.cards import cards_of as cards_of
from cardtable.cards import mask_of as mask_of
from cardtable.core.types import CardId

DECK = STANDARD_52
DECK_SIZE: Final = 52
EIGHT_RANK: Final = 6  # rank index of the eight (2 is index 0)

SuitName = Literal["spades", "hearts", "diamonds", "clubs"]
SUIT_NAMES: Final[tuple[SuitName, ...]] = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS: Final = tuple(s.symbol for s in FRENCH_SUITS)
SUIT_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(SUIT_NAMES)}

#: Per-card tables: suit index, rank index (0 = two … 12 = ace), penalty points, bit.
SUIT_OF: Final = tuple(c // 13 for c in range(DECK_SIZE))
RANK_OF: Final = tuple(c % 13 for c in range(DECK_SIZE))
BIT: Final = tuple(1 << c for c in range(DECK_SIZE))


def _penalty(card: CardId) -> int:
    rank = card % 13
    if rank == EIGHT_RANK:
        return 50
    if rank == 12:  # ace
        return 1
    if rank >= 8:  # ten, jack, queen, king
        return 10
    return rank + 2  # face value of 2 … 9


PENALTY: Final = tuple(_penalty(c) for c in range(DECK_SIZE))
FULL_MASK: Final = (1 << DECK_SIZE) - 1
SUIT_MASK: Final = tuple(sum(1 << (s * 13 + r) for r in range(13)) for s in range(4))
RANK_MASK: Final = tuple(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13))
EIGHTS: Final = RANK_MASK[EIGHT_RANK]


def is_eight(card: CardId) -> bool:
    """Whether the card is an eight (wild)."""
    return RANK_OF[card] == EIGHT_RANK


def matches(top: CardId, suit: int) -> int:
    """The mask of every card that may be played on ``top`` with ``suit`` in force."""
    return SUIT_MASK[suit] | RANK_MASK[RANK_OF[top]] | EIGHTS


def penalty(mask: int) -> int:
    """Penalty points for the cards of a hand: eight 50, ten–king 10, ace 1, others face value."""
    return sum(PENALTY[c] for c in cards_of(mask))


def default_hand_size(players: int) -> int:
    """Seven cards each heads-up, five otherwise."""
    return 7 if players == 2 else 5


def card_text(card: CardId) -> str:
    """The short notation, e.g. ``"8♠"``."""
    return DECK.text(card)


def card_words(card: CardId) -> str:
    """The card in words, e.g. ``"eight of spades"``."""
    return DECK.card(card).words()


def parse_suit(text: str) -> int | None:
    """A suit index from a word, symbol or letter (``"hearts"``, ``"♥"``, ``"h"``); ``None`` if not a suit."""
    key = text.strip().lower()
    for i, name in enumerate(SUIT_NAMES):
        if key in (name, name[:-1], SUIT_SYMBOLS[i], name[0]):
            return i
    return None
