"""Wizard for learning agents: 85 action ids and a ``uint8`` information state.

Action ids: ``Play(c)`` is the card id ``c`` (0–59, seed 000's ids: red, yellow, green, blue 1–13,
wizards 52–55, jesters 56–59), ``Bid(k)`` is ``60 + k`` (k 0–20, the largest hand of 3 players),
``ChooseTrump(suit)`` is ``81 + suit`` (red, yellow, green, blue).

The information state of seat ``me`` with ``n`` players (seats counted from ``me``: 0 is ``me``),
``196 + 68n`` bytes. Flags first: hand (60), cards played in this round's finished tricks (60),
the trick in progress by seat (``n`` × 60), trump card (60, one-hot), trump suit (4), trump to be
named by the dealer (1), suit led (4), phase (4: choosing trump, bidding, playing, finished),
dealer (n), seat to act (n), leader of the trick (n), has bid (n). Then counts: bids (n, bid + 1,
0 while not made or hidden), tricks won (n), cards held (n), round, rounds, the forbidden last
bid + 1 (0: none or not shown), totals (n, ``total // 10 + 100`` clipped to 0–255).
"""

from __future__ import annotations

import struct
from operator import add
from typing import TYPE_CHECKING, Final

from cardtable.core.encoding import ActionId, Encoder, Encoding, bits, rotated_packer, rotation, write_bit_changes
from cardtable.core.types import Seat
from cardtable.games.wizard import rules
from cardtable.games.wizard.actions import Bid, ChooseTrump, Play, WizardAction
from cardtable.games.wizard.game import INFO, WizardGame
from cardtable.games.wizard.options import WizardOptions
from cardtable.games.wizard.state import BIDDING, CHOOSING_TRUMP, PLAYING, WizardState

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

CARDS: Final = rules.DECK_SIZE
BID_BASE: Final = 60
MAX_BID: Final = rules.DECK_SIZE // rules.MIN_PLAYERS
TRUMP_BASE: Final = BID_BASE + MAX_BID + 1
NUM_ACTIONS: Final = TRUMP_BASE + 4
PHASES: Final = {CHOOSING_TRUMP: 0, BIDDING: 1, PLAYING: 2, "finished": 3}

_GAME = WizardGame()
_ZEROS_60: Final = bytes(60)
_PLAYS: Final = tuple(Play(c) for c in range(CARDS))
_BIDS: Final = tuple(Bid(k) for k in range(MAX_BID + 1))
_TRUMPS: Final = tuple(ChooseTrump(name) for name in rules.SUITS)  # type: ignore[arg-type]


