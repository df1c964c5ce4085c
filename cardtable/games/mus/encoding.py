"""Mus for learning agents: ``36 + 2 * cap`` action ids and a ``uint8`` information state.

Action ids: ``Mus`` 0, ``CutMus`` 1; ``Discard`` 2–16, the id being ``1 + positions`` where bit
``i`` of ``positions`` marks the ``i``-th card of the hand as the seat holds it (so a discard id
needs the state: ``action_id(action, state)``, ``action_from_id(i, state)``); ``Pass`` 17,
``Accept`` 18, ``AcceptNoLose`` 19, ``Reject`` 20, ``Ordago`` 21, ``Signal`` 22–35 (in
``actions.SIGNALS`` order); ``Bet(a)`` is ``35 + a`` and ``Raise(a)`` ``35 + cap + a`` for
amounts 1–``cap``. The cap is the largest amount the options allow: ``betting.max_bet`` (at least
``betting.min_bet``), or the target when raises double (``raise_rule = "double"``).

The information state of seat ``me`` (seats counted from ``me``: 0 is ``me``, 2 the partner;
pairs counted from ``me``'s pair), 585 bytes. Flags first: hand (40), own pending discard (40),
the shown hands by seat (4 × 40, after a showdown), phase (15, ``fsm.Phase`` order), dealer (4),
seat to act (4), lance being bet (5: grande, chica, pares, juego, punto), betting status (6,
``fsm.BetStatus`` order), órdago on (1), bettor (4), seats to answer (4), speakers (4), pares
declared yes (4) and no (4), juego declared yes (4) and no (4), what each seat said in each
lance of this hand (5 × 4 × 7: pass, bet, raise, ordago, accept, accept_no_lose, reject), how each
lance closed (5 × 6: accepted, passed, rejected, skipped, none, ordago) and the pair it went to
(5 × 2), pairs that are in (2), señas seen (14 signals × 4 senders), the winner (2), modalidad
4R (1). Then counts (clipped at 255): envite in force, envite proposed, tanteo (2), games (2),
target, games to win, cards discarded per seat (4), mus rounds, deck size, hand number, game
number, accepted total per lance (5), the largest amount each seat named in each lance (5 × 4).
"""

from __future__ import annotations

import functools
from itertools import combinations
from typing import TYPE_CHECKING, Any, Final

from cardtable.core.encoding import ActionId, Encoder, Encoding, bits
from cardtable.core.types import Seat
from cardtable.games.mus import actions as A
from cardtable.games.mus.fsm import ACTING_PHASES, BetStatus, Phase
from cardtable.games.mus.game import MusGame
from cardtable.games.mus.legal import is_a_falta, must_accept_no_lose, signal_actions
from cardtable.games.mus.options import MusGameOptions
from cardtable.games.mus.rules import LANCES
from cardtable.games.mus.state import MusState

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

DISCARD_BASE: Final = 1
PASS_ID, ACCEPT_ID, ACCEPT_NO_LOSE_ID, REJECT_ID, ORDAGO_ID = 17, 18, 19, 20, 21
SIGNAL_BASE: Final = 22
AMOUNT_BASE: Final = SIGNAL_BASE + len(A.SIGNALS) - 1
KINDS: Final = ("pass", "bet", "raise", "ordago", "accept", "accept_no_lose", "reject")
RESULTS: Final = ("accepted", "passed", "rejected", "skipped", "none", "ordago")
SHAPE: Final = (585,)

_GAME = MusGame()
_PHASE: Final = {p: i for i, p in enumerate(Phase)}
_STATUS: Final = {b: i for i, b in enumerate(BetStatus)}
_LANCE: Final = {name: i for i, name in enumerate(LANCES)}
_KIND: Final = {name: i for i, name in enumerate(KINDS)}
_RESULT: Final = {name: i for i, name in enumerate(RESULTS)}
_SIGNAL: Final[dict[str, int]] = {name: i for i, name in enumerate(A.SIGNALS)}
_WORDS: Final[dict[type[A.MusAction], int]] = {
    A.Mus: 0, A.CutMus: 1, A.Pass: PASS_ID, A.Accept: ACCEPT_ID, A.AcceptNoLose: ACCEPT_NO_LOSE_ID,
    A.Reject: REJECT_ID, A.Ordago: ORDAGO_ID,
}
_BY_ID: Final[dict[int, A.MusAction]] = {i: cls() for cls, i in _WORDS.items()}  # type: ignore[call-arg]


