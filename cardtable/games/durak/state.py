"""The Durak state: the deal shared by a whole game (``DurakSetup``) and a position (``DurakState``)."""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.cards import mask_of
from cardtable.core.state import SlotState
from cardtable.core.types import CardId, Seat
from cardtable.games.durak import rules
from cardtable.games.durak.masks import FULL, LANE, trump_tables
from cardtable.games.durak.rules import BEATERS, SUIT

#: The tally: per seat two counters of ``TALLY`` bits, defences (lane ``2 s``) and takes (lane ``2 s + 1``);
#: 64 bits: no game plays 2**64 bouts, so a counter never carries into the next.
TALLY = 64
TALLY_COUNT = (1 << TALLY) - 1


def refill_order(players: int, attacker: Seat, defender: Seat) -> tuple[Seat, ...]:
    """Who draws first after a bout: the attacker, the defender, then the others after the defender."""
    order = [attacker, defender]
    order += [s for k in range(1, players) if (s := (defender + k) % players) != attacker]
    return tuple(order)


#: REFILL_ORDER[players][attacker][defender]: the drawing order after a bout (see ``refill_order``).
REFILL_ORDER = tuple(tuple(tuple(refill_order(n, a, d) for d in range(n)) for a in range(n)) for n in range(6))


class DurakSetup:
    """What the deal fixes for a whole game: the table's rules, the trump, the stock (top first) and its tables.

    Every state of a game shares one setup. ``prefix[i]`` is the position mask of the stock's
    first ``i`` cards, so a draw of ``stock[i:j]`` is ``prefix[j] ^ prefix[i]``. ``absent`` (a
    card-id bitmask): cards in no hand, deck, bout or discard pile from the start (only
    hand-written test positions leave cards out). Pickled as its arguments: the tables are
    rebuilt, not copied.
    """

    __slots__ = ("players", "capped", "bout_limit", "trump", "trump_card", "stock", "absent", "tables", "prefix",
                 "absent_positions", "refill", "seat_bit", "beaters", "beat_ids", "attacks", "attack_at", "beat_at")

    def __init__(self, players: int, capped: bool, bout_limit: int, trump_card: CardId,
                 stock: tuple[CardId, ...], absent: int = 0) -> None:
        self.players, self.capped, self.bout_limit = players, capped, bout_limit
        self.trump, self.trump_card, self.stock, self.absent = SUIT[trump_card], trump_card, stock, absent
        tables = self.tables = trump_tables(self.trump)
        prefix, mask, bit = [0], 0, tables.bit
        for card in stock:
            mask |= bit[card]
            prefix.append(mask)
        self.prefix = tuple(prefix)
        self.absent_positions = tables.mask(_ids(absent)) if absent else 0
        #: refill[attacker][defender]: who draws after a bout, in order (see ``refill_order``).
        self.refill = REFILL_ORDER[players]
        # The hot tables, one attribute away (see ``durak.masks``); beat_ids[attack]: card-id bits of the beaters.
        self.seat_bit, self.beaters, self.beat_ids = tables.seat_bit, tables.beaters, BEATERS[self.trump]
        self.attacks, self.attack_at, self.beat_at = tables.attacks, tables.attack_at, tables.beat_at

    def key(self) -> tuple[object, ...]:
        """The arguments that make this setup."""
        return self.players, self.capped, self.bout_limit, self.trump_card, self.stock, self.absent

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, DurakSetup) and self.key() == other.key())

    def __hash__(self) -> int:
        return hash(self.key())

    def __reduce__(self) -> tuple[type[DurakSetup], tuple[object, ...]]:
        return DurakSetup, self.key()

    def __repr__(self) -> str:
        return f"DurakSetup{self.key()!r}"


