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

from typing import Final

from cardtable.core.encoding import ActionId, Encoding, bits
from cardtable.core.types import Seat
from cardtable.games.wizard import rules
from cardtable.games.wizard.actions import Bid, ChooseTrump, Play, WizardAction
from cardtable.games.wizard.game import INFO, WizardGame
from cardtable.games.wizard.options import WizardOptions
from cardtable.games.wizard.state import BIDDING, CHOOSING_TRUMP, PLAYING, WizardState

CARDS: Final = rules.DECK_SIZE
BID_BASE: Final = 60
MAX_BID: Final = rules.DECK_SIZE // rules.MIN_PLAYERS
TRUMP_BASE: Final = BID_BASE + MAX_BID + 1
NUM_ACTIONS: Final = TRUMP_BASE + 4
PHASES: Final = {CHOOSING_TRUMP: 0, BIDDING: 1, PLAYING: 2, "finished": 3}

_GAME = WizardGame()
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


ENCODING: Final = WizardEncoding()