def amount_cap(options: MusGameOptions) -> int:
    """The largest bet or raise amount in the action space."""
    bt = options.betting
    cap = max(bt.min_bet, bt.max_bet)
    return max(cap, options.scoring.target) if bt.raise_rule == "double" else cap


class MusEncoding(Encoding[MusState, A.MusAction, MusGameOptions]):
    """The Mus action space and information state."""

    game = "mus"

    def num_actions(self, options: MusGameOptions) -> int:
        """``36 + 2 * amount_cap(options)`` (56 with the default options)."""
        return AMOUNT_BASE + 1 + 2 * amount_cap(options)

    def shape(self, options: MusGameOptions) -> tuple[int, ...]:
        """``(585,)``."""
        return SHAPE

    def action_id(self, action: A.MusAction, state: MusState | None = None) -> ActionId:
        """See the module docstring; ``ValueError`` for anything outside the space (or a discard with no state)."""
        kind = type(action)
        if kind in _WORDS:
            return _WORDS[kind]
        if isinstance(action, A.Signal) and action.signal in _SIGNAL:
            return SIGNAL_BASE + _SIGNAL[action.signal]
        if isinstance(action, A.Discard):
            return DISCARD_BASE + self._positions(action, state)
        cap = amount_cap(state.options if state is not None else MusGameOptions())
        if isinstance(action, A.Bet) and 1 <= action.amount <= cap:
            return AMOUNT_BASE + action.amount
        if isinstance(action, A.Raise) and 1 <= action.amount <= cap:
            return AMOUNT_BASE + cap + action.amount
        raise ValueError(f"{action!r} is not in the Mus action space")

    def _positions(self, action: A.Discard, state: MusState | None) -> int:
        """The discard as a bitmask of positions in the hand of the seat to act."""
        if state is None or state.turn is None:
            raise ValueError(f"the id of {action!r} depends on the hand: pass the state")
        hand = state.hands[state.turn]
        positions = 0
        for card in action.cards:
            if card not in hand:
                raise ValueError(f"{action!r} discards a card the seat to act does not hold")
            positions |= 1 << hand.index(card)
        if not positions or positions.bit_count() != len(action.cards):
            raise ValueError(f"{action!r} is not in the Mus action space")
        return positions

    def action_from_id(self, action_id: ActionId, state: MusState | None = None) -> A.MusAction:
        """The action with this id; ``ValueError`` outside the space, or for a discard id with no state."""
        options = state.options if state is not None else MusGameOptions()
        i = self.check_id(action_id, options)
        if i in _BY_ID:
            return _BY_ID[i]
        if i < PASS_ID:
            if state is None or state.turn is None:
                raise ValueError(f"action id {i} is a discard, which depends on the hand: pass the state")
            hand = state.hands[state.turn]
            positions = i - DISCARD_BASE
            if positions >> len(hand):
                raise ValueError(f"action id {i} discards more cards than the hand holds")
            return A.Discard(tuple(c for k, c in enumerate(hand) if positions >> k & 1))
        if i < AMOUNT_BASE + 1:
            return A.Signal(A.SIGNALS[i - SIGNAL_BASE])
        cap = amount_cap(options)
        amount = i - AMOUNT_BASE
        return A.Bet(amount) if amount <= cap else A.Raise(amount - cap)

    def legal_bits(self, state: MusState, seat: Seat) -> int:
        """The legal actions' ids, found as the game finds the actions but without building them.

        ``tests/rl`` checks at every decision of many games that these are exactly the ids of
        ``legal_actions``.
        """
        if seat != state.turn or state.phase not in ACTING_PHASES:
            return 0
        options = state.options
        phase = state.phase
        if phase is Phase.MUS_DECISION:
            out = 0b11 if state.mus_rounds < options.mus.max_rounds else 0b10
        elif phase is Phase.DISCARD:
            out = _discard_ids(len(state.hands[seat]), options.mus.min_discard)
            if options.mus.cut_anytime_a_falta and is_a_falta(state):
                out |= 1 << 1
        else:
            out = self._betting_bits(state, seat, options)
        if options.signals.enabled:
            for action in signal_actions(state, seat):
                out |= 1 << (SIGNAL_BASE + _SIGNAL[action.signal])  # type: ignore[union-attr]
        return out

    def _betting_bits(self, state: MusState, seat: Seat, options: MusGameOptions) -> int:
        """``legal.betting_actions`` as id bits: bets and raises are runs of consecutive ids."""
        b = state.betting
        assert b is not None
        bt = options.betting
        low = bt.min_bet
        matter = _GAME.tantos_that_matter(state)
        cap = max(low, min(bt.max_bet, matter))
        if b.status is BetStatus.OPEN:  # pass, every bet from low to cap, órdago
            return 1 << PASS_ID | ((1 << (cap - low + 1)) - 1) << (AMOUNT_BASE + low) | 1 << ORDAGO_ID
        out = (1 << ACCEPT_NO_LOSE_ID if must_accept_no_lose(state, seat) else 1 << ACCEPT_ID) | 1 << REJECT_ID
        if not b.ordago:
            if b.total < matter:
                first, last = (b.total, b.total) if bt.raise_rule == "double" else (low, cap)
                out |= ((1 << (last - first + 1)) - 1) << (AMOUNT_BASE + _space_cap(options) + first)
            out |= 1 << ORDAGO_ID
        return out

    def features(self, state: MusState, seat: Seat) -> bytes:
        """The bytes described in the module docstring."""
        s = state
        flags = (_cards(s, seat) | _table(s, seat) << 240 | _declared(s, seat) | _envites(s, seat)[0]
                 | _results(s, seat)[0] | _misc(s, seat))
        counts = _counts(s, seat) + _results(s, seat)[1] + _envites(s, seat)[1]
        return bits(flags, 544) + bytes([c if c < 255 else 255 for c in counts])

    def action_table(self, options: MusGameOptions) -> tuple[A.MusAction | None, ...]:
        """Per id, its action under these options (bets and raises depend on the cap); None for discards."""
        cap = amount_cap(options)
        table: list[A.MusAction | None] = [None] * self.num_actions(options)
        for i, action in _BY_ID.items():
            table[i] = action
        for k, name in enumerate(A.SIGNALS):
            table[SIGNAL_BASE + k] = A.Signal(name)
        for amount in range(1, cap + 1):
            table[AMOUNT_BASE + amount] = A.Bet(amount)
            table[AMOUNT_BASE + cap + amount] = A.Raise(amount)
        return tuple(table)

    def encoder(self, options: MusGameOptions, seat: Seat) -> MusEncoder:
        """The incremental encoder of ``seat`` (see :class:`cardtable.core.encoding.Encoder`)."""
        return MusEncoder(self, options, seat)


