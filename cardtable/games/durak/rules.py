"""Stateless Durak helpers: card tables, hand order, what beats what, the shuffle and the deal.

Cards are ``RUSSIAN_36`` ids: ``suit * 9 + rank`` with suits ♠ ♥ ♣ ♦ (0–3) and ranks
6 → A (0–8), so id 0 is 6♠ and id 35 is A♦ — the initial order of the deck.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Literal

from cardtable.cards import RUSSIAN_36
from cardtable.core.rng import GOLDEN_GAMMA, MASK, ChanceSource, Seed, digits_per_word, seeded, shuffled
from cardtable.core.types import CardId

DECK = RUSSIAN_36
DECK_SIZE = 36
HAND_SIZE = 6
SHUFFLE_ITERATIONS = 1000

#: Suit (0 ♠, 1 ♥, 2 ♣, 3 ♦) and rank (0 = six … 8 = ace) of every card id.
SUIT: tuple[int, ...] = tuple(c // 9 for c in range(DECK_SIZE))
RANK: tuple[int, ...] = tuple(c % 9 for c in range(DECK_SIZE))
SUIT_SYMBOLS = "♠♥♣♦"
SUIT_WORDS = ("spades", "hearts", "clubs", "diamonds")
#: Ranks as the 2020 program prints them: 6–10, В (валет), Д (дама), К (король), Т (туз).
RU_RANKS = ("6", "7", "8", "9", "10", "В", "Д", "К", "Т")
_RU_TO_LATIN = {"В": "J", "Д": "Q", "К": "K", "Т": "A"}

# Equal non-trump ranks sort ♠, ♣, ♦, ♥ (the 2020 text's "пика, крест, бубен, червей").
_TIE_ORDER = (0, 3, 1, 2)


def _sort_keys(trump: int) -> tuple[int, ...]:
    """Every card's position key in a sorted hand when ``trump`` is the trump suit."""
    return tuple(
        (100 if SUIT[c] == trump else 0) + RANK[c] * 4 + _TIE_ORDER[SUIT[c]] for c in range(DECK_SIZE)
    )


#: SORT_KEY[trump][card]: non-trumps by rank (ties ♠ ♣ ♦ ♥), then trumps by rank.
SORT_KEY: tuple[tuple[int, ...], ...] = tuple(_sort_keys(t) for t in range(4))


#: HAND_ORDER[trump]: SORT_KEY[trump] as a dict, whose ``__getitem__`` is a cheaper sort key than a tuple's.
HAND_ORDER: tuple[dict[CardId, int], ...] = tuple(dict(enumerate(keys)) for keys in SORT_KEY)


def sort_hand(cards: Sequence[CardId], trump: int) -> tuple[CardId, ...]:
    """The cards in hand order for the trump suit ``trump``."""
    return tuple(sorted(cards, key=HAND_ORDER[trump].__getitem__))


def beats(attack: CardId, card: CardId, trump: int) -> bool:
    """Whether ``card`` beats ``attack``: a higher card of its suit, or any trump on a non-trump."""
    if SUIT[card] == SUIT[attack]:
        return RANK[card] > RANK[attack]
    return SUIT[card] == trump


#: BEATERS[trump][attack]: the bitmask of every card that beats ``attack`` (the legality hot path).
BEATERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << c for c in range(DECK_SIZE) if beats(a, c, t)) for a in range(DECK_SIZE)) for t in range(4)
)
#: RANK_BIT[card]: one bit per rank, so the ranks of a bout are an int and "of a rank in the bout" one AND.
RANK_BIT: tuple[int, ...] = tuple(1 << RANK[c] for c in range(DECK_SIZE))


def ranks_in(cards: Sequence[CardId]) -> frozenset[int]:
    """The ranks among ``cards``."""
    return frozenset(RANK[c] for c in cards)


def ru_text(card: CardId) -> str:
    """The card as the 2020 program prints it: ``"10♣"``, ``"В♥"``, ``"Т♦"``."""
    return RU_RANKS[RANK[card]] + SUIT_SYMBOLS[SUIT[card]]


def ru_join(cards: Sequence[CardId]) -> str:
    """Cards in the program's notation, joined by commas."""
    return ",".join(ru_text(c) for c in cards)


def parse_card(text: str) -> CardId | None:
    """A card written ``6♣``, ``J♥``, ``10S`` or with a Russian rank letter (``В♥``); ``None`` if not a card."""
    key = text.strip()
    if key[:1] in _RU_TO_LATIN:
        key = _RU_TO_LATIN[key[0]] + key[1:]
    try:
        return DECK.parse(key)
    except ValueError:
        return None


def card_words(card: CardId) -> str:
    """The card in words ("ten of clubs")."""
    return DECK.card(card).words()


# Shuffle and deal.


