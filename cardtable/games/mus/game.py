"""The Mus engine on the shared protocol: dealing, mus, discards, lances, envites and tanteo.

Seats: pair A = {0, 2}, pair B = {1, 3}. Seat numbers grow counter-clockwise:
each seat's right-hand neighbour is ``seat + 1``. So the mano (the dealer's
right) is ``dealer + 1``, the cards go out one at a time mano, mano + 1, …,
dealer, and every turn passes to ``seat + 1`` (FEM III.2, VIII.8).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import combinations, pairwise
from pathlib import Path
from typing import Any

from cardtable.cards import SPANISH_40
from cardtable.core import Event, Game, GameInfo, InvalidOptions, Outcome
from cardtable.core.fast import TrustedActions, constructor
from cardtable.core.rng import Seed, chance, randrange, seeded, shuffled
from cardtable.core.search import SearchHints
from cardtable.games.mus import actions as A
from cardtable.games.mus import events as E
from cardtable.games.mus.fsm import ACTING_PHASES, LANCE_PHASES, BetStatus, Phase, bet_transition, transition
from cardtable.games.mus.observation import (
    BettingView,
    EnviteView,
    LanceResultView,
    MusObservation,
    SignalView,
)
from cardtable.games.mus.options import MusGameOptions, load_toml
from cardtable.games.mus.rules import (
    DUPLES,
    MEDIAS,
    PAR,
    HandValue,
    Lance,
    best_seat,
    evaluate,
    holds,
)
from cardtable.games.mus.signals import signal_fits, signal_phase_ok
from cardtable.games.mus.state import Betting, Envite, LanceResult, MusState, SignalNote, pair_of

ALL_CARDS = frozenset(range(40))
BETTING_ACTIONS = (A.Pass, A.Bet, A.Raise, A.Accept, A.AcceptNoLose, A.Reject, A.Ordago)

# Action objects are immutable: built once, handed out by every ``legal_actions``.
_MUS, _CUT, _PASS, _ORDAGO = A.Mus(), A.CutMus(), A.Pass(), A.Ordago()
_ACCEPT, _ACCEPT_NO_LOSE, _REJECT = A.Accept(), A.AcceptNoLose(), A.Reject()
_MUS_OR_CUT: tuple[A.MusAction, ...] = (_MUS, _CUT)
_CUT_ONLY: tuple[A.MusAction, ...] = (_CUT,)
_OPEN: dict[tuple[int, int], tuple[A.MusAction, ...]] = {}
_RAISES: dict[tuple[int, int], tuple[A.MusAction, ...]] = {}
# Events, built without the frozen dataclass __init__ (core.fast: the very same objects).
_passed = constructor(E.Passed)
_envite_made = constructor(E.EnviteMade)
_answered = constructor(E.Answered)
_mus_said = constructor(E.MusSaid)
_lance_closed = constructor(E.LanceClosed)
_lance_started = constructor(E.LanceStarted)
_declared = constructor(E.Declared)
_tantos_scored = constructor(E.TantosScored)
_mus_cut = constructor(E.MusCut)
_discarded = constructor(E.Discarded)
_hand_dealt = constructor(E.HandDealt)
_cards_dealt = constructor(E.CardsDealt)
_hands_shown = constructor(E.HandsShown)
_lance_skipped = constructor(E.LanceSkipped)
_cards_replaced = constructor(E.CardsReplaced)
# This engine's own cached actions: checked at the edge once, here, not on every apply.
_TRUSTED = TrustedActions()
_TRUSTED_IDS = _TRUSTED.ids
_TRUSTED.add(_MUS, _CUT, _PASS, _ORDAGO, _ACCEPT, _ACCEPT_NO_LOSE, _REJECT)


def _open_actions(low: int, cap: int) -> tuple[A.MusAction, ...]:
    """Pass, every bet from ``low`` to ``cap``, órdago: built once per (low, cap)."""
    out = _OPEN.get((low, cap))
    if out is None:
        out = _OPEN[low, cap] = (_PASS, *(A.Bet(n) for n in range(low, cap + 1)), _ORDAGO)
        _TRUSTED.add(*out)  # kept in _OPEN for good
    return out


def _raise_actions(low: int, cap: int) -> tuple[A.MusAction, ...]:
    """Every raise from ``low`` to ``cap`` (``low == cap`` for the doubling rule): built once."""
    out = _RAISES.get((low, cap))
    if out is None:
        out = _RAISES[low, cap] = tuple(A.Raise(n) for n in range(low, cap + 1))
        _TRUSTED.add(*out)  # kept in _RAISES for good
    return out

DESCRIPTION = (
    "Mus under the rules of the Federación Española de Mus: four players in two pairs, "
    "the mus and the discards, then grande, chica, pares and juego (or punto), with envites and órdago."
)


_ALL_CARDS = tuple(range(40))


class MusGame(Game[MusState, A.MusAction, MusObservation, MusGameOptions]):
    """Mus (FEM), four players in two pairs."""

    info = GameInfo(
        name="mus",
        title="Mus",
        description=DESCRIPTION,
        min_players=4,
        max_players=4,
        options_type=MusGameOptions,
        action_types=A.ACTION_TYPES,
        event_types=E.EVENT_TYPES,
        observation_type=MusObservation,
        deck=SPANISH_40,
        hidden_information=True,
        has_teams=True,
        presets={
            "senas": {"signals": {"enabled": True}},
            "a_cinco_juegos": {"match": {"games_to_win": 3}},
            "corto": {"scoring": {"target": 15}},
        },
    )
    trusted_ids = _TRUSTED_IDS

    # Setup.

    def check_options(self, options: MusGameOptions) -> None:
        """Cross-field checks: positive values (so every hand scores), sane bounds."""
        super().check_options(options)
        sc, bt = options.scoring, options.betting
        positive = {"scoring.target": sc.target, "scoring.negada": sc.negada,
                    "scoring.grande_en_paso": sc.grande_en_paso, "scoring.chica_en_paso": sc.chica_en_paso,
                    "scoring.par": sc.par, "scoring.medias": sc.medias, "scoring.duples": sc.duples,
                    "scoring.juego_31": sc.juego_31, "scoring.juego_otro": sc.juego_otro,
                    "scoring.punto": sc.punto, "betting.min_bet": bt.min_bet,
                    "match.games_to_win": options.match.games_to_win}
        for name, value in positive.items():
            if value < 1:
                raise InvalidOptions(f"option {name!r} must be at least 1, not {value}")
        if bt.max_bet < bt.min_bet:
            raise InvalidOptions("option 'betting.max_bet' must be at least 'betting.min_bet'")
        if not 1 <= options.mus.min_discard <= 4:
            raise InvalidOptions("option 'mus.min_discard' must be 1 to 4")
        if options.mus.max_rounds < 0 or sc.team_is_in_margin < 0:
            raise InvalidOptions("'mus.max_rounds' and 'scoring.team_is_in_margin' may not be negative")
        if not 0.0 <= options.signals.interception_p <= 1.0:
            raise InvalidOptions("option 'signals.interception_p' must be between 0 and 1")

    def options_from_toml(self, source: str | Path, **overrides: Any) -> MusGameOptions:
        """Options from a TOML file path or TOML text (keys as in ``rules.default.toml``)."""
        return self.options(load_toml(source), **overrides)

    def new(self, options: MusGameOptions, seed: Seed) -> tuple[MusState, list[Event]]:
        """Draw the first dealer by lot (FEM III.1) and deal the first hand."""
        dealer, rng = randrange(seeded(seed), 4)
        state = MusState(options, rng, dealer)
        events: list[Event] = [E.GameStarted(1, dealer, options.scoring.target)]
        self._update_team_in(state, events)
        self._deal(state, events)
        return state, events

    # Flow.

    def to_act(self, state: MusState) -> int | None:
        """The seat to speak, discard or answer; None once the game is over."""
        return state.turn if state.phase in ACTING_PHASES else None

    def players(self, state: MusState) -> int:
        """Always four."""
        return 4

    def teams(self, options: MusGameOptions) -> tuple[tuple[int, ...], ...]:
        """Pair A = seats 0 and 2, pair B = seats 1 and 3 (FEM II.1–2)."""
        return ((0, 2), (1, 3))

    def max_actions(self, options: MusGameOptions) -> int:
        """A bound: every hand scores at least one tanto, and mus rounds and raises are bounded."""
        sc = options.scoring
        raises = sc.target // options.betting.min_bet + 2
        per_lance = 4 + 3 * (raises + 3)
        signals = 4 * len(A.SIGNALS) if options.signals.enabled else 0
        per_hand = (options.mus.max_rounds + 1) * 8 + 4 * per_lance + signals
        return (2 * options.match.games_to_win - 1) * 2 * sc.target * per_hand

    def legal_actions(self, state: MusState, seat: int) -> list[A.MusAction]:
        """Every legal action, in a fixed order: the phase's actions, then señas."""
        if seat != state.turn or state.phase not in ACTING_PHASES:
            return []
        phase = state.phase
        out: list[A.MusAction]
        if phase is Phase.MUS_DECISION:
            out = list(_MUS_OR_CUT if state.mus_rounds < state.options.mus.max_rounds else _CUT_ONLY)
        elif phase is Phase.DISCARD:
            out = self._discard_actions(state, seat)
        else:
            out = self._betting_actions(state, seat)
        if state.options.signals.enabled:
            out.extend(self._signal_actions(state, seat))
        return out

    def _discard_actions(self, state: MusState, seat: int) -> list[A.MusAction]:
        hand = state.hands[seat]
        out: list[A.MusAction] = [
            A.Discard(cards) for n in range(state.options.mus.min_discard, 5) for cards in combinations(hand, n)
        ]
        if self.is_a_falta(state) and state.options.mus.cut_anytime_a_falta:
            out.append(_CUT)
        return out

    def _betting_actions(self, state: MusState, seat: int) -> list[A.MusAction]:
        b = state.betting
        assert b is not None
        bt = state.options.betting
        low = bt.min_bet
        matter = self.tantos_that_matter(state)
        cap = max(low, min(bt.max_bet, matter))  # bet_cap, inlined: this is the hot path
        if b.status is BetStatus.OPEN:
            return list(_open_actions(low, cap))
        out: list[A.MusAction] = [_ACCEPT_NO_LOSE if self.must_accept_no_lose(state, seat) else _ACCEPT,
                                  _REJECT]
        if not b.ordago:
            if b.total < matter:
                if bt.raise_rule == "double":
                    out.extend(_raise_actions(b.total, b.total))
                else:
                    out.extend(_raise_actions(low, cap))
            out.append(_ORDAGO)
        return out

    def _signal_actions(self, state: MusState, seat: int) -> list[A.MusAction]:
        value = evaluate(state.hands[seat], state.options.modalidad)
        return [A.Signal(name) for name in A.SIGNALS
                if (seat, name) not in state.signals_used and signal_phase_ok(name, state.phase)
                and signal_fits(name, value)]

    def tantos_that_matter(self, state: MusState) -> int:
        """The most tantos either pair still needs: bets beyond that change nothing."""
        a, b = state.tanteo
        return state.options.scoring.target - (a if a < b else b)

    def bet_cap(self, state: MusState) -> int:
        """The largest envite or raise offered now."""
        bt = state.options.betting
        return max(bt.min_bet, min(bt.max_bet, self.tantos_that_matter(state)))

    def must_accept_no_lose(self, state: MusState, seat: int) -> bool:
        """FEM VI.9: the postre holding 33 answering an órdago a juego may only say "quiero y no pierdo"."""
        b = state.betting
        return (b is not None and b.ordago and b.lance == "juego" and seat == state.dealer
                and evaluate(state.hands[seat], state.options.modalidad).total == 33)

    def is_a_falta(self, state: MusState) -> bool:
        """"A falta de tanto" (FEM IV.7): some pair is within the margin of the target."""
        return any(state.team_in)

    def action_templates(self, state: MusState, seat: int) -> list[A.ActionTemplate]:
        """The legal actions as parametrised templates (``bet(2..10)``, ``discard(1..4)``) for UIs and bots."""
        out: list[A.ActionTemplate] = []
        for action in self.legal_actions(state, seat):
            if isinstance(action, (A.Bet, A.Raise)):
                kind = action.TYPE
                if not out or out[-1].kind != kind:
                    out.append(A.ActionTemplate(kind, action.amount, action.amount))
                else:
                    out[-1] = replace(out[-1], max=action.amount)
            elif isinstance(action, A.Discard):
                if not out or out[-1].kind != "discard":
                    out.append(A.ActionTemplate("discard", state.options.mus.min_discard, 4))
            elif isinstance(action, A.Signal):
                out.append(A.ActionTemplate(f"signal:{action.signal}"))
            else:
                out.append(A.ActionTemplate(action.TYPE))
        return out

    # Validation.

    def why_illegal_now(self, state: MusState, seat: int, action: A.MusAction) -> str | None:
        """Why the well-formed ``action`` is illegal now (None if legal), without building the legal list."""
        turn = self.to_act(state)
        if turn is None:
            return "the game is over"
        if seat != turn:
            return f"it is seat {turn}'s turn, not seat {seat}'s"
        if self._is_legal(state, seat, action):
            return None
        return self._explain(state, seat, action)

    def validate(self, state: MusState, seat: int, action: A.MusAction) -> str | None:
        """None if ``action`` by ``seat`` is legal; otherwise the reason, citing the rule (``why_illegal``)."""
        return self.why_illegal(state, seat, action)

    def _is_legal(self, state: MusState, seat: int, action: A.MusAction) -> bool:
        """The test ``legal_actions`` makes, for one action of the seat to act."""
        if isinstance(action, A.Signal):
            return (state.options.signals.enabled and (seat, action.signal) not in state.signals_used
                    and signal_phase_ok(action.signal, state.phase)
                    and signal_fits(action.signal, evaluate(state.hands[seat], state.options.modalidad)))
        phase = state.phase
        if phase is Phase.MUS_DECISION:
            return isinstance(action, A.CutMus) or (
                isinstance(action, A.Mus) and state.mus_rounds < state.options.mus.max_rounds)
        if phase is Phase.DISCARD:
            if isinstance(action, A.Discard):
                cards, hand = action.cards, state.hands[seat]
                return (state.options.mus.min_discard <= len(cards) <= 4
                        and all(a < b for a, b in pairwise(cards)) and all(c in hand for c in cards))
            return (isinstance(action, A.CutMus) and self.is_a_falta(state)
                    and state.options.mus.cut_anytime_a_falta)
        return self._is_legal_bet(state, seat, action)

    def _is_legal_bet(self, state: MusState, seat: int, action: A.MusAction) -> bool:
        """The betting part of ``_is_legal``: the envite is open, or pending an answer."""
        b = state.betting
        assert b is not None
        low, cap = state.options.betting.min_bet, self.bet_cap(state)
        if b.status is BetStatus.OPEN:
            return isinstance(action, (A.Pass, A.Ordago)) or (isinstance(action, A.Bet) and low <= action.amount <= cap)
        if isinstance(action, A.Reject):
            return True
        if isinstance(action, (A.Accept, A.AcceptNoLose)):
            return isinstance(action, A.AcceptNoLose) == self.must_accept_no_lose(state, seat)
        if b.ordago:
            return False
        if isinstance(action, A.Ordago):
            return True
        if isinstance(action, A.Raise) and b.total < self.tantos_that_matter(state):
            if state.options.betting.raise_rule == "double":
                return action.amount == b.total
            return low <= action.amount <= cap
        return False

    def _explain(self, state: MusState, seat: int, action: A.MusAction) -> str:
        if isinstance(action, A.Signal):
            return self._explain_signal(state, seat, action)
        if state.phase is Phase.MUS_DECISION:
            if isinstance(action, A.Mus):
                return f"the mus must be cut after {state.options.mus.max_rounds} rounds"
            return "first give mus or cut it (FEM IV.4)"
        if state.phase is Phase.DISCARD:
            return self._explain_discard(state, seat, action)
        return self._explain_betting(state, seat, action)

    def _explain_signal(self, state: MusState, seat: int, action: A.Signal) -> str:
        if not state.options.signals.enabled:
            return "señas are disabled (signals.enabled = false)"
        if (seat, action.signal) in state.signals_used:
            return "each seña once per hand"
        if not signal_phase_ok(action.signal, state.phase):
            return f"the seña {action.signal} is not allowed in {state.phase.value} (FEM VIII.3, VIII.6)"
        return f"your cards are not {action.signal.replace('_', ' ')}: no lying with señas (FEM VIII.4-5)"

    def _explain_discard(self, state: MusState, seat: int, action: A.MusAction) -> str:
        if isinstance(action, A.CutMus):
            return "the mus may be cut during the discards only 'a falta de tanto' (FEM IV.7)"
        if not isinstance(action, A.Discard):
            return "everybody gave mus: discard 1 to 4 cards (FEM III.11)"
        missing = [c for c in action.cards if c not in state.hands[seat]]
        if missing:
            return f"you do not hold {SPANISH_40.format(missing)}"
        return f"discard {state.options.mus.min_discard} to 4 distinct cards, in ascending id order"

    def _explain_betting(self, state: MusState, seat: int, action: A.MusAction) -> str:
        b = state.betting
        assert b is not None
        if isinstance(action, (A.Mus, A.CutMus, A.Discard)):
            return "the mus is over: the lances are being played"
        if b.status is BetStatus.OPEN:
            if isinstance(action, (A.Accept, A.AcceptNoLose, A.Reject, A.Raise)):
                return "there is no envite to answer or raise: pass, bet or órdago"
            return f"envites go from {state.options.betting.min_bet} to {self.bet_cap(state)} now (or órdago)"
        if isinstance(action, A.Accept) and self.must_accept_no_lose(state, seat):
            return "the postre holding 33 may only accept an órdago a juego with 'quiero y no pierdo' (FEM VI.9)"
        if isinstance(action, A.AcceptNoLose):
            return "'quiero y no pierdo' is only for the postre holding 33 against an órdago a juego (FEM VI.10)"
        if isinstance(action, (A.Pass, A.Bet)):
            return "an envite is pending: accept, reject, raise or órdago (FEM VI.2)"
        if b.ordago:
            return "an órdago is pending: accept or reject it (FEM IV.6)"
        return f"raises go from {state.options.betting.min_bet} to {self.bet_cap(state)} now ({b.total} in play)"

    # Apply.

    def apply_unchecked(self, state: MusState, seat: int, action: A.MusAction) -> tuple[MusState, list[Event]]:
        """Apply a legal action: a copy of the state is changed, never the input."""
        s = state.copy()
        events: list[Event] = []
        if isinstance(action, A.Signal):
            self._on_signal(s, seat, action, events)
        elif s.phase is Phase.MUS_DECISION:
            self._on_mus(s, seat, action, events)
        elif s.phase is Phase.DISCARD:
            self._on_discard(s, seat, action, events)
        else:
            self._on_lance(s, seat, action, events)
        return s, events

    # Dealing, mus and discards.

    def _deal(self, s: MusState, events: list[Event]) -> None:
        """Shuffle and deal 4 cards each, one at a time, counter-clockwise from the mano (FEM III.2)."""
        cards, s.rng = shuffled(s.rng, _ALL_CARDS)
        order = s.order()
        hands: list[list[int]] = [[], [], [], []]
        for i in range(16):
            hands[order[i % 4]].append(cards[i])
        s.hands = tuple(tuple(sorted(h)) for h in hands)
        s.deck, s.discards = tuple(cards[16:]), ()
        s.hand_no += 1
        s.mus_rounds, s.mus_count = 0, 0
        s.pending, s.discard_counts = (None, None, None, None), (0, 0, 0, 0)
        s.betting, s.results, s.envites, s.shown = None, (), (), False
        s.declared_pares = s.declared_juego = (None, None, None, None)
        s.signals_used, s.signals_seen = frozenset(), ((), (), (), ())
        events.append(_hand_dealt(s.hand_no, s.dealer, s.mano))
        events.extend(_cards_dealt(seat, s.hands[seat]) for seat in order)
        s.phase = transition(s.phase, Phase.MUS_DECISION)
        s.turn = s.mano

    def _on_mus(self, s: MusState, seat: int, action: A.MusAction, events: list[Event]) -> None:
        if isinstance(action, A.CutMus):
            events.append(_mus_cut(seat))
            self._start_lance(s, "grande", events)
            return
        events.append(_mus_said(seat))
        s.mus_count += 1
        if s.mus_count < 4:
            s.turn = (seat + 1) % 4
            return
        s.phase = transition(s.phase, Phase.DISCARD)
        s.pending = (None, None, None, None)
        s.turn = s.mano

    def _on_discard(self, s: MusState, seat: int, action: A.MusAction, events: list[Event]) -> None:
        if isinstance(action, A.CutMus):
            # A falta de tanto (FEM IV.7): the cut cancels the discards announced so far.
            events.append(_mus_cut(seat))
            s.pending = (None, None, None, None)
            self._start_lance(s, "grande", events)
            return
        assert isinstance(action, A.Discard)
        pending = list(s.pending)
        pending[seat] = action.cards
        s.pending = tuple(pending)
        events.append(_discarded(seat, len(action.cards)))
        if any(p is None for p in pending):
            s.turn = (seat + 1) % 4
        else:
            self._replace_cards(s, events)

    def _replace_cards(self, s: MusState, events: list[Event]) -> None:
        """Everybody discarded: replace from the deck, reshuffling the discards if it runs out (FEM III.15)."""
        hands = [list(h) for h in s.hands]
        pile, deck = list(s.discards), list(s.deck)
        order = s.order()
        for seat in order:
            out = s.pending[seat] or ()
            hands[seat] = [c for c in hands[seat] if c not in out]
            pile.extend(out)
        for seat in order:
            out = s.pending[seat] or ()
            drawn: list[int] = []
            for _ in out:
                if not deck:
                    deck, s.rng = shuffled(s.rng, pile)
                    pile = []
                    events.append(E.DeckReshuffled(len(deck)))
                drawn.append(deck.pop(0))
            hands[seat] = sorted(hands[seat] + drawn)
            events.append(_cards_replaced(seat, out, tuple(drawn)))
        s.hands, s.deck, s.discards = tuple(tuple(h) for h in hands), tuple(deck), tuple(pile)
        s.discard_counts = tuple(len(p or ()) for p in s.pending)
        s.pending = (None, None, None, None)
        s.mus_rounds += 1
        s.mus_count = 0
        s.phase = transition(s.phase, Phase.MUS_DECISION)
        s.turn = s.mano

    # Señas.

    def _on_signal(self, s: MusState, seat: int, action: A.Signal, events: list[Event]) -> None:
        """The partner sees the seña; each rival too with probability ``interception_p`` (same RNG, same replay)."""
        s.signals_used = s.signals_used | {(seat, action.signal)}
        seen = list(s.signals_seen)
        watchers = [((seat + 2) % 4, False)]
        for rival in ((seat + 1) % 4, (seat + 3) % 4):
            intercepted, s.rng = chance(s.rng, s.options.signals.interception_p)
            if intercepted:
                watchers.append((rival, True))
        for watcher, intercepted in watchers:
            seen[watcher] = seen[watcher] + (SignalNote(seat, action.signal, intercepted),)
            events.append(E.SignalSeen(watcher, seat, action.signal, intercepted))
        s.signals_seen = tuple(seen)

    # Lances and envites.

    def _start_lance(self, s: MusState, lance: Lance, events: list[Event]) -> None:
        s.phase = transition(s.phase, LANCE_PHASES[lance])
        if lance in ("pares", "juego"):
            values = self._values(s)
            speakers = tuple(x for x in s.order() if holds(values[x], lance))
        else:
            speakers = s.order()
        s.betting = Betting(lance, BetStatus.OPEN, speakers)
        s.turn = speakers[0]
        events.append(_lance_started(lance, speakers))

    def _on_lance(self, s: MusState, seat: int, action: A.MusAction, events: list[Event]) -> None:
        b = s.betting
        assert b is not None
        if isinstance(action, A.Pass):
            self._on_pass(s, b, seat, events)
        elif isinstance(action, (A.Bet, A.Raise, A.Ordago)):
            self._on_envite(s, b, seat, action, events)
        elif isinstance(action, (A.Accept, A.AcceptNoLose)):
            s.envites += (Envite(b.lance, seat, action.TYPE),)
            events.append(_answered(seat, b.lance, action.TYPE))
            if b.ordago:
                self._ordago_showdown(s, b, events)
            else:
                closed = b._replace(status=bet_transition(b.status, BetStatus.CLOSED_ACCEPTED))
                self._close(s, closed, LanceResult(b.lance, "accepted", b.total), events)
        else:
            self._on_reject(s, b, seat, events)

    def _on_pass(self, s: MusState, b: Betting, seat: int, events: list[Event]) -> None:
        s.envites += (Envite(b.lance, seat, "pass"),)
        events.append(_passed(seat, b.lance))
        position = b.position + 1
        if position < len(b.speakers):
            s.betting = b._replace(position=position, status=bet_transition(b.status, BetStatus.OPEN))
            s.turn = b.speakers[position]
            return
        closed = b._replace(status=bet_transition(b.status, BetStatus.CLOSED_PASSED))
        self._close(s, closed, LanceResult(b.lance, "passed"), events)

    def _on_envite(self, s: MusState, b: Betting, seat: int, action: A.Bet | A.Raise | A.Ordago,
                   events: list[Event]) -> None:
        """A bet, a raise or an órdago: the rivals (holders only) answer, the first one first (FEM VI.2, VI.4)."""
        if isinstance(action, A.Bet):
            kind, amount, before, total = "bet", action.amount, 0, action.amount
        elif isinstance(action, A.Raise):
            kind, amount, before, total = "raise", action.amount, b.total, b.total + action.amount
        else:
            kind, amount, before, total = "ordago", 0, b.total, b.total
        rivals = tuple(x for x in ((seat + 1) % 4, (seat + 3) % 4) if x in b.speakers)
        s.betting = Betting(b.lance, bet_transition(b.status, BetStatus.PENDING), b.speakers, b.position, seat,
                            rivals, total, before, kind == "ordago")
        s.envites += (Envite(b.lance, seat, kind, amount),)
        events.append(_envite_made(seat, b.lance, kind, amount, total))
        s.turn = rivals[0]

    def _on_reject(self, s: MusState, b: Betting, seat: int, events: list[Event]) -> None:
        """No quiero: the partner still answers (FEM VI.4); both refusing gives the deje to the bettors."""
        s.envites += (Envite(b.lance, seat, "reject"),)
        events.append(_answered(seat, b.lance, "reject"))
        rest = b.responders[1:]
        if rest:
            s.betting = b._replace(responders=rest, status=bet_transition(b.status, BetStatus.PENDING))
            s.turn = rest[0]
            return
        assert b.bettor is not None
        deje = s.options.scoring.negada if b.before == 0 else b.before
        closed = b._replace(status=bet_transition(b.status, BetStatus.CLOSED_REJECTED))
        self._close(s, closed, LanceResult(b.lance, "rejected", 0, pair_of(b.bettor), deje), events)

    def _close(self, s: MusState, closed: Betting, result: LanceResult, events: list[Event]) -> None:
        """Record how the lance ended, score a refusal in the act, then go on (or end the game, P8)."""
        s.betting = closed
        s.results += (result,)
        events.append(_lance_closed(result.lance, closed.status.value, result.total, result.pair))
        sc = s.options.scoring
        if result.status == "rejected" and sc.deje_en_el_acto and result.pair is not None:
            reason = "negada" if closed.before == 0 else "deje"
            self._score(s, result.pair, result.deje, reason, result.lance, events)
            if s.game_winner is not None and sc.negada_ends_game:
                self._check_end(s, events)
                return
        self._after_lance(s, result.lance, events)

    def _after_lance(self, s: MusState, lance: Lance, events: list[Event]) -> None:
        if lance == "grande":
            self._start_lance(s, "chica", events)
        elif lance == "chica":
            self._declare(s, "pares", events)
        elif lance == "pares":
            self._declare(s, "juego", events)
        else:
            self._showdown(s, events)

    def _declare(self, s: MusState, lance: Lance, events: list[Event]) -> None:
        """Public, truthful sí/no for every seat (FEM VI.5, IX.1); bet only if both pairs hold."""
        s.phase = transition(s.phase, Phase.PARES_DECLARATION if lance == "pares" else Phase.JUEGO_DECLARATION)
        values = self._values(s)
        declared = tuple(holds(values[x], lance) for x in range(4))
        if lance == "pares":
            s.declared_pares = declared
        else:
            s.declared_juego = declared
        events.extend(_declared(lance, x, declared[x]) for x in s.order())
        pairs = sorted({pair_of(x) for x in range(4) if declared[x]})
        if len(pairs) == 2:
            self._start_lance(s, lance, events)
        elif lance == "juego" and not pairs:
            self._start_lance(s, "punto", events)
        else:
            holder = pairs[0] if pairs else None
            s.results += (LanceResult(lance, "skipped" if pairs else "none", 0, holder),)
            events.append(_lance_skipped(lance, holder))
            if lance == "pares":
                self._declare(s, "juego", events)
            else:
                self._showdown(s, events)

    # Showdown and tanteo.

    def _values(self, s: MusState) -> list[HandValue]:
        return [evaluate(h, s.options.modalidad) for h in s.hands]

    def _showdown(self, s: MusState, events: list[Event]) -> None:
        """The four hands are shown (FEM VII.9), then the hand is counted in lance order (FEM VII.2)."""
        s.phase = transition(s.phase, Phase.SHOWDOWN)
        s.shown = True
        s.turn = None
        events.append(_hands_shown(s.hands))
        s.phase = transition(s.phase, Phase.SCORING)
        if s.game_winner is None:
            for pair, tantos, reason, lance in self.hand_entries(s):
                self._score(s, pair, tantos, reason, lance, events)
                if s.game_winner is not None:
                    break
        self._check_end(s, events)

    def hand_entries(self, s: MusState, *, bets_only: bool = False) -> list[tuple[int, int, str, Lance]]:
        """What the finished hand pays, in counting order: (pair, tantos, reason, lance)."""
        values = self._values(s)
        sc = s.options.scoring
        out: list[tuple[int, int, str, Lance]] = []
        for res in s.results:
            lance = res.lance
            holders = [x for x in s.order() if holds(values[x], lance)]
            if not holders or res.status == "ordago":
                continue
            best = best_seat(values, lance, holders)
            assert best is not None
            w = res.pair if res.status in ("rejected", "skipped") and res.pair is not None else pair_of(best)
            if res.status == "accepted":
                out.append((w, res.total, "envite", lance))
            if bets_only:
                continue
            if res.status == "rejected" and not sc.deje_en_el_acto:
                out.append((w, res.deje, "deje", lance))
            if res.status == "passed" and lance in ("grande", "chica"):
                out.append((w, sc.grande_en_paso if lance == "grande" else sc.chica_en_paso, "en paso", lance))
            bonus = self._bonus(s, values, lance, w)
            if bonus:
                out.append((w, bonus, lance, lance))
        return out

    def _bonus(self, s: MusState, values: list[HandValue], lance: Lance, pair: int) -> int:
        """Pares, juego or punto value of ``pair``: per holder for pares and juego (CONVENCIÓN)."""
        sc = s.options.scoring
        seats = (pair, pair + 2)
        if lance == "pares":
            per_kind = {PAR: sc.par, MEDIAS: sc.medias, DUPLES: sc.duples}
            return sum(per_kind.get(values[x].pares_kind, 0) for x in seats)
        if lance == "juego":
            return sum(sc.juego_31 if values[x].total == 31 else sc.juego_otro
                       for x in seats if values[x].has_juego)
        if lance == "punto":
            return sc.punto
        return 0

    def _ordago_showdown(self, s: MusState, b: Betting, events: list[Event]) -> None:
        """An accepted órdago: cards shown, the lance's winner wins the game (earlier bets: FEM VII.12)."""
        s.betting = b._replace(status=bet_transition(b.status, BetStatus.ORDAGO_SHOWDOWN))
        values = self._values(s)
        best = best_seat(values, b.lance, b.speakers)
        assert best is not None
        winner = pair_of(best)
        s.results += (LanceResult(b.lance, "ordago", 0, winner),)
        events.append(_lance_closed(b.lance, BetStatus.ORDAGO_SHOWDOWN.value, 0, winner))
        s.phase = transition(s.phase, Phase.ORDAGO_SHOWDOWN)
        s.shown = True
        s.turn = None
        events.append(_hands_shown(s.hands))
        s.phase = transition(s.phase, Phase.SCORING)
        if not s.options.scoring.ordago_cancels_earlier_bets:
            for pair, tantos, reason, lance in self.hand_entries(s, bets_only=True):
                if s.game_winner is None:
                    self._score(s, pair, tantos, reason, lance, events)
        if s.game_winner is None:
            needed = s.options.scoring.target - s.tanteo[winner]
            self._score(s, winner, needed, "órdago", b.lance, events)
        self._check_end(s, events)

    def _score(self, s: MusState, pair: int, tantos: int, reason: str, lance: str, events: list[Event]) -> None:
        """Add tantos; the first pair to reach the target wins the game; announce "estamos dentro"."""
        if tantos <= 0:
            return
        tanteo = list(s.tanteo)
        tanteo[pair] += tantos
        s.tanteo = (tanteo[0], tanteo[1])
        events.append(_tantos_scored(pair, tantos, reason, lance, s.tanteo))
        sc = s.options.scoring
        if s.game_winner is None and s.tanteo[pair] >= sc.target:
            s.game_winner = pair
            s.game_over_reason = f"pair {E.PAIR_NAMES[pair]} reached {sc.target} ({reason} a {lance})"
        self._update_team_in(s, events)

    def _update_team_in(self, s: MusState, events: list[Event]) -> None:
        """Announce "estamos dentro" once per game for a pair within the margin (FEM VII.7).

        Also called when a game starts: with a target at or below the margin both pairs are in from 0–0.
        """
        sc = s.options.scoring
        team_in = list(s.team_in)
        for p in (0, 1):
            left = sc.target - s.tanteo[p]
            if 0 < left <= sc.team_is_in_margin and not team_in[p]:
                team_in[p] = True
                events.append(E.TeamIsIn(p, left))
        s.team_in = (team_in[0], team_in[1])

    def _check_end(self, s: MusState, events: list[Event]) -> None:
        """The next hand, the next game, or the end of the match."""
        s.phase = transition(s.phase, Phase.CHECK_GAME_END)
        s.turn = None
        if s.game_winner is not None:
            pair = s.game_winner
            games = list(s.games)
            games[pair] += 1
            s.games = (games[0], games[1])
            events.append(E.GameWon(pair, s.game_no, s.tanteo, s.game_over_reason))
            if s.games[pair] >= s.options.match.games_to_win:
                s.winner = pair
                events.append(E.MatchWon(pair, s.games))
                s.phase = transition(s.phase, Phase.GAME_OVER)
                return
            s.game_no += 1
            s.tanteo, s.team_in, s.game_winner = (0, 0), (False, False), None
            events.append(E.GameStarted(s.game_no, (s.dealer + 1) % 4, s.options.scoring.target))
            self._update_team_in(s, events)
        s.dealer = (s.dealer + 1) % 4
        s.phase = transition(s.phase, Phase.DEALING)
        self._deal(s, events)

    # What leaves the engine.

    def observe(self, state: MusState, seat: int | None) -> MusObservation:
        """What ``seat`` may know: its hand, the public talk, the tanteo, its señas."""
        self.check_observer(state, seat)
        s = state
        hand = s.hands[seat] if seat is not None else ()
        b = s.betting
        betting = None if b is None else BettingView(
            b.lance, b.status.value, b.speakers, b.before if b.status is BetStatus.PENDING else b.total,
            b.total, b.ordago, b.bettor, b.responders)
        pending = s.pending[seat] if seat is not None else None
        return MusObservation(
            seat=seat, phase=s.phase.value, hand=hand,
            hand_words=tuple(SPANISH_40.card(c).words() for c in hand),
            dealer=s.dealer, mano=s.mano, postre=s.postre, to_act=self.to_act(s),
            lance=b.lance if b is not None and s.phase in LANCE_PHASES.values() else None,
            betting=betting, pares=s.declared_pares, juego=s.declared_juego,
            envites=tuple(EnviteView(e.lance, e.seat, e.kind, e.amount) for e in s.envites),
            results=tuple(LanceResultView(r.lance, r.status, r.total, r.pair) for r in s.results),
            tanteo=s.tanteo, amarracos=(s.tanteo[0] // 5, s.tanteo[1] // 5),
            piedras=(s.tanteo[0] % 5, s.tanteo[1] % 5), games=s.games,
            target=s.options.scoring.target, games_to_win=s.options.match.games_to_win, team_in=s.team_in,
            shown_hands=s.hands if s.shown else (),
            signals=tuple(SignalView(n.sender, n.signal, n.intercepted) for n in s.signals_seen[seat])
            if seat is not None else (),
            discarding=pending or (), discard_counts=s.discard_counts, mus_rounds=s.mus_rounds,
            deck_size=len(s.deck), hand_number=s.hand_no, game_number=s.game_no,
            modalidad=s.options.modalidad, winner=s.winner,
        )

    def hidden_cards(self, state: MusState, seat: int | None) -> frozenset[int]:
        """Others' hands (until shown), the deck and the discards."""
        known: set[int] = set(state.hands[seat]) if seat is not None else set()
        if state.shown:
            for hand in state.hands:
                known.update(hand)
        return ALL_CARDS - known

    def outcome(self, state: MusState) -> Outcome | None:
        """Each seat scores its pair's tanteo (games won, in a match); both seats of the winning pair win."""
        if state.phase is not Phase.GAME_OVER or state.winner is None:
            return None
        per_pair = state.tanteo if state.options.match.games_to_win == 1 else state.games
        scores = tuple(float(per_pair[pair_of(x)]) for x in range(4))
        w = state.winner
        return Outcome(scores, (w, w + 2), state.game_over_reason)

    # Search.

    def sample_world(self, observation: MusObservation, rng: random.Random) -> MusState:
        """A full state consistent with ``observation`` (see ``mus.world``)."""
        from cardtable.games.mus import world

        return world.sample_world(observation, rng)

    def search_hints(self) -> SearchHints:
        """Play the hand out with threshold play on each true hand; value the tanteo."""
        from cardtable.games.mus import world

        return world.HINTS

    def describe_action(self, action: A.MusAction) -> str:
        """The action in words, Spanish terms kept ("Envido 2", "Órdago", "Quiero y no pierdo")."""
        return A.describe(action)

    def seat_stats(self, state: MusState) -> Sequence[Mapping[str, float]]:
        """Per seat: hands played and games won by its pair."""
        return [{"hands": float(state.hand_no), "games_won": float(state.games[pair_of(x)])} for x in range(4)]