#: Action ids by ``id(action)`` (the engine hands out cached action objects), with the action
#: itself (so the id of a dead object is never trusted) and the options the id depends on.
_CAPS: dict[int, tuple[MusGameOptions, int]] = {}


def _space_cap(options: MusGameOptions) -> int:
    """``amount_cap(options)``, remembered by the identity of the options (kept alive in the entry)."""
    entry = _CAPS.get(id(options))
    if entry is None or entry[0] is not options:
        if len(_CAPS) > 64:
            _CAPS.clear()
        entry = _CAPS[id(options)] = (options, amount_cap(options))
    return entry[1]


@functools.cache
def _discard_ids(size: int, least: int) -> int:
    """The ids of every discard of ``least`` to four of a hand of ``size`` cards."""
    out = 0
    for n in range(least, 5):
        for positions in combinations(range(size), n):
            out |= 1 << (DISCARD_BASE + sum(1 << k for k in positions))
    return out


# Sections of the information state, each its flags in absolute bit positions (and counts).

def _cards(s: MusState, seat: Seat) -> int:
    """Hand, pending discard and the hands shown (bits 0–239)."""
    flags = _mask(s.hands[seat]) | _mask(s.pending[seat] or ()) << 40
    if s.shown:
        for k in range(4):
            flags |= _mask(s.hands[(seat + k) & 3]) << (80 + 40 * k)
    return flags