def shuffle(number: Seed, method: Literal["random", "reference"]) -> list[CardId]:
    """The deck after the 1000-move shuffle; index 0 is the top.

    Each move takes a card and puts it on top. ``reference``: the card at position
    ``n = (number + 2 i) mod 36`` (0-based from the top) in move ``i``, the 2020 program's formula.
    ``random``: a card drawn uniformly from the pinned RNG seeded with ``number`` (see
    :func:`random_to_top`). A :class:`ChanceSource` as ``number`` gives the deck order itself.
    """
    if method == "reference" and not isinstance(number, ChanceSource):
        return list(_reference_deck(number % DECK_SIZE))
    rng = seeded(number)
    if type(rng) is int:  # the seeded stream: the order of the card ids is the deck (``shuffled``, inline)
        return random_to_top(rng, DECK_SIZE)[0]
    deck, _ = shuffled(rng, range(DECK_SIZE), method=random_to_top)
    return deck


@cache
def _reference_deck(residue: int) -> tuple[CardId, ...]:
    """The reference shuffle depends on the number only modulo 36: 36 decks, each computed once."""
    return tuple(_moved_to_top([(residue + i * 2) % DECK_SIZE for i in range(SHUFFLE_ITERATIONS)]))


def random_to_top(state: int, n: int) -> tuple[list[int], int]:
    """The order after 1000 moves of a uniformly drawn card (of ``n``) to the top, from the seeded stream.

    Only the last move of each card matters: the cards end up ordered by their last move, most
    recent on top, then the cards never moved in their initial order. So the moves are drawn from
    the last one back (``draws(n, k)`` a word at a time, ``k = digits_per_word(n)``), and the
    drawing stops once every card has been seen, usually after about 150 of the 1000 moves.
    """
    moved: dict[int, None] = {}  # the cards by their last move, most recent first (a dict keeps the first entry)
    left = SHUFFLE_ITERATIONS
    if n == DECK_SIZE:
        state, left = _whole_words_of_36(moved, state, left)
    per_word, limit = digits_per_word(n), _word_limit(n)
    while left and len(moved) < n:
        state = (state + GOLDEN_GAMMA) & MASK  # word(state), inline
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        z ^= z >> 31
        # draws(state, n, min(per_word, left)), inline: one accepted word per step
        if z >= limit:
            continue
        take = per_word if per_word < left else left
        left -= take
        for _ in range(take):
            z, card = divmod(z, n)
            moved[card] = None
    order = list(moved)
    if len(order) < n:
        order += [card for card in range(n) if card not in moved]
    return order, state


_LIMIT_36 = (1 << 64) - (1 << 64) % DECK_SIZE ** 11  # _word_limit(36): a word gives 11 digits below 36
_FIVE_DIGITS = DECK_SIZE ** 5  # below 2**30: the digits of a word are taken from three small ints


def _whole_words_of_36(moved: dict[int, None], state: int, left: int) -> tuple[int, int]:
    """``random_to_top``'s loop for 36 cards while whole words of 11 moves are left, written out.

    The same digits in the same order (lowest first), from small ints (``z`` split at 36**5 and
    36**10), without a loop per digit; about a third faster. Returns the stream and the moves left.
    """
    while left >= 11 and len(moved) < 36:
        state = (state + GOLDEN_GAMMA) & MASK  # word(state), inline
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        z ^= z >> 31
        if z >= _LIMIT_36:
            continue
        left -= 11
        high, low = divmod(z, _FIVE_DIGITS)
        high, middle = divmod(high, _FIVE_DIGITS)
        moved[low % 36] = None
        low //= 36
        moved[low % 36] = None
        low //= 36
        moved[low % 36] = None
        low //= 36
        moved[low % 36] = None
        moved[low // 36] = None
        moved[middle % 36] = None
        middle //= 36
        moved[middle % 36] = None
        middle //= 36
        moved[middle % 36] = None
        middle //= 36
        moved[middle % 36] = None
        moved[middle // 36] = None
        moved[high % 36] = None
    return state, left


@cache
def _word_limit(n: int) -> int:
    """Words at or above this are redrawn (as ``rng.draws`` does): the rest give ``digits_per_word(n)`` digits."""
    block: int = n ** digits_per_word(n)
    return (1 << 64) - (1 << 64) % block


def _moved_to_top(positions: Sequence[int]) -> list[CardId]:
    """The initial deck after moving the card at each position, in turn, to the top."""
    deck = list(range(DECK_SIZE))
    for n in positions:
        deck.insert(0, deck.pop(n))
    return deck


def deal(deck: Sequence[CardId], players: int,
         method: Literal["round", "blocks"]) -> tuple[list[list[CardId]], list[CardId]]:
    """Six cards each from the top (``blocks``: six in a row per player; ``round``: one at a time), the rest."""
    if method == "blocks":
        hands = [list(deck[p * HAND_SIZE:(p + 1) * HAND_SIZE]) for p in range(players)]
    else:
        hands = [list(deck[p:players * HAND_SIZE:players]) for p in range(players)]
    return hands, list(deck[players * HAND_SIZE:])


def turn_trump(stock: Sequence[CardId]) -> tuple[CardId, tuple[CardId, ...]]:
    """Turn up the top card as trump and put it at the bottom, to be drawn last."""
    return stock[0], tuple(stock[1:]) + (stock[0],)
