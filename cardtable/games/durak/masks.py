"""Hands as bitmasks in hand order: for a trump suit, bit ``p`` of a hand is the ``p``-th card of a sorted deck.

Sorted for a trump suit (``rules.SORT_KEY``), the 36 cards are the 27 non-trumps by rank (three per
rank, ties ♠ ♣ ♦ ♥), positions 0–26, then the nine trumps by rank, positions 27–35. So a hand
held as such a mask is always in hand order: its cards, actions and events come out sorted
without sorting, a card joins or leaves a hand with one OR or XOR, and the four cards of a rank
are the same positions whatever the trump. The state packs every seat's mask into one int,
:data:`LANE` bits per seat (seat ``s`` at bits ``LANE * s`` …).

Ordered lists come from chunk tables: a 9-bit slice of a mask (three ranks of the non-trumps,
or the trumps) indexes the tuple of its cards (or attack actions), four lookups per mask; the
few cards that beat or match a bout are read bit by bit (``attack_at``, ``beat_at``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from typing import TypeVar

from cardtable.cards import mask_of
from cardtable.core.types import CardId
from cardtable.games.durak.actions import ATTACKS, BEATS, Attack, Beat
from cardtable.games.durak.rules import BEATERS, DECK_SIZE, RANK, SORT_KEY

T = TypeVar("T")

LANE = 36
FULL = (1 << LANE) - 1
#: The non-trumps' positions (0–26); a take hands over only those.
NON_TRUMPS = (1 << 27) - 1
_SEATS = 5  # up to max_players
#: RANK_CARDS[card]: the positions of the four cards of the card's rank (the same for every trump suit).
RANK_CARDS: tuple[int, ...] = tuple(0b111 << 3 * RANK[c] | 1 << 27 + RANK[c] for c in range(DECK_SIZE))


class TrumpTables:
    """The tables of one trump suit: card ↔ position, the beating cards, and the chunk tables."""

    __slots__ = ("trump", "order", "bit", "seat_bit", "beaters", "cards", "attacks", "card_mask", "attack_at",
                 "beat_at")

    def __init__(self, trump: int) -> None:
        keys = SORT_KEY[trump]
        self.trump = trump
        #: order[p]: the card at position ``p``.
        self.order: tuple[CardId, ...] = tuple(sorted(range(DECK_SIZE), key=keys.__getitem__))
        position = {card: p for p, card in enumerate(self.order)}
        #: bit[card]: the card's position bit.
        self.bit: tuple[int, ...] = tuple(1 << position[c] for c in range(DECK_SIZE))
        #: seat_bit[seat][card]: the card's bit in the packed hands, in the seat's lane.
        self.seat_bit: tuple[tuple[int, ...], ...] = tuple(
            tuple(b << LANE * s for b in self.bit) for s in range(_SEATS))
        #: beaters[attack]: the positions of the cards that beat ``attack``.
        self.beaters: tuple[int, ...] = tuple(self.mask(_card_ids(BEATERS[trump][a])) for a in range(DECK_SIZE))
        #: The chunk tables, index ``chunk << 9 | bits``: the cards and the attack actions of those bits.
        self.cards: tuple[tuple[CardId, ...], ...] = self._chunks(lambda c: c)
        self.attacks: tuple[tuple[Attack, ...], ...] = self._chunks(ATTACKS.__getitem__)
        #: attack_at[p + 1], beat_at[p + 1]: the action with the card at position ``p`` (a bit's ``bit_length()``;
        #: index 0, never read, repeats index 1).
        self.attack_at: tuple[Attack, ...] = tuple(ATTACKS[self.order[max(p - 1, 0)]] for p in range(DECK_SIZE + 1))
        self.beat_at: tuple[Beat, ...] = tuple(BEATS[self.order[max(p - 1, 0)]] for p in range(DECK_SIZE + 1))
        #: card_mask[chunk << 9 | bits]: the card-id bitmask (bit ``card``) of those positions.
        self.card_mask: tuple[int, ...] = tuple(mask_of(part) for part in self.cards)

    def _chunks(self, item: Callable[[CardId], T]) -> tuple[tuple[T, ...], ...]:
        """Per chunk (four of 9 positions) and per 9-bit value, the tuple of ``item(card)`` in position order."""
        out: list[tuple[T, ...]] = []
        for chunk in range(4):
            values = [item(self.order[9 * chunk + i]) for i in range(9)]
            table: list[tuple[T, ...]] = [()] * 512
            for bits in range(1, 512):  # the lowest card, then the (already built) rest
                low = bits & -bits
                table[bits] = (values[low.bit_length() - 1], *table[bits ^ low])
            out += table
        return tuple(out)

    def mask(self, cards: Iterable[CardId]) -> int:
        """The position mask of ``cards``."""
        bit, out = self.bit, 0
        for card in cards:
            out |= bit[card]
        return out

    def cards_of(self, mask: int) -> tuple[CardId, ...]:
        """The cards of a position mask, in hand order."""
        c = self.cards
        return c[mask & 511] + c[512 | mask >> 9 & 511] + c[1024 | mask >> 18 & 511] + c[1536 | mask >> 27]

    def card_ids(self, mask: int) -> int:
        """The card-id bitmask (bit ``card``, as ``cards.mask_of``) of a position mask."""
        m = self.card_mask
        return m[mask & 511] | m[512 | mask >> 9 & 511] | m[1024 | mask >> 18 & 511] | m[1536 | mask >> 27]


@cache
def trump_tables(trump: int) -> TrumpTables:
    """The tables of a trump suit (0–3), built on first use and shared."""
    return TrumpTables(trump)


def _card_ids(mask: int) -> list[CardId]:
    """The card ids of a card-id bitmask."""
    return [c for c in range(DECK_SIZE) if mask >> c & 1]


def lane(held: int, seat: int) -> int:
    """Seat ``seat``'s hand (a position mask) in the packed hands ``held``."""
    return held >> LANE * seat & FULL
