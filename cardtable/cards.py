"""The shared card model: suits, ranks, cards, their text notation and the decks.

Every deck gives each of its cards a fixed small-int id (its position in the
deck's canonical order); engines work on ids, people read the text notation::

    >>> WIZARD_60.parse("Y7")
    19
    >>> RUSSIAN_36.card(0).text()
    '6♠'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

CardId = int


class Suit(enum.Enum):
    """Every suit of every deck cardtable knows, with its symbol and name."""

    SPADES = ("♠", "spades")
    HEARTS = ("♥", "hearts")
    DIAMONDS = ("♦", "diamonds")
    CLUBS = ("♣", "clubs")
    RED = ("R", "red")
    YELLOW = ("Y", "yellow")
    GREEN = ("G", "green")
    BLUE = ("B", "blue")
    OROS = ("o", "oros")
    COPAS = ("c", "copas")
    ESPADAS = ("e", "espadas")
    BASTOS = ("b", "bastos")

    @property
    def symbol(self) -> str:
        """The one-character symbol used in card text."""
        return self.value[0]

    @property
    def word(self) -> str:
        """The suit's name in words ("hearts", "red", "oros")."""
        return self.value[1]


FRENCH_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
WIZARD_SUITS = (Suit.RED, Suit.YELLOW, Suit.GREEN, Suit.BLUE)
SPANISH_SUITS = (Suit.OROS, Suit.COPAS, Suit.ESPADAS, Suit.BASTOS)