class DurakState(SlotState):
    """A position; the rest of the deal is in ``setup``, shared by every state of the game.

    ``held``: every seat's hand, a position mask (``durak.masks``) of ``LANE`` bits per seat;
    ``drawn``: cards drawn from ``setup.stock`` so far; ``known``: the cards taken in view of all
    (a take, a hand-over, the trump card drawn last), a position mask: a seat's known cards are
    ``known`` & its hand; ``tally``: defences and takes per seat, packed (``TALLY``);
    ``left[s]``: the bout after which seat ``s`` left the game (0: still playing). The old
    field names (``hands``, ``deck``, ``trump``, ``takes`` …) are read as properties.
    """

    __slots__ = ("setup", "held", "drawn", "attacker", "defender", "bout", "bout_number", "discards", "left",
                 "over", "fool", "tally", "known")

    setup: DurakSetup
    held: int
    drawn: int
    attacker: Seat
    defender: Seat
    bout: tuple[CardId, ...]
    bout_number: int
    discards: int
    left: tuple[int, ...]
    over: bool
    fool: Seat | None
    tally: int
    known: int

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.setup.players

    @property
    def capped(self) -> bool:
        """Whether the attack cap ``defender_hand`` is on."""
        return self.setup.capped

    @property
    def bout_limit(self) -> int:
        """The safety stop: the game is a draw after this many bouts."""
        return self.setup.bout_limit

    @property
    def trump(self) -> int:
        """The trump suit (0 ♠, 1 ♥, 2 ♣, 3 ♦)."""
        return self.setup.trump

    @property
    def trump_card(self) -> CardId:
        """The card turned up for trump."""
        return self.setup.trump_card

    @trump_card.setter
    def trump_card(self, card: CardId) -> None:
        hands, known = self.hands, self.known_cards
        su = self.setup
        self.setup = DurakSetup(su.players, su.capped, su.bout_limit, card, self.deck, su.absent)
        self.drawn = 0
        self.hands = hands
        self.known = self.setup.tables.mask(c for k in known for c in k)

    @property
    def deck(self) -> tuple[CardId, ...]:
        """The cards still to draw, top first (the trump card last)."""
        return self.setup.stock[self.drawn:]

    @deck.setter
    def deck(self, cards: tuple[CardId, ...]) -> None:
        su = self.setup
        self.setup = DurakSetup(su.players, su.capped, su.bout_limit, su.trump_card, tuple(cards), su.absent)
        self.drawn = 0

    @property
    def hands(self) -> tuple[tuple[CardId, ...], ...]:
        """Every seat's hand, in hand order."""
        cards_of, held = self.setup.tables.cards_of, self.held
        return tuple(cards_of(held >> LANE * s & FULL) for s in range(self.setup.players))

    @hands.setter
    def hands(self, hands: Sequence[Sequence[CardId]]) -> None:
        mask = self.setup.tables.mask
        self.held = sum(mask(hand) << LANE * s for s, hand in enumerate(hands))

    @property
    def known_cards(self) -> tuple[tuple[CardId, ...], ...]:
        """Per seat, the cards of its hand that every seat has seen, in hand order."""
        cards_of, held, known = self.setup.tables.cards_of, self.held, self.known
        return tuple(cards_of(held >> LANE * s & known) for s in range(self.setup.players))

    @property
    def gone(self) -> frozenset[CardId]:
        """The discarded cards (every seat saw them in their bout)."""
        return frozenset(self.setup.tables.cards_of(self._gone_mask()))

    def _gone_mask(self) -> int:
        """The discarded cards as a position mask: those in no hand, the deck or the bout (nor absent)."""
        su, held = self.setup, self.held
        out = su.prefix[-1] ^ su.prefix[self.drawn] | su.absent_positions | su.tables.mask(self.bout)
        while held:
            out |= held & FULL
            held >>= LANE
        return FULL & ~out

    @property
    def takes(self) -> tuple[int, ...]:
        """Per seat, the bouts it lost (took the cards)."""
        return tuple(self.tally >> TALLY * (2 * s + 1) & TALLY_COUNT for s in range(self.setup.players))

    @property
    def defences(self) -> tuple[int, ...]:
        """Per seat, the bouts it defended (beaten off or taken)."""
        return tuple(self.tally >> TALLY * 2 * s & TALLY_COUNT for s in range(self.setup.players))


def position_state(players: int, trump_card: CardId, hands: Sequence[Sequence[CardId]], deck: Sequence[CardId],
                   *, attacker: Seat, defender: Seat, bout: Sequence[CardId] = (), bout_number: int = 1,
                   gone: Sequence[CardId] = (), discards: int | None = None, known: Sequence[CardId] = (),
                   left: Sequence[int] | None = None, over: bool = False, fool: Seat | None = None,
                   capped: bool = False, bout_limit: int = 1000) -> DurakState:
    """A state built from its parts (search worlds, test positions); cards in none of them are absent."""
    placed = mask_of(bout) | mask_of(gone) | mask_of(deck)
    for hand in hands:
        placed |= mask_of(hand)
    setup = DurakSetup(players, capped, bout_limit, trump_card, tuple(deck), _ALL_IDS & ~placed)
    state = DurakState()
    state.setup, state.drawn = setup, 0
    state.hands = hands
    state.attacker, state.defender = attacker, defender
    state.bout, state.bout_number = tuple(bout), bout_number
    state.discards = len(gone) if discards is None else discards
    state.left = tuple(left) if left is not None else (0,) * players
    state.over, state.fool, state.tally = over, fool, 0
    state.known = setup.tables.mask(known)
    return state


_ALL_IDS = (1 << rules.DECK_SIZE) - 1


def _ids(card_mask: int) -> list[CardId]:
    """The card ids of a card-id bitmask."""
    return [c for c in range(rules.DECK_SIZE) if card_mask >> c & 1]


__all__ = ["REFILL_ORDER", "TALLY", "TALLY_COUNT", "DurakSetup", "DurakState", "position_state", "refill_order"]
