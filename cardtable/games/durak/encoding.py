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

from typing import Final

from cardtable.cards import mask_of
from cardtable.core.encoding import ActionId, Encoding, bits
from cardtable.core.types import Seat
from cardtable.games.durak.actions import ATTACKS, BEATS, STOP, TAKE, Attack, Beat, DurakAction, Stop, Take
from cardtable.games.durak.game import DurakState
from cardtable.games.durak.options import DurakOptions
from cardtable.games.durak.rules import DECK_SIZE, RANK, beats

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
        return DurakOptions(players=state.players)

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
        """The same rules as ``legal_actions``, as id bits."""
        if state.over:
            return 0
        bout = state.bout
        if len(bout) & 1:
            if seat != state.defender:
                return 0
            last, trump = bout[-1], state.trump
            out = 1 << TAKE_ID
            for c in state.hands[seat]:
                if beats(last, c, trump):
                    out |= 1 << (BEAT_BASE + c)
            return out
        if seat != state.attacker:
            return 0
        if not bout:
            return mask_of(state.hands[seat])
        if state.capped and not state.hands[state.defender]:
            return 1 << STOP_ID
        ranks = {RANK[c] for c in bout}
        out = 1 << STOP_ID
        for c in state.hands[seat]:
            if RANK[c] in ranks:
                out |= 1 << c
        return out

    def features(self, state: DurakState, seat: Seat) -> bytes:
        """The bytes described in the module docstring."""
        n = state.players
        flags = mask_of(state.hands[seat])
        bout = state.bout
        for i, card in enumerate(bout):
            flags |= 1 << ((72 if i & 1 else 36) + card)
        if len(bout) & 1:
            flags |= 1 << (108 + bout[-1])
        flags |= 1 << (144 + state.trump_card) | 1 << (180 + state.trump)
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
        if state.capped:
            flags |= 1 << (base + 4 * n + 1)
        counts = [len(state.deck), min(state.bout_number, 255), state.discards]
        counts += [len(h) for h in state.hands[seat:] + state.hands[:seat]]
        return bits(flags, base + 4 * n + 2) + bytes(counts)


ENCODING: Final = DurakEncoding()