_ASCII_SUITS = {"S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS, "C": Suit.CLUBS}


class Rank(enum.Enum):
    """Every rank of every deck: (symbol, name, number)."""

    ONE = ("1", "one", 1)
    TWO = ("2", "two", 2)
    THREE = ("3", "three", 3)
    FOUR = ("4", "four", 4)
    FIVE = ("5", "five", 5)
    SIX = ("6", "six", 6)
    SEVEN = ("7", "seven", 7)
    EIGHT = ("8", "eight", 8)
    NINE = ("9", "nine", 9)
    TEN = ("10", "ten", 10)
    ELEVEN = ("11", "eleven", 11)
    TWELVE = ("12", "twelve", 12)
    THIRTEEN = ("13", "thirteen", 13)
    JACK = ("J", "jack", 11)
    QUEEN = ("Q", "queen", 12)
    KING = ("K", "king", 13)
    ACE = ("A", "ace", 14)
    SOTA = ("S", "sota", 10)
    CABALLO = ("C", "caballo", 11)
    REY = ("R", "rey", 12)
    WIZARD = ("W", "wizard", 0)
    JESTER = ("N", "jester", 0)

    @property
    def symbol(self) -> str:
        """The symbol used in card text ("10", "Q", "S")."""
        return self.value[0]

    @property
    def word(self) -> str:
        """The rank's name in words."""
        return self.value[1]

    @property
    def number(self) -> int:
        """The rank's number: face value, 11–14 for J Q K A, 0 for wizard and jester."""
        return self.value[2]

    @property
    def is_special(self) -> bool:
        """Whether this is a Wizard-deck special (wizard or jester): not a standard rank."""
        return self in (Rank.WIZARD, Rank.JESTER)


_SPANISH_WORDS = {
    Rank.ONE: "as", Rank.TWO: "dos", Rank.THREE: "tres", Rank.FOUR: "cuatro", Rank.FIVE: "cinco",
    Rank.SIX: "seis", Rank.SEVEN: "siete", Rank.SOTA: "sota", Rank.CABALLO: "caballo", Rank.REY: "rey",
}

FRENCH_RANKS = (
    Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.EIGHT,
    Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE,
)
WIZARD_NUMBER_RANKS = (
    Rank.ONE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN,
    Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.ELEVEN, Rank.TWELVE, Rank.THIRTEEN,
)
SPANISH_RANKS = (
    Rank.ONE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN,
    Rank.SOTA, Rank.CABALLO, Rank.REY,
)


@dataclass(frozen=True, slots=True)
class Card:
    """A card: a rank and a suit (none for wizards and jesters, told apart by ``copy``)."""

    rank: Rank
    suit: Suit | None = None
    copy: int = 0

    def text(self) -> str:
        """The short notation: ``"10♠"``, ``"Q♥"``, ``"Y7"``, ``"W1"``, ``"Ro"``."""
        if self.suit is None:
            return f"{self.rank.symbol}{self.copy + 1}"
        if self.suit in WIZARD_SUITS:
            return f"{self.suit.symbol}{self.rank.number}"
        return f"{self.rank.symbol}{self.suit.symbol}"

    def words(self) -> str:
        """The card in words, as screen readers say it: ``"7 of red"``, ``"queen of hearts"``, ``"as de copas"``."""
        if self.suit is None:
            return f"{self.rank.word} {self.copy + 1}"
        if self.suit in SPANISH_SUITS:
            return f"{_SPANISH_WORDS[self.rank]} de {self.suit.word}"
        rank = str(self.rank.number) if self.suit in WIZARD_SUITS else self.rank.word
        return f"{rank} of {self.suit.word}"

    def __str__(self) -> str:
        return self.text()


class Deck:
    """An ordered set of distinct cards; a card's id is its position in that order."""

    __slots__ = ("name", "cards", "_ids", "_by_text")

    def __init__(self, name: str, cards: Iterable[Card]) -> None:
        self.name = name
        self.cards: tuple[Card, ...] = tuple(cards)
        self._ids = {card: i for i, card in enumerate(self.cards)}
        if len(self._ids) != len(self.cards):
            raise ValueError(f"deck {name!r} has duplicate cards")
        self._by_text = {card.text(): i for i, card in enumerate(self.cards)}

    def __len__(self) -> int:
        return len(self.cards)

    def __repr__(self) -> str:
        return f"Deck({self.name!r}, {len(self.cards)} cards)"

    def card(self, card_id: CardId) -> Card:
        """The card with this id; ``ValueError`` for an id outside the deck (a negative id never wraps)."""
        if not 0 <= card_id < len(self.cards):
            raise ValueError(f"there is no card {card_id} in the {self.name} deck (ids 0–{len(self.cards) - 1})")
        return self.cards[card_id]

    def id(self, card: Card) -> CardId:
        """The id of this card; ``ValueError`` if the deck lacks it."""
        try:
            return self._ids[card]
        except KeyError:
            raise ValueError(f"{card.text()} is not in the {self.name} deck") from None

    def text(self, card_id: CardId) -> str:
        """The notation of the card with this id; ``ValueError`` for an id outside the deck."""
        return self.card(card_id).text()

    def parse(self, text: str) -> CardId:
        """The id of the card written ``text`` (``"10♠"``, ``"10S"``, ``"Y7"``); ``ValueError`` if none."""
        key = text.strip()
        if key in self._by_text:
            return self._by_text[key]
        if len(key) >= 2 and key[-1].upper() in _ASCII_SUITS:
            alt = key[:-1].upper() + _ASCII_SUITS[key[-1].upper()].symbol
            if alt in self._by_text:
                return self._by_text[alt]
        raise ValueError(f"{text!r} is not a card of the {self.name} deck")

    def parse_many(self, text: str) -> list[CardId]:
        """Ids of a comma- or space-separated list of cards."""
        return [self.parse(part) for part in text.replace(",", " ").split()]

    def format(self, card_ids: Sequence[CardId], sep: str = ",") -> str:
        """The notation of several cards joined by ``sep``; ``ValueError`` for an id outside the deck."""
        return sep.join(self.card(c).text() for c in card_ids)


def _suited(suits: Sequence[Suit], ranks: Sequence[Rank]) -> list[Card]:
    return [Card(rank, suit) for suit in suits for rank in ranks]


#: The 36-card Russian deck, ♠ ♥ ♣ ♦ and 6 → A in each suit (Durak's initial order).
RUSSIAN_36 = Deck(
    "russian-36",
    _suited((Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS), FRENCH_RANKS[4:]),
)
#: The 52-card deck, ♠ ♥ ♦ ♣ and 2 → A in each suit.
STANDARD_52 = Deck("standard-52", _suited(FRENCH_SUITS, FRENCH_RANKS))
#: The 60-card Wizard deck: red, yellow, green, blue 1–13 (id = suit * 13 + rank - 1),
#: then wizards 52–55 and jesters 56–59.
WIZARD_60 = Deck(
    "wizard-60",
    _suited(WIZARD_SUITS, WIZARD_NUMBER_RANKS)
    + [Card(Rank.WIZARD, None, i) for i in range(4)]
    + [Card(Rank.JESTER, None, i) for i in range(4)],
)
#: The 40-card Spanish deck: oros, copas, espadas, bastos; 1–7, sota, caballo, rey.
SPANISH_40 = Deck("spanish-40", _suited(SPANISH_SUITS, SPANISH_RANKS))
#: The 32-card Kaiser deck: 8 → A in every suit, plus 7♣, 7♦, 5♥ and 3♠ (lowest of their suits).
KAISER_32 = Deck(
    "kaiser-32",
    [Card(Rank.THREE, Suit.SPADES)] + _suited((Suit.SPADES,), FRENCH_RANKS[6:])
    + [Card(Rank.FIVE, Suit.HEARTS)] + _suited((Suit.HEARTS,), FRENCH_RANKS[6:])
    + [Card(Rank.SEVEN, Suit.DIAMONDS)] + _suited((Suit.DIAMONDS,), FRENCH_RANKS[6:])
    + [Card(Rank.SEVEN, Suit.CLUBS)] + _suited((Suit.CLUBS,), FRENCH_RANKS[6:]),
)

DECKS: dict[str, Deck] = {d.name: d for d in (RUSSIAN_36, STANDARD_52, WIZARD_60, SPANISH_40, KAISER_32)}


def mask_of(card_ids: Iterable[CardId]) -> int:
    """The bitmask of a collection of card ids (bit ``id`` set for each card)."""
    mask = 0
    for card_id in card_ids:
        mask |= 1 << card_id
    return mask


def cards_of(mask: int) -> list[CardId]:
    """The card ids in a bitmask, lowest id first."""
    out: list[CardId] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def parse_card(text: str) -> Card:
    """Parse a card in any deck's notation (``"10♠"``, ``"Y7"``, ``"W2"``, ``"Ro"``)."""
    for deck in DECKS.values():
        try:
            return deck.card(deck.parse(text))
        except ValueError:
            continue
    raise ValueError(f"{text!r} is not a card in any known notation")