def _table(s: MusState, seat: Seat) -> int:
    """Phase, dealer, seat to act and the betting of the lance in play (bits 240–286, here from bit 0).

    Counted from bit 0, every flag is a small int (a shift past 62 bits makes a big int, slower).
    """
    flags = 1 << _PHASE[s.phase] | 1 << (15 + ((s.dealer - seat) & 3))
    if s.phase in ACTING_PHASES and s.turn is not None:
        flags |= 1 << (19 + ((s.turn - seat) & 3))
    b = s.betting
    if b is not None:
        flags |= 1 << (23 + _LANCE[b.lance]) | 1 << (28 + _STATUS[b.status])
        if b.ordago:
            flags |= 1 << 34
        if b.bettor is not None:
            flags |= 1 << (35 + ((b.bettor - seat) & 3))
        for x in b.responders:
            flags |= 1 << (39 + ((x - seat) & 3))
        for x in b.speakers:
            flags |= 1 << (43 + ((x - seat) & 3))
    return flags


def _declared(s: MusState, seat: Seat) -> int:
    """Pares and juego declared yes or no per seat (bits 287–302)."""
    flags = 0
    for k in range(4):
        pares, juego = s.declared_pares[(seat + k) & 3], s.declared_juego[(seat + k) & 3]
        if pares is not None:
            flags |= 1 << ((287 if pares else 291) + k)
        if juego is not None:
            flags |= 1 << ((295 if juego else 299) + k)
    return flags


def _envites(s: MusState, seat: Seat) -> tuple[int, list[int]]:
    """What each seat said in each lance (bits 303–442) and the largest amount it named (20 counts)."""
    flags = 0
    named = [0] * 20
    for e in s.envites:
        lance, rel = _LANCE[e.lance], (e.seat - seat) & 3
        flags |= 1 << (303 + 28 * lance + 7 * rel + _KIND[e.kind])
        named[4 * lance + rel] = max(named[4 * lance + rel], e.amount)
    return flags, named


def _results(s: MusState, seat: Seat) -> tuple[int, list[int]]:
    """How each lance closed and to which pair (bits 443–482), and its accepted total (5 counts)."""
    flags = 0
    totals = [0] * 5
    for r in s.results:
        lance = _LANCE[r.lance]
        flags |= 1 << (443 + 6 * lance + _RESULT[r.status])
        if r.pair is not None:
            flags |= 1 << (473 + 2 * lance + ((r.pair - seat) & 1))
        totals[lance] = r.total
    return flags, totals


def _misc(s: MusState, seat: Seat) -> int:
    """Pairs in, señas seen, the winner and the modalidad (bits 483–543)."""
    flags = 0
    side = seat & 1
    if s.team_in[side]:
        flags |= 1 << 483
    if s.team_in[1 - side]:
        flags |= 1 << 484
    for note in s.signals_seen[seat]:
        flags |= 1 << (485 + 4 * _SIGNAL[note.signal] + ((note.sender - seat) & 3))
    if s.winner is not None:
        flags |= 1 << (541 + ((s.winner - seat) & 1))
    if s.options.modalidad == "4R":
        flags |= 1 << 543
    return flags


def _counts(s: MusState, seat: Seat) -> list[int]:
    """The first 16 counts: envites, tanteo, games, target, discards, rounds, deck, hand and game numbers."""
    return _bet_counts(s) + _table_counts(s, seat)


