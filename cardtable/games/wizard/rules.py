"""Stateless Wizard rules on card ids (0–59), with the precomputed tables the engine's hot path uses.

Card ids: 0–12 red 1–13, 13–25 yellow, 26–38 green, 39–51 blue (``suit * 13 + rank - 1``),
52–55 wizards, 56–59 jesters. A trick is the sequence of card ids in playing order.
Hands inside the engine are int bitmasks (bit ``c`` set = card ``c`` held).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cardtable.cards import CardId
from cardtable.cards import cards_of as cards_of
from cardtable.cards import mask_of as mask_of

MIN_PLAYERS = 3
MAX_PLAYERS = 6
DECK_SIZE = 60
SUITS = ("red", "yellow", "green", "blue")
FIRST_WIZARD = 52
FIRST_JESTER = 56

# Lead states the engine keeps per trick: a suit 0–3, or one of these.
NO_LEAD_YET = -1
WIZARD_LED = 4

# Tables.
SUIT_OF: tuple[int, ...] = tuple(c // 13 if c < FIRST_WIZARD else -1 for c in range(DECK_SIZE))
RANK_OF: tuple[int, ...] = tuple(c % 13 + 1 if c < FIRST_WIZARD else 0 for c in range(DECK_SIZE))
WIZARD_MASK = sum(1 << c for c in range(FIRST_WIZARD, FIRST_JESTER))
JESTER_MASK = sum(1 << c for c in range(FIRST_JESTER, DECK_SIZE))
SPECIAL_MASK = WIZARD_MASK | JESTER_MASK
SUIT_MASK: tuple[int, ...] = tuple(sum(1 << (s * 13 + r) for r in range(13)) for s in range(4))
ALL_MASK = (1 << DECK_SIZE) - 1


# A hand as card ids, fast: the 60 bits in six chunks of ten, each chunk's ids looked up.
CHUNK_BITS = 10
CHUNK_IDS: tuple[tuple[tuple[CardId, ...], ...], ...] = tuple(
    tuple(tuple(k * CHUNK_BITS + i for i in range(CHUNK_BITS) if bits >> i & 1) for bits in range(1 << CHUNK_BITS))
    for k in range(DECK_SIZE // CHUNK_BITS)
)
_C0, _C1, _C2, _C3, _C4, _C5 = CHUNK_IDS


def hand_ids(mask: int) -> tuple[CardId, ...]:
    """The card ids of a bitmask hand, ascending (``cards_of`` as a tuple, several times faster)."""
    return (*_C0[mask & 1023], *_C1[mask >> 10 & 1023], *_C2[mask >> 20 & 1023],
            *_C3[mask >> 30 & 1023], *_C4[mask >> 40 & 1023], *_C5[mask >> 50])


def is_wizard(card: CardId) -> bool:
    """Whether the card is one of the four wizards."""
    return FIRST_WIZARD <= card < FIRST_JESTER


def is_jester(card: CardId) -> bool:
    """Whether the card is one of the four jesters."""
    return card >= FIRST_JESTER


def total_rounds(players: int) -> int:
    """Rounds in a full game: the pack runs out after ``60 // players`` rounds."""
    return DECK_SIZE // players


def trump_suit(trump_card: CardId | None) -> int | None:
    """The trump suit (0–3) a turned card makes, or ``None`` (no card, jester or wizard).

    A wizard gives no suit by itself; under ``dealer_chooses`` the engine then asks the dealer.
    """
    if trump_card is None or trump_card >= FIRST_WIZARD:
        return None
    return trump_card // 13


def round_score(bid: int, tricks: int) -> int:
    """Points for one round: 20 + 10 per trick when the bid is exact, else −10 per trick off."""
    if bid == tricks:
        return 20 + 10 * tricks
    return -10 * abs(tricks - bid)


# Leading and following.


def next_lead(lead: int, card: CardId) -> int:
    """The lead state after ``card`` is added to a trick whose lead state is ``lead``."""
    if lead != NO_LEAD_YET or card >= FIRST_JESTER:
        return lead
    return WIZARD_LED if card >= FIRST_WIZARD else card // 13


def lead_state(trick: Iterable[CardId]) -> int:
    """The engine's lead state of a trick: a suit 0–3, ``WIZARD_LED`` or ``NO_LEAD_YET``."""
    lead = NO_LEAD_YET
    for card in trick:
        lead = next_lead(lead, card)
    return lead


def lead_suit(trick: Sequence[CardId]) -> int | None:
    """The suit that must be followed (0–3), or ``None`` (only jesters so far, or a wizard came first)."""
    lead = lead_state(trick)
    return lead if 0 <= lead < 4 else None


def legal_mask(hand: int, lead: int) -> int:
    """The playable subset of a bitmask hand under lead state ``lead`` (the hot path)."""
    if 0 <= lead < 4:
        follow = hand & SUIT_MASK[lead]
        if follow:
            return follow | (hand & SPECIAL_MASK)
    return hand


def legal_cards(hand: Iterable[CardId], trick: Sequence[CardId]) -> list[CardId]:
    """The cards of ``hand`` that may be played to ``trick``, ascending."""
    return cards_of(legal_mask(mask_of(hand), lead_state(trick)))


# Winning a trick.


def _strength_table() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``STRENGTH[trump + 1][lead + 1][card]``: a wizard 1000, trump 200+, lead suit 100+, else 0."""
    table = []
    for trump in range(-1, 4):
        rows = []
        for lead in range(-1, 5):
            row = []
            for card in range(DECK_SIZE):
                if is_wizard(card):
                    row.append(1000)
                elif is_jester(card):
                    row.append(0)
                elif SUIT_OF[card] == trump:
                    row.append(200 + RANK_OF[card])
                elif SUIT_OF[card] == lead:
                    row.append(100 + RANK_OF[card])
                else:
                    row.append(0)
            rows.append(tuple(row))
        table.append(tuple(rows))
    return tuple(table)


#: STRENGTH[trump + 1][lead + 1][card]: see _strength_table (trump -1: none; lead as the engine keeps it).
STRENGTH = _strength_table()


def strengths(trump: int | None, lead: int) -> tuple[int, ...]:
    """Per-card strength in a trick with this trump and lead state; higher wins, ties go to the earlier card."""
    return STRENGTH[(-1 if trump is None else trump) + 1][lead + 1]


def trick_winner(trick: Sequence[CardId], trump: int | None) -> int:
    """The position (in playing order) of the card that wins ``trick``.

    The first wizard; else the highest trump; else the highest card of the lead suit;
    a trick of only jesters goes to the first jester.
    """
    return winning_position(trick, strengths(trump, lead_state(trick)))


def winning_position(trick: Sequence[CardId], table: Sequence[int]) -> int:
    """The position of the winning card, given the per-card ``strengths`` of this trick's trump and lead."""
    best_pos, best = 0, -1
    for pos, card in enumerate(trick):
        value = table[card]
        if value > best:
            if value == 1000:
                return pos
            best_pos, best = pos, value
    return best_pos


def suit_name(suit: int | None) -> str:
    """A suit in words for the table ("yellow"), or "no trump"."""
    return "no trump" if suit is None else SUITS[suit]
