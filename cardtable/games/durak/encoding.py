"""Durak for learning agents: 74 action ids and a ``uint8`` information state.

Action ids: ``Attack(c)`` is the card id ``c`` (0–35, ``RUSSIAN_36``: ♠ ♥ ♣ ♦, 6 → A),
``Beat(c)`` is ``36 + c``, ``Stop`` 72, ``Take`` 73.

The information state of seat ``me`` with ``n`` players (seats counted from ``me``: 0 is ``me``),
``189 + 5n`` bytes. Flags first: hand (36), attack cards on the table (36), beating cards on the
table (36), the card to beat now (36, one-hot), the trump card (36, one-hot), trump suit (4),
still in the game (n), attacker (n), defender (n), seat to act (n), game over (1), attack cap
``defender_hand`` (1). Then counts: cards in the deck, bout number (clipped at 255), cards
discarded (beaten off), cards held per seat (n).
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from cardtable.core.encoding import ActionId, Encoder, Encoding, bits, write_bit_changes
from cardtable.core.types import Seat
from cardtable.games.durak.actions import ATTACKS, BEATS, STOP, TAKE, Attack, Beat, DurakAction, Stop, Take
from cardtable.games.durak.masks import FULL, LANE
from cardtable.games.durak.options import DurakOptions
from cardtable.games.durak.rules import BEATERS, DECK_SIZE, RANK, RANK_BIT
from cardtable.games.durak.state import DurakState

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

BEAT_BASE: Final = 36
STOP_ID: Final = 72
TAKE_ID: Final = 73
NUM_ACTIONS: Final = 74


class DurakEncoding(Encoding[DurakState, DurakAction, DurakOptions]):
    """The Durak action space and information state."""

    game = "durak"
    fixed_actions = NUM_ACTIONS

    def num_actions(self, options: DurakOptions) -> int:
        """74 for every option set."""
        return NUM_ACTIONS

    def shape(self, options: DurakOptions) -> tuple[int, ...]:
        """``(189 + 5 * players,)``."""
        return (189 + 5 * options.players,)

    def options_of(self, state: DurakState) -> DurakOptions:
        """Only ``players`` matters to the space and shape; the state keeps no options object."""
        return DurakOptions(players=state.setup.players)

    def encoder(self, options: DurakOptions, seat: Seat) -> DurakEncoder:
        """The incremental encoder of ``seat`` (see :class:`cardtable.core.encoding.Encoder`)."""
        return DurakEncoder(self, options, seat)

    def action_id(self, action: DurakAction, state: DurakState | None = None) -> ActionId:
        """See the module docstring; ``ValueError`` for anything outside the space."""
        if type(action) is Attack and 0 <= action.card < DECK_SIZE:
            return action.card
        if type(action) is Beat and 0 <= action.card < DECK_SIZE:
            return BEAT_BASE + action.card
        if type(action) is Stop:
            return STOP_ID
        if type(action) is Take:
            return TAKE_ID
        raise ValueError(f"{action!r} is not in the Durak action space")

    def action_from_id(self, action_id: ActionId, state: DurakState | None = None) -> DurakAction:
        """The action with this id; ``ValueError`` outside 0–73."""
        i = self.check_id(action_id, DurakOptions())
        if i < BEAT_BASE:
            return ATTACKS[i]
        if i < STOP_ID:
            return BEATS[i - BEAT_BASE]
        return STOP if i == STOP_ID else TAKE

    def legal_bits(self, state: DurakState, seat: Seat) -> int:
        """The same rules as ``legal_actions``, as id bits (from the rules' tables of beating cards and ranks)."""
        if state.over:
            return 0
        bout, setup = state.bout, state.setup
        hand = setup.tables.card_ids(state.held >> LANE * seat & FULL)
        if len(bout) & 1:
            if seat != state.defender:
                return 0
            return 1 << TAKE_ID | (hand & BEATERS[setup.trump][bout[-1]]) << BEAT_BASE
        if seat != state.attacker:
            return 0
        if not bout:
            return hand
        if setup.capped and not state.held >> LANE * state.defender & FULL:
            return 1 << STOP_ID
        ranks = 0
        for card in bout:
            ranks |= RANK_BIT[card]
        return 1 << STOP_ID | (hand & _OF_RANKS[ranks])

    def features(self, state: DurakState, seat: Seat) -> bytes:
        """The bytes described in the module docstring."""
        setup, held = state.setup, state.held
        n = setup.players
        flags = setup.tables.card_ids(held >> LANE * seat & FULL)
        bout = state.bout
        for i, card in enumerate(bout):
            flags |= 1 << ((72 if i & 1 else 36) + card)
        if len(bout) & 1:
            flags |= 1 << (108 + bout[-1])
        flags |= 1 << (144 + setup.trump_card) | 1 << (180 + setup.trump)
        base = 184
        for k in range(n):
            if not state.left[(seat + k) % n]:
                flags |= 1 << (base + k)
        if state.over:
            flags |= 1 << (base + 4 * n)
        else:
            attacker, defender = (state.attacker - seat) % n, (state.defender - seat) % n
            flags |= 1 << (base + n + attacker) | 1 << (base + 2 * n + defender)
            flags |= 1 << (base + 3 * n + (defender if len(bout) & 1 else attacker))
        if setup.capped:
            flags |= 1 << (base + 4 * n + 1)
        counts = [len(setup.stock) - state.drawn, min(state.bout_number, 255), state.discards]
        counts += [(held >> LANE * ((seat + k) % n) & FULL).bit_count() for k in range(n)]
        return bits(flags, base + 4 * n + 2) + bytes(counts)


#: Per set of ranks (one bit per rank, as ``RANK_BIT``), every card of those ranks.
_OF_RANKS: Final = tuple(sum(1 << c for c in range(DECK_SIZE) if ranks >> RANK[c] & 1) for ranks in range(512))
_ZEROS: Final = bytes(108)


class DurakEncoder(Encoder[DurakState]):
    """``DurakEncoding.features`` for one seat, rewriting only the bytes that changed."""

    __slots__ = ("_n", "_rel", "_at", "_pack_counts", "_hand", "_hand_mask", "_bout", "_setup_of", "_setup",
                 "_left", "_roles", "_roles_on")

    def __init__(self, encoding: DurakEncoding, options: DurakOptions, seat: Seat) -> None:
        n = options.players
        self._n = n
        self._rel = tuple((x - seat) % n for x in range(n))
        self._at = 186 + 4 * n
        self._pack_counts = _counts_packer(n, seat)
        super().__init__(encoding, options, seat)

    def _forget(self) -> None:
        self._hand = -1  # the seat's hand as a position mask
        self._hand_mask = 0  # … and as card ids, as written
        self._bout: tuple[int, ...] = ()
        self._setup_of: object = None
        self._setup: tuple[object, ...] | None = None
        self._left: tuple[int, ...] | None = None
        self._roles: tuple[bool, Seat, Seat, int] | None = None
        self._roles_on: tuple[int, ...] = ()

    def encode(self, state: DurakState) -> npt.NDArray[np.uint8]:
        """The seat's information state in ``state``, written into ``obs``; returns ``obs``."""
        s, view, setup, held = state, self._view, state.setup, state.held
        if setup.players != self._n:
            raise ValueError(f"this encoder is for {self._n} players, the state has {setup.players}")
        hand = held >> LANE * self.seat & FULL
        if hand != self._hand or setup is not self._setup_of:
            self._hand = hand
            new = setup.tables.card_ids(hand)
            diff = new ^ self._hand_mask
            self._hand_mask = new
            if diff & (diff - 1):
                write_bit_changes(view, new, new ^ diff)
            elif diff:  # one card played (the usual change): one byte
                i = diff.bit_length() - 1
                view[i] = new >> i & 1
        bout = s.bout
        if bout is not self._bout:
            self._write_bout(bout)
        if setup is not self._setup_of:
            self._setup_of = setup
            if (setup.trump_card, setup.trump, setup.capped) != self._setup:
                self._write_setup(s)
        if s.left is not self._left:
            self._write_left(s.left)
        roles = (s.over, s.attacker, s.defender, len(bout) & 1)
        if roles != self._roles:
            self._write_roles(roles)
        # Stock, bout number, discards and the cards held per seat, side by side in one store.
        self._pack_counts(view, self._at, len(setup.stock) - s.drawn, min(s.bout_number, 255), s.discards, held)
        return self.obs

    def _write_bout(self, bout: tuple[int, ...]) -> None:
        """The attack and beating cards on the table, and the card to beat."""
        view, old = self._view, self._bout
        k = len(old)
        if old and len(bout) > k and bout[:k] == old:
            if k & 1:
                view[108 + old[-1]] = 0
            for i in range(k, len(bout)):
                view[(72 if i & 1 else 36) + bout[i]] = 1
        else:
            if old:
                view[36:144] = _ZEROS
            for i, card in enumerate(bout):
                view[(72 if i & 1 else 36) + card] = 1
        if len(bout) & 1:
            view[108 + bout[-1]] = 1
        self._bout = bout

    def _write_setup(self, s: DurakState) -> None:
        """Trump card and suit, and the attack cap."""
        view, base = self._view, 184 + 4 * self._n
        view[144:184] = _ZEROS[:40]
        setup = s.setup
        view[144 + setup.trump_card] = 1
        view[180 + setup.trump] = 1
        view[base + 1] = 1 if setup.capped else 0
        self._setup = (setup.trump_card, setup.trump, setup.capped)

    def _write_left(self, left: tuple[int, ...]) -> None:
        """Which seats are still in the game."""
        for x, bout in enumerate(left):
            self._view[184 + self._rel[x]] = 0 if bout else 1
        self._left = left

    def _write_roles(self, roles: tuple[bool, Seat, Seat, int]) -> None:
        """Attacker, defender and the seat to act, or the game-over flag."""
        view, n, rel = self._view, self._n, self._rel
        for i in self._roles_on:
            view[i] = 0
        over, attacker, defender, odd = roles
        base = 184
        if over:
            on: tuple[int, ...] = (base + 4 * n,)
        else:
            a, d = rel[attacker], rel[defender]
            on = (base + n + a, base + 2 * n + d, base + 3 * n + (d if odd else a))
        for i in on:
            view[i] = 1
        self._roles_on = on
        self._roles = roles


def _counts_packer(players: int, seat: Seat) -> Callable[..., None]:
    """A function ``(view, at, stock, bout, discards, held)`` storing three counts and the hand sizes from ``seat`` on.

    One ``struct.pack_into`` written out for these numbers (no loop, no intermediate tuple).
    """
    sizes = [f"(held >> {LANE * ((seat + k) % players)} & {FULL}).bit_count()" for k in range(players)]
    namespace: dict[str, Any] = {"pack_into": struct.Struct(f"{3 + players}B").pack_into}
    exec(f"def pack(view, at, stock, bout, discards, held):\n"
         f"    pack_into(view, at, stock, bout, discards, {', '.join(sizes)})", namespace)  # generated from ints only
    pack: Callable[..., None] = namespace["pack"]
    return pack


ENCODING: Final = DurakEncoding()
