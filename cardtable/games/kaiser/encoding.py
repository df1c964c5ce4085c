"""Kaiser for learning agents: 49 action ids and a ``uint8`` information state.

Action ids: ``Play(c)`` is the card id ``c`` (0–31, ``KAISER_32``: ♠ ♥ ♦ ♣, each lowest first),
``Pass`` 32, ``Bid(points, no_trump)`` is ``33 + 2 * (points - 5) + no_trump`` (5–10 points:
33–44), ``NameTrump(suit)`` is ``45 + suit`` (♠ ♥ ♦ ♣).

The information state of seat ``me`` (seats counted from ``me``: 0 is ``me``, 2 the partner;
sides counted from ``me``'s side), 348 bytes. Flags first: hand (32), the trick in progress by
seat (4 × 32), the last trick by seat (4 × 32), phase (4: bidding, trump, play, over), dealer (4),
seat to act (4), leader of the trick (4), the contract's bidder (4), trump (5: four suits, no
trump), per seat: has called (4), passed (4), bid no trump (4), and the last trick's winner (4).
Then counts: each seat's bid points (4, 0: pass or not yet), the highest bid's rank + 1 (0:
none), tricks taken per side (2), points taken per side + 16 (2), totals per side + 128
(2, clipped to 0–255), cards held (4), hand number (clipped at 255), floor, target, no trump
allowed (3).
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Final

from cardtable.core.encoding import ActionId, Encoder, Encoding, bits, rotation, write_bit_changes
from cardtable.core.types import Seat
from cardtable.games.kaiser import rules
from cardtable.games.kaiser.actions import NAME_TRUMPS, PASS, Bid, KaiserAction, NameTrump, Pass, Play
from cardtable.games.kaiser.options import KaiserOptions
from cardtable.games.kaiser.state import BIDDING, OVER, PLAY, TRUMP, KaiserState

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

PASS_ID: Final = 32
BID_BASE: Final = 33
LOW_BID: Final = 5
TRUMP_BASE: Final = BID_BASE + 2 * (rules.MAX_BID - LOW_BID + 1)
NUM_ACTIONS: Final = TRUMP_BASE + 4
SHAPE: Final = (348,)

_PLAYS: Final = tuple(Play(c) for c in range(32))
_BIDS: Final = tuple(Bid(p, nt) for p in range(LOW_BID, rules.MAX_BID + 1) for nt in (False, True))


class KaiserEncoding(Encoding[KaiserState, KaiserAction, KaiserOptions]):
    """The Kaiser action space and information state."""

    game = "kaiser"
    fixed_actions = NUM_ACTIONS

    def num_actions(self, options: KaiserOptions) -> int:
        """49 for every option set."""
        return NUM_ACTIONS

    def shape(self, options: KaiserOptions) -> tuple[int, ...]:
        """``(348,)``."""
        return SHAPE

    def encoder(self, options: KaiserOptions, seat: Seat) -> KaiserEncoder:
        """The incremental encoder of ``seat`` (see :class:`cardtable.core.encoding.Encoder`)."""
        return KaiserEncoder(self, options, seat)

    def action_id(self, action: KaiserAction, state: KaiserState | None = None) -> ActionId:
        """See the module docstring; ``ValueError`` for anything outside the space."""
        if type(action) is Play and 0 <= action.card < 32:
            return action.card
        if type(action) is Pass:
            return PASS_ID
        if type(action) is Bid and LOW_BID <= action.points <= rules.MAX_BID:
            return BID_BASE + 2 * (action.points - LOW_BID) + action.no_trump
        if type(action) is NameTrump and action.suit in rules.SUIT_WORDS:
            return TRUMP_BASE + action.index
        raise ValueError(f"{action!r} is not in the Kaiser action space")

    def action_from_id(self, action_id: ActionId, state: KaiserState | None = None) -> KaiserAction:
        """The action with this id; ``ValueError`` outside 0–48."""
        i = self.check_id(action_id, KaiserOptions())
        if i < PASS_ID:
            return _PLAYS[i]
        if i == PASS_ID:
            return PASS
        return _BIDS[i - BID_BASE] if i < TRUMP_BASE else NAME_TRUMPS[i - TRUMP_BASE]

    def legal_bits(self, state: KaiserState, seat: Seat) -> int:
        """The same rules as ``legal_actions``, as id bits."""
        if state.phase == OVER or seat != state.turn:
            return 0
        if state.phase == PLAY:
            hand = state.hands[seat]
            if state.trick:
                led = state.trick[0][1] >> 3
                follow = hand & 0xFF << (8 * led)
                if follow:
                    return follow
            return hand
        if state.phase == TRUMP:
            return 0xF << TRUMP_BASE
        opts = state.options
        out = 0 if seat == state.dealer and state.high < 0 else 1 << PASS_ID
        floor_value = rules.bid_value(opts.floor, False)
        for k, bid in enumerate(_BIDS):
            value = 2 * bid.points + bid.no_trump
            if value > state.high and value >= floor_value and (opts.no_trump or not bid.no_trump):
                out |= 1 << (BID_BASE + k)
        return out

    def features(self, state: KaiserState, seat: Seat) -> bytes:
        """The bytes described in the module docstring."""
        phase = state.phase
        flags = state.hands[seat]
        for s, card in state.trick:
            flags |= 1 << (32 + 32 * ((s - seat) & 3) + card)
        for s, card in state.last_trick:
            flags |= 1 << (160 + 32 * ((s - seat) & 3) + card)
        flags |= 1 << (288 + phase) | 1 << (292 + ((state.dealer - seat) & 3))
        if phase != OVER:
            flags |= 1 << (296 + ((state.turn - seat) & 3))
        if phase == PLAY:
            flags |= 1 << (300 + ((state.leader - seat) & 3))
        if phase != BIDDING and state.high_bidder >= 0:
            flags |= 1 << (304 + ((state.high_bidder - seat) & 3))
        if state.trump >= 0:
            flags |= 1 << (308 + state.trump)
        points = [0, 0, 0, 0]
        for s, pts, nt in state.bids:
            rel = (s - seat) & 3
            flags |= 1 << (313 + rel)
            if pts:
                points[rel] = pts
                if nt:
                    flags |= 1 << (321 + rel)
            else:
                flags |= 1 << (317 + rel)
        if state.last_trick:
            flags |= 1 << (325 + ((state.last_winner - seat) & 3))
        side = seat & 1
        tricks, taken, totals = state.tricks, state.points, state.totals
        counts = points + [
            state.high + 1, tricks[side], tricks[1 - side], taken[side] + 16, taken[1 - side] + 16,
            min(255, max(0, totals[side] + 128)), min(255, max(0, totals[1 - side] + 128)),
        ]
        counts += [h.bit_count() for h in state.hands[seat:] + state.hands[:seat]]
        opts = state.options
        counts += (min(state.hand_no, 255), opts.floor, opts.target, opts.no_trump)
        return bits(flags, 329) + bytes(counts)


_PACK4: Final = struct.Struct("4B").pack_into
_PACK7: Final = struct.Struct("7B").pack_into
_ZEROS: Final = bytes(128)


class KaiserEncoder(Encoder[KaiserState]):
    """``KaiserEncoding.features`` for one seat, rewriting only the bytes that changed."""

    __slots__ = ("_rel", "_held", "_side", "_other", "_pack_counts", "_hand", "_trick", "_last", "_setup",
                 "_setup_on", "_phase", "_trump", "_turn", "_leader", "_winner", "_bids", "_totals", "_clipped")

    def __init__(self, encoding: KaiserEncoding, options: KaiserOptions, seat: Seat) -> None:
        self._rel = tuple((x - seat) & 3 for x in range(4))
        self._held = rotation(4, seat, bit_counts=True)
        self._side, self._other = seat & 1, 1 - (seat & 1)
        self._pack_counts = struct.Struct("11B").pack_into
        super().__init__(encoding, options, seat)

    def _forget(self) -> None:
        self._hand = 0
        self._trick: tuple[tuple[int, int], ...] = ()
        self._last: tuple[tuple[int, int], ...] = ()
        self._setup: tuple[object, ...] | None = None
        self._setup_on: tuple[int, ...] = ()
        self._turn = self._leader = self._winner = -1
        self._bids: tuple[tuple[int, int, bool], ...] | None = None
        self._phase = self._trump = -2
        self._totals: tuple[int, ...] | None = None
        self._clipped = (0, 0)

    def encode(self, state: KaiserState) -> npt.NDArray[np.uint8]:
        """The seat's information state in ``state``, written into ``obs``; returns ``obs``."""
        s, view, rel = state, self._view, self._rel
        hand, old = s.hands[self.seat], self._hand
        if hand != old:
            diff = hand ^ old
            if diff & (diff - 1):
                write_bit_changes(view, hand, old)
            else:  # one card played (the usual change): one byte
                i = diff.bit_length() - 1
                view[i] = hand >> i & 1
            self._hand = hand
        trick = s.trick
        if trick is not self._trick:
            if self._trick:
                view[32:160] = _ZEROS
            for x, card in trick:
                view[32 + 32 * rel[x] + card] = 1
            self._trick = trick
        last = s.last_trick
        if last is not self._last:
            self._write_last(last, s.last_winner)
        phase = s.phase
        # While the phase, the bids (a new tuple at each bid, never shared by two hands unless empty)
        # and the trump stay, so do the dealer, the contract, the hand number and the options.
        bids = s.bids
        if phase != self._phase or bids is not self._bids or s.trump != self._trump or not bids:
            if (phase, s.dealer, s.high_bidder, s.trump, s.hand_no, s.options) != self._setup:
                self._write_setup(s)
            if bids is not self._bids:
                self._write_bids(s)
            self._phase, self._trump = phase, s.trump
        turn = -1 if phase == OVER else s.turn
        if turn != self._turn:
            if self._turn >= 0:
                view[296 + rel[self._turn]] = 0
            if turn >= 0:
                view[296 + rel[turn]] = 1
            self._turn = turn
        leader = s.leader if phase == PLAY else -1
        if leader != self._leader:
            if self._leader >= 0:
                view[300 + rel[self._leader]] = 0
            if leader >= 0:
                view[300 + rel[leader]] = 1
            self._leader = leader
        totals = s.totals
        if totals is not self._totals:
            self._write_totals(totals)
        # The highest bid, tricks and points per side, the totals and the cards held: side by side.
        tricks, points, side, other = s.tricks, s.points, self._side, self._other
        self._pack_counts(view, 333, s.high + 1, tricks[side], tricks[other], points[side] + 16, points[other] + 16,
                          *self._clipped, *self._held(s.hands))
        return self.obs

    def _write_last(self, last: tuple[tuple[int, int], ...], winner: Seat) -> None:
        """The last trick by seat and its winner."""
        view, rel = self._view, self._rel
        if self._last:
            view[160:288] = _ZEROS
        for x, card in last:
            view[160 + 32 * rel[x] + card] = 1
        if self._winner >= 0:
            view[325 + rel[self._winner]] = 0
        self._winner = winner if last else -1
        if last:
            view[325 + rel[winner]] = 1
        self._last = last

    def _write_setup(self, s: KaiserState) -> None:
        """Phase, dealer, the contract's bidder, trump, hand number and the options."""
        view, rel = self._view, self._rel
        for i in self._setup_on:
            view[i] = 0
        phase = s.phase
        on = [288 + phase, 292 + rel[s.dealer]]
        if phase != BIDDING and s.high_bidder >= 0:
            on.append(304 + rel[s.high_bidder])
        if s.trump >= 0:
            on.append(308 + s.trump)
        for i in on:
            view[i] = 1
        opts = s.options
        _PACK4(view, 344, min(s.hand_no, 255), opts.floor, opts.target, opts.no_trump)
        self._setup_on = tuple(on)
        self._setup = (phase, s.dealer, s.high_bidder, s.trump, s.hand_no, s.options)

    def _write_bids(self, s: KaiserState) -> None:
        """Who called, passed or bid no trump, and each seat's bid points."""
        view, rel = self._view, self._rel
        view[313:325] = _ZEROS[:12]
        points = [0, 0, 0, 0]
        for x, pts, nt in s.bids:
            r = rel[x]
            view[313 + r] = 1
            if pts:
                points[r] = pts
                if nt:
                    view[321 + r] = 1
            else:
                view[317 + r] = 1
        _PACK4(view, 329, *points)
        self._bids = s.bids

    def _write_totals(self, totals: tuple[int, ...]) -> None:
        """Keep the totals per side, clipped to a byte, for the next stores."""
        side = self.seat & 1
        self._clipped = (min(255, max(0, totals[side] + 128)), min(255, max(0, totals[1 - side] + 128)))
        self._totals = totals


ENCODING: Final = KaiserEncoding()