class WizardEncoding(Encoding[WizardState, WizardAction, WizardOptions]):
    """The Wizard action space and information state."""

    game = INFO.name
    fixed_actions = NUM_ACTIONS

    def __init__(self) -> None:
        # States share unchanged tuples, so the last conversions are kept by identity: the
        # played cards change once a trick, the totals once a round.
        self._played: tuple[tuple[int, ...] | None, int] = (None, 0)
        self._totals: dict[Seat, tuple[tuple[int, ...], list[int]]] = {}

    def num_actions(self, options: WizardOptions) -> int:
        """85 for every option set."""
        return NUM_ACTIONS

    def shape(self, options: WizardOptions) -> tuple[int, ...]:
        """``(196 + 68 * players,)``."""
        return (196 + 68 * options.players,)

    def encoder(self, options: WizardOptions, seat: Seat) -> WizardEncoder:
        """The incremental encoder of ``seat`` (see :class:`cardtable.core.encoding.Encoder`)."""
        return WizardEncoder(self, options, seat)

    def action_id(self, action: WizardAction, state: WizardState | None = None) -> ActionId:
        """See the module docstring; ``ValueError`` for anything outside the space."""
        if type(action) is Play and 0 <= action.card < CARDS:
            return action.card
        if type(action) is Bid and 0 <= action.tricks <= MAX_BID:
            return BID_BASE + action.tricks
        if type(action) is ChooseTrump and action.suit in rules.SUITS:
            return TRUMP_BASE + action.suit_index
        raise ValueError(f"{action!r} is not in the Wizard action space")

    def action_from_id(self, action_id: ActionId, state: WizardState | None = None) -> WizardAction:
        """The action with this id; ``ValueError`` outside 0–84."""
        i = self.check_id(action_id, WizardOptions())
        if i < BID_BASE:
            return _PLAYS[i]
        return _BIDS[i - BID_BASE] if i < TRUMP_BASE else _TRUMPS[i - TRUMP_BASE]

    def legal_bits(self, state: WizardState, seat: Seat) -> int:
        """Playable cards, allowed bids or the four suits, as id bits."""
        if seat != state.to_act:
            return 0
        if state.phase == PLAYING:
            return rules.legal_mask(state.hands[seat], state.lead)
        if state.phase == BIDDING:
            out = ((1 << (state.round + 1)) - 1) << BID_BASE
            forbidden = _GAME.forbidden_bid(state)
            if forbidden is not None:
                out &= ~(1 << (BID_BASE + forbidden))
            return out
        return 0xF << TRUMP_BASE

    def features(self, state: WizardState, seat: Seat) -> bytes:
        """The bytes described in the module docstring."""
        s, n = state, state.options.players
        phase = s.phase
        played, mask = self._played
        if played is not s.played:
            mask = rules.mask_of(s.played) << 60
            self._played = (s.played, mask)
        flags = s.hands[seat] | mask
        if s.trick:
            leader = s.leader
            for i, card in enumerate(s.trick):
                flags |= 1 << (120 + 60 * ((leader + i - seat) % n) + card)
        base = 120 + 60 * n
        if s.trump_card is not None:
            flags |= 1 << (base + s.trump_card)
        if s.trump >= 0:
            flags |= 1 << (base + 60 + s.trump)
        if phase == CHOOSING_TRUMP:
            flags |= 1 << (base + 64)
        if 0 <= s.lead < 4:
            flags |= 1 << (base + 65 + s.lead)
        flags |= 1 << (base + 69 + PHASES[phase])
        base += 73
        flags |= 1 << (base + (s.dealer - seat) % n)
        if s.to_act is not None:
            flags |= 1 << (base + n + (s.to_act - seat) % n)
        if phase == PLAYING:
            flags |= 1 << (base + 2 * n + (s.leader - seat) % n)
        bids = s.bids[seat:] + s.bids[:seat]
        hidden = s.options.hidden_bids and phase in (BIDDING, CHOOSING_TRUMP)
        for k, b in enumerate(bids):
            if b >= 0:
                flags |= 1 << (base + 3 * n + k)
        if hidden:
            shown = [bids[0] + 1] + [0] * (n - 1)
            forbidden = _GAME.forbidden_bid(s) if seat == s.dealer else None
        else:
            shown = [b + 1 for b in bids]
            forbidden = _GAME.forbidden_bid(s)
        counts = shown
        counts += s.tricks[seat:] + s.tricks[:seat]
        counts += [h.bit_count() for h in s.hands[seat:] + s.hands[:seat]]
        counts += (s.round, s.rounds, 0 if forbidden is None else forbidden + 1)
        cached = self._totals.get(seat)
        if cached is None or cached[0] is not s.totals:
            cached = (s.totals, [min(255, max(0, t // 10 + 100)) for t in s.totals[seat:] + s.totals[:seat]])
            self._totals[seat] = cached
        return bits(flags, base + 4 * n) + bytes(counts + cached[1])


class WizardEncoder(Encoder[WizardState]):
    """``WizardEncoding.features`` for one seat, rewriting only the bytes that changed.

    While cards are played, the round's setup (dealer, trump, bids, totals) cannot change: the
    bids tuple, made once by the last bid of the round, stands for it. The tuples of finished
    and current tricks stand for the lead, the leader, the tricks won and the cards held.
    """

    __slots__ = ("_n", "_rel", "_base", "_counts", "_rotated", "_pack", "_trick_at", "_hand",
                 "_played", "_trick", "_trick_on", "_setup", "_setup_on", "_lead", "_to_act", "_leader", "_bids",
                 "_hidden", "_phase", "_forbidden", "_totals", "_pack_tricks_held", "_pack_has_bid", "_pack_shown")

    def __init__(self, encoding: WizardEncoding, options: WizardOptions, seat: Seat) -> None:
        n = options.players
        self._n = n
        self._rel = tuple((x - seat) % n for x in range(n))
        self._rotated = rotation(n, seat)
        self._base = 120 + 60 * n
        self._counts = self._base + 73 + 4 * n
        self._pack = struct.Struct(f"{n}B").pack_into
        self._pack_tricks_held = rotated_packer(n, seat, "vb")
        self._pack_has_bid = rotated_packer(n, seat, "f")
        self._pack_shown = rotated_packer(n, seat, "p")
        #: Per leader, the offset of each position of the trick in the seat's layout.
        self._trick_at = tuple(tuple(120 + 60 * ((leader + i - seat) % n) for i in range(n)) for leader in range(n))
        super().__init__(encoding, options, seat)

    def _forget(self) -> None:
        self._hand = 0
        self._played: tuple[int, ...] = ()
        self._trick: tuple[int, ...] | None = None
        self._trick_on: tuple[int, ...] = ()
        self._setup: tuple[object, ...] | None = None
        self._setup_on: tuple[int, ...] = ()
        self._lead = -1
        self._to_act: Seat | None = -1
        self._leader = -1
        self._bids: tuple[int, ...] | None = None
        self._hidden = False
        self._phase = ""
        self._forbidden = 0
        self._totals: tuple[int, ...] | None = None

    def encode(self, state: WizardState) -> npt.NDArray[np.uint8]:
        """The seat's information state in ``state``, written into ``obs``; returns ``obs``."""
        s, view = state, self._view
        hand, old = s.hands[self.seat], self._hand
        if hand != old:
            diff = hand ^ old
            if diff & (diff - 1):
                write_bit_changes(view, hand, old)
            else:  # one card played (the usual change): one byte
                i = diff.bit_length() - 1
                view[i] = hand >> i & 1
            self._hand = hand
        phase = s.phase
        if phase is not PLAYING or s.bids is not self._bids or self._phase is not PLAYING:
            self._write_round(s)
        if s.trick is not self._trick or s.played is not self._played or phase is not PLAYING:
            self._write_trick(s)
        to_act = s.to_act
        if to_act != self._to_act:
            at = self._base + 73 + self._n
            if self._to_act is not None and self._to_act >= 0:
                view[at + self._rel[self._to_act]] = 0
            if to_act is not None:
                view[at + self._rel[to_act]] = 1
            self._to_act = to_act
        return self.obs

    def _write_round(self, s: WizardState) -> None:
        """Everything but the hand, the tricks and the seat to act (outside play: on every call)."""
        if len(s.hands) != self._n:
            raise ValueError(f"this encoder is for {self._n} players, the state has {len(s.hands)}")
        phase = s.phase
        if phase is not self._phase:
            self._write_phase(phase)
        if (s.round, s.dealer, s.trump_card, s.trump, s.rounds) != self._setup:
            self._write_setup(s)
        hidden = s.options.hidden_bids and phase in (BIDDING, CHOOSING_TRUMP)
        if s.bids is not self._bids or hidden is not self._hidden:
            self._write_bids(s, hidden)
        if phase == BIDDING or self._forbidden:
            self._write_forbidden(s)
        if s.totals is not self._totals:
            totals = self._totals = s.totals
            self._pack(self._view, self._counts + 3 * self._n + 3,
                       *[255 if t >= 1550 else 0 if t < -1000 else t // 10 + 100 for t in self._rotated(totals)])
        self._trick = None  # the leader's flag and the cards held follow the phase: rewrite them next

    def _write_trick(self, s: WizardState) -> None:
        """The trick in progress, the cards of finished tricks, lead, leader, tricks won and cards held."""
        view = self._view
        played, old = s.played, self._played
        if played is not old:
            k = len(old)
            if k < len(played) and played[:k] == old:  # a trick more (the usual change): its cards only
                for card in played[k:]:
                    view[60 + card] = 1
            elif not played:  # a new round
                view[60:120] = _ZEROS_60
            else:
                for card in old:
                    view[60 + card] = 0
                for card in played:
                    view[60 + card] = 1
            self._played = played
        trick, leader = s.trick, s.leader
        for i in self._trick_on:
            view[i] = 0
        if trick:
            on = tuple(map(add, self._trick_at[leader], trick))
            for i in on:
                view[i] = 1
            self._trick_on = on
        else:
            self._trick_on = ()
        self._trick = trick
        base = self._base
        lead = s.lead
        if lead != self._lead:
            if 0 <= self._lead < 4:
                view[base + 65 + self._lead] = 0
            if 0 <= lead < 4:
                view[base + 65 + lead] = 1
            self._lead = lead
        if s.phase is not PLAYING:
            leader = -1
        if leader != self._leader:
            at = base + 73 + 2 * self._n
            if self._leader >= 0:
                view[at + self._rel[self._leader]] = 0
            if leader >= 0:
                view[at + self._rel[leader]] = 1
            self._leader = leader
        # The tricks won and the cards held, side by side: one generated store of both.
        self._pack_tricks_held(view, self._counts + self._n, s.tricks, s.hands)

    def _write_phase(self, phase: str) -> None:
        """The phase (one-hot) and the trump-choosing flag."""
        view, base = self._view, self._base
        if self._phase:
            view[base + 69 + PHASES[self._phase]] = 0
        view[base + 69 + PHASES[phase]] = 1
        view[base + 64] = phase == CHOOSING_TRUMP
        self._phase = phase

    def _write_setup(self, s: WizardState) -> None:
        """Trump card and suit, dealer, round and rounds."""
        view, base = self._view, self._base
        for i in self._setup_on:
            view[i] = 0
        on = [base + 73 + self._rel[s.dealer]]
        if s.trump_card is not None:
            on.append(base + s.trump_card)
        if s.trump >= 0:
            on.append(base + 60 + s.trump)
        for i in on:
            view[i] = 1
        counts = self._counts + 3 * self._n
        view[counts] = s.round
        view[counts + 1] = s.rounds
        self._setup_on = tuple(on)
        self._setup = (s.round, s.dealer, s.trump_card, s.trump, s.rounds)

    def _write_bids(self, s: WizardState, hidden: bool) -> None:
        """Who has bid and the bids shown (``hidden``: only the seat's own, hidden bids while bidding)."""
        view, bids, counts = self._view, s.bids, self._counts
        self._pack_has_bid(view, self._base + 73 + 3 * self._n, bids)
        if hidden:
            view[counts] = bids[self.seat] + 1
            view[counts + 1:counts + self._n] = _ZEROS_60[:self._n - 1]
        else:
            self._pack_shown(view, counts, bids)
        self._bids, self._hidden = bids, hidden

    def _write_forbidden(self, s: WizardState) -> None:
        hidden = s.options.hidden_bids and s.phase in (BIDDING, CHOOSING_TRUMP)
        forbidden = _GAME.forbidden_bid(s) if not hidden or self.seat == s.dealer else None
        value = 0 if forbidden is None else forbidden + 1
        if value != self._forbidden:
            self._view[self._counts + 3 * self._n + 2] = value
            self._forbidden = value


ENCODING: Final = WizardEncoding()