def _bet_counts(s: MusState) -> list[int]:
    """The envite in force and the envite proposed (the first two counts)."""
    b = s.betting
    return [0, 0] if b is None else [b.before if b.status is BetStatus.PENDING else b.total, b.total]


def _table_counts(s: MusState, seat: Seat) -> list[int]:
    """The other 14 of the first 16 counts: tanteo, games, target, discards, rounds, deck, hand and game numbers."""
    side = seat & 1
    counts = [s.tanteo[side], s.tanteo[1 - side], s.games[side], s.games[1 - side],
              s.options.scoring.target, s.options.match.games_to_win]
    counts += s.discard_counts[seat:] + s.discard_counts[:seat]
    counts += (s.mus_rounds, len(s.deck), s.hand_no, s.game_no)
    return counts


def _mask(cards: tuple[int, ...]) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


def _clip(counts: list[int]) -> bytes:
    return bytes([c if c < 255 else 255 for c in counts])


class MusEncoder(Encoder[MusState]):
    """``MusEncoding.features`` for one seat: each section rewritten only when the fields it reads changed."""

    __slots__ = ("_cards", "_table", "_declared", "_envites", "_named", "_results", "_misc",
                 "_betting", "_counts")

    def _forget(self) -> None:
        self._cards: tuple[object, ...] | None = None
        self._table: tuple[object, ...] | None = None
        self._betting: object = False  # never a state's betting (None or a record)
        self._declared: tuple[object, ...] | None = None
        self._envites: tuple[Any, ...] = ()
        self._named = [0] * 20
        self._results: object = None
        self._misc: tuple[object, ...] | None = None
        self._counts: tuple[object, ...] | None = None

    def encode(self, state: MusState) -> npt.NDArray[np.uint8]:
        """The seat's information state in ``state``, written into ``obs``; returns ``obs``."""
        s, view, seat = state, self._view, self.seat
        key: tuple[object, ...] = (s.hands, s.pending, s.shown)
        if key != self._cards:
            view[0:240] = bits(_cards(s, seat), 240)
            self._cards = key
        key = (s.phase, s.dealer, s.turn, s.betting)
        if key != self._table:
            view[240:287] = bits(_table(s, seat), 47)
            self._table = key
        key = (s.declared_pares, s.declared_juego)
        if key != self._declared:
            view[287:303] = bits(_declared(s, seat) >> 287, 16)
            self._declared = key
        if s.envites is not self._envites:
            self._write_envites(s.envites)
        if s.results is not self._results:
            flags, totals = _results(s, seat)
            view[443:483] = bits(flags >> 443, 40)
            view[560:565] = _clip(totals)
            self._results = s.results
        key = (s.team_in, s.signals_seen[seat], s.winner, s.options)
        if key != self._misc:
            view[483:544] = bits(_misc(s, seat) >> 483, 61)
            self._misc = key
        if s.betting is not self._betting:
            view[544:546] = _clip(_bet_counts(s))
            self._betting = s.betting
        key = (s.tanteo, s.games, s.discard_counts, s.mus_rounds, s.deck, s.hand_no, s.game_no, s.options)
        if key != self._counts:
            view[546:560] = _clip(_table_counts(s, seat))
            self._counts = key
        return self.obs

    def _write_envites(self, envites: tuple[Any, ...]) -> None:
        """What each seat said: usually one more envite than last time, so only it is written."""
        view, seat, old = self._view, self.seat, self._envites
        k = len(old)
        if not (old and len(envites) > k and envites[:k] == old):
            k = 0
            view[303:443] = bytes(140)
            view[565:585] = bytes(20)
            self._named = [0] * 20
        named = self._named
        for e in envites[k:]:
            lance, rel = _LANCE[e.lance], (e.seat - seat) & 3
            view[303 + 28 * lance + 7 * rel + _KIND[e.kind]] = 1
            if e.amount > named[4 * lance + rel]:
                named[4 * lance + rel] = e.amount
                view[565 + 4 * lance + rel] = min(e.amount, 255)
        self._envites = envites


ENCODING: Final = MusEncoding()
