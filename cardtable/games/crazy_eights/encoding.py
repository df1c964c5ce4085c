"""Crazy Eights for learning agents: 70 action ids and a ``uint8`` information state.

Action ids: ``Play(c)`` is ``c`` (0–51; the eights 6, 19, 32, 45 never, an eight names a suit),
``PlayEight(c, suit)`` is ``52 + 4 * suit_of(c) + named suit`` (52–67), ``Draw`` 68, ``Pass`` 69.

The information state of seat ``me`` with ``n`` players (seats counted from ``me``: 0 is ``me``),
``166 + 4n`` bytes: hand (52 flags), top card (52, one-hot), suit in force (4, one-hot), the card
just drawn (52, one-hot, only for the drawer), the seat to act (n, one-hot), the dealer (n,
one-hot); then counts: cards held per seat (n), stock size, discards under the top card, cards
drawn this turn, passes in a row, round, rounds (6), penalty totals per seat (n, halved,
clipped at 255).
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Final

from cardtable.core.encoding import ActionId, Encoder, Encoding, bits, rotated_packer, rotation, write_bit_changes
from cardtable.core.types import Seat
from cardtable.games.crazy_eights.actions import DRAW, PASS, Action, Draw, Pass, Play, PlayEight
from cardtable.games.crazy_eights.game import MATCH
from cardtable.games.crazy_eights.options import CrazyEightsOptions
from cardtable.games.crazy_eights.rules import DECK_SIZE, EIGHTS, SUIT_INDEX, SUIT_NAMES, SUIT_OF, is_eight
from cardtable.games.crazy_eights.state import CrazyEightsState

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

EIGHT_BASE: Final = 52
DRAW_ID: Final = 68
PASS_ID: Final = 69
NUM_ACTIONS: Final = 70

_PLAINS: Final = ((1 << DECK_SIZE) - 1) & ~EIGHTS
#: For each eight (by its suit), the four ids of playing it and naming each suit.
_EIGHT_IDS: Final = tuple(0xF << (EIGHT_BASE + 4 * s) for s in range(4))
_EIGHT_CARDS: Final = tuple(c for c in range(DECK_SIZE) if is_eight(c))


class CrazyEightsEncoding(Encoding[CrazyEightsState, Action, CrazyEightsOptions]):
    """The Crazy Eights action space and information state."""

    game = "crazy_eights"
    fixed_actions = NUM_ACTIONS

    def __init__(self) -> None:
        # The totals change once a round: their bytes are kept by identity, per seat.
        self._totals: dict[Seat, tuple[tuple[int, ...], list[int]]] = {}

    def num_actions(self, options: CrazyEightsOptions) -> int:
        """70 for every option set."""
        return NUM_ACTIONS

    def shape(self, options: CrazyEightsOptions) -> tuple[int, ...]:
        """``(166 + 4 * players,)``."""
        return (166 + 4 * options.players,)

    def encoder(self, options: CrazyEightsOptions, seat: Seat) -> CrazyEightsEncoder:
        """The incremental encoder of ``seat`` (see :class:`cardtable.core.encoding.Encoder`)."""
        return CrazyEightsEncoder(self, options, seat)

    def action_id(self, action: Action, state: CrazyEightsState | None = None) -> ActionId:
        """See the module docstring; ``ValueError`` for anything that is not a Crazy Eights action."""
        if type(action) is Play and 0 <= action.card < DECK_SIZE and not is_eight(action.card):
            return action.card
        if type(action) is PlayEight and 0 <= action.card < DECK_SIZE and is_eight(action.card):
            return EIGHT_BASE + 4 * SUIT_OF[action.card] + SUIT_INDEX[action.suit]
        if type(action) is Draw:
            return DRAW_ID
        if type(action) is Pass:
            return PASS_ID
        raise ValueError(f"{action!r} is not in the Crazy Eights action space")

    def action_from_id(self, action_id: ActionId, state: CrazyEightsState | None = None) -> Action:
        """The action with this id; ``ValueError`` for ids outside 0–69 and for the unused ids of eights."""
        i = self.check_id(action_id, CrazyEightsOptions())
        if i < EIGHT_BASE:
            if is_eight(i):
                raise ValueError(f"action id {i} is unused: an eight is played with a named suit (ids 52–67)")
            return Play(i)
        if i < DRAW_ID:
            k = i - EIGHT_BASE
            return PlayEight(_EIGHT_CARDS[k // 4], SUIT_NAMES[k % 4])
        return DRAW if i == DRAW_ID else PASS

    def legal_bits(self, state: CrazyEightsState, seat: Seat) -> int:
        """Playable cards (eights four times), else Draw when allowed, else Pass."""
        if state.over or seat != state.turn:
            return 0
        playable = state.hands[seat] & MATCH[state.top * 4 + state.suit]
        if playable:
            out = playable & _PLAINS
            eights = playable & EIGHTS
            while eights:
                low = eights & -eights
                out |= _EIGHT_IDS[SUIT_OF[low.bit_length() - 1]]
                eights ^= low
            return out
        if (state.stock or state.discards) and (state.draw_until or not state.drawn):
            return 1 << DRAW_ID
        return 1 << PASS_ID

    def features(self, state: CrazyEightsState, seat: Seat) -> bytes:
        """The bytes described in the module docstring: the flags as one bitmask, then the counts."""
        n = state.players
        flags = state.hands[seat] | 1 << (52 + state.top) | 1 << (104 + state.suit)
        flags |= 1 << (160 + n + (state.dealer - seat) % n)
        if not state.over:
            flags |= 1 << (160 + (state.turn - seat) % n)
            if seat == state.turn and state.last_drawn is not None:
                flags |= 1 << (108 + state.last_drawn)
        counts = list(map(int.bit_count, state.hands[seat:] + state.hands[:seat]))
        # Each count is at most 52 (a deck), so none needs clipping.
        counts += (len(state.stock), state.discards.bit_count() + 1, state.drawn, state.passes, state.round,
                   state.options.rounds)
        cached = self._totals.get(seat)
        if cached is None or cached[0] is not state.totals:
            totals = state.totals[seat:] + state.totals[:seat]
            cached = (state.totals, [t >> 1 if t < 511 else 255 for t in totals])
            self._totals[seat] = cached
        return bits(flags, 160 + 2 * n) + bytes(counts + cached[1])

class CrazyEightsEncoder(Encoder[CrazyEightsState]):
    """``CrazyEightsEncoding.features`` for one seat, rewriting only the bytes that changed."""

    __slots__ = ("_n", "_rel", "_counts", "_rotated", "_pack_held", "_pack_counts", "_hand", "_top", "_suit",
                 "_drawn", "_turn", "_dealer", "_totals")

    def __init__(self, encoding: CrazyEightsEncoding, options: CrazyEightsOptions, seat: Seat) -> None:
        n = options.players
        self._n = n
        self._rel = tuple((x - seat) % n for x in range(n))
        self._counts = 160 + 2 * n
        self._rotated = rotation(n, seat)
        self._pack_held = struct.Struct(f"{n}B").pack_into
        self._pack_counts = rotated_packer(n, seat, "b", 6)
        super().__init__(encoding, options, seat)

    def _forget(self) -> None:
        self._hand = 0
        self._top = self._suit = self._drawn = self._turn = self._dealer = -1
        self._totals: tuple[int, ...] | None = None

    def encode(self, state: CrazyEightsState) -> npt.NDArray[np.uint8]:
        """The seat's information state in ``state``, written into ``obs``; returns ``obs``."""
        s, view, seat = state, self._view, self.seat
        if s.players != self._n:
            raise ValueError(f"this encoder is for {self._n} players, the state has {s.players}")
        hand, old = s.hands[seat], self._hand
        if hand != old:
            diff = hand ^ old
            if diff & (diff - 1):
                write_bit_changes(view, hand, old)
            else:  # one card played or drawn (the usual change): one byte
                i = diff.bit_length() - 1
                view[i] = hand >> i & 1
            self._hand = hand
        top = s.top
        if top != self._top:
            if self._top >= 0:
                view[52 + self._top] = 0
            view[52 + top] = 1
            self._top = top
        suit = s.suit
        if suit != self._suit:
            if self._suit >= 0:
                view[104 + self._suit] = 0
            view[104 + suit] = 1
            self._suit = suit
        over, turn = s.over, s.turn
        drawn = -1 if over or seat != turn or s.last_drawn is None else s.last_drawn
        if drawn != self._drawn:
            if self._drawn >= 0:
                view[108 + self._drawn] = 0
            if drawn >= 0:
                view[108 + drawn] = 1
            self._drawn = drawn
        if over:
            turn = -1
        if turn != self._turn:
            if self._turn >= 0:
                view[160 + self._rel[self._turn]] = 0
            if turn >= 0:
                view[160 + self._rel[turn]] = 1
            self._turn = turn
        if s.dealer != self._dealer:
            self._write_dealer(s.dealer)
        # The cards held per seat and six counts, side by side in one store. Each count is at most
        # 52 (a deck), so none needs clipping.
        self._pack_counts(view, self._counts, s.hands, len(s.stock), s.discards.bit_count() + 1, s.drawn, s.passes,
                          s.round, s.options.rounds)
        if s.totals is not self._totals:
            self._write_totals(s.totals)
        return self.obs

    def _write_dealer(self, dealer: Seat) -> None:
        at = 160 + self._n
        if self._dealer >= 0:
            self._view[at + self._rel[self._dealer]] = 0
        self._view[at + self._rel[dealer]] = 1
        self._dealer = dealer

    def _write_totals(self, totals: tuple[int, ...]) -> None:
        self._totals = totals
        self._pack_held(self._view, self._counts + self._n + 6,
                        *[t >> 1 if t < 511 else 255 for t in self._rotated(totals)])


ENCODING: Final = CrazyEightsEncoding()
