"""The Mus engine on the shared protocol: dealing, mus, discards, lances, envites and tanteo.

Seats: pair A = {0, 2}, pair B = {1, 3}. Seat numbers grow counter-clockwise:
each seat's right-hand neighbour is ``seat + 1``. So the mano (the dealer's
right) is ``dealer + 1``, the cards go out one at a time mano, mano + 1, …,
dealer, and every turn passes to ``seat + 1`` (FEM III.2, VIII.8).

``MusGame`` holds the flow of a jugada: the mus and the discards, the lances and
their envites (pass, envido, reenvido, órdago, quiero, no quiero), the showdown
and the end of a game; every phase change (``fsm.transition``) and betting change
(``fsm.bet_transition``) is made here. The rest lives beside it:

- ``legal``: the legal actions, the betting limits, the test of one action;
- ``explain``: why an action is illegal, citing the FEM article;
- ``dealing``: the deal and the cards drawn for the discards;
- ``signals``: the señas, and who sees one;
- ``tanteo``: what a hand pays (lance by lance: envites, dejes, en paso, pares,
  juego, punto), the tantos scored, "estamos dentro", a game won;
- ``observation`` and ``options``: a seat's view, the options and their checks.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from cardtable.cards import SPANISH_40
from cardtable.core import Event, Game, GameInfo, Outcome
from cardtable.core.fast import constructor
from cardtable.core.rng import Seed, randrange, seeded
from cardtable.core.search import SearchHints
from cardtable.games.mus import actions as A
from cardtable.games.mus import events as E
from cardtable.games.mus import legal, tanteo
from cardtable.games.mus.dealing import deal, replace_cards
from cardtable.games.mus.explain import explain
from cardtable.games.mus.fsm import ACTING_PHASES, LANCE_PHASES, BetStatus, Phase, bet_transition, transition
from cardtable.games.mus.legal import (
    CUT_ONLY,
    MUS_OR_CUT,
    TRUSTED_IDS,
    betting_actions,
    discard_actions,
    is_legal,
    signal_actions,
    templates,
)
from cardtable.games.mus.observation import MusObservation, observation_of
from cardtable.games.mus.options import MusGameOptions, check_values, load_toml
from cardtable.games.mus.rules import HandValue, Lance, holds
from cardtable.games.mus.signals import on_signal
from cardtable.games.mus.state import Betting, Envite, LanceResult, MusState, pair_of

ALL_CARDS = frozenset(range(40))
BETTING_ACTIONS = (A.Pass, A.Bet, A.Raise, A.Accept, A.AcceptNoLose, A.Reject, A.Ordago)
# Events, built without the frozen dataclass __init__ (core.fast: the very same objects).
_passed = constructor(E.Passed)
_envite_made = constructor(E.EnviteMade)
_answered = constructor(E.Answered)
_mus_said = constructor(E.MusSaid)
_lance_closed = constructor(E.LanceClosed)
_lance_started = constructor(E.LanceStarted)
_declared = constructor(E.Declared)
_mus_cut = constructor(E.MusCut)
_discarded = constructor(E.Discarded)
_hands_shown = constructor(E.HandsShown)
_lance_skipped = constructor(E.LanceSkipped)

DESCRIPTION = (
    "Mus under the rules of the Federación Española de Mus: four players in two pairs, "
    "the mus and the discards, then grande, chica, pares and juego (or punto), with envites and órdago."
)


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
    trusted_ids = TRUSTED_IDS

    # Setup.

    def check_options(self, options: MusGameOptions) -> None:
        """Cross-field checks (``options.check_values``): positive values (so every hand scores), sane bounds."""
        super().check_options(options)
        check_values(options)

    def options_from_toml(self, source: str | Path, **overrides: Any) -> MusGameOptions:
        """Options from a TOML file path or TOML text (keys as in ``rules.default.toml``)."""
        return self.options(load_toml(source), **overrides)

    def new(self, options: MusGameOptions, seed: Seed) -> tuple[MusState, list[Event]]:
        """Draw the first dealer by lot (FEM III.1) and deal the first hand."""
        dealer, rng = randrange(seeded(seed), 4)
        state = MusState(options, rng, dealer)
        events: list[Event] = [E.GameStarted(1, dealer, options.scoring.target)]
        tanteo.update_team_in(state, events)
        deal(state, events)
        state.phase = transition(state.phase, Phase.MUS_DECISION)
        state.turn = state.mano
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
            out = list(MUS_OR_CUT if state.mus_rounds < state.options.mus.max_rounds else CUT_ONLY)
        elif phase is Phase.DISCARD:
            out = discard_actions(state, seat)
        else:
            out = betting_actions(state, seat, self.tantos_that_matter(state))
        if state.options.signals.enabled:
            out.extend(signal_actions(state, seat))
        return out

    def tantos_that_matter(self, state: MusState) -> int:
        """The most tantos either pair still needs: bets beyond that change nothing."""
        a, b = state.tanteo
        return state.options.scoring.target - (a if a < b else b)

    def bet_cap(self, state: MusState) -> int:
        """The largest envite or raise offered now."""
        return legal.bet_cap(state, self.tantos_that_matter(state))

    def must_accept_no_lose(self, state: MusState, seat: int) -> bool:
        """FEM VI.9: the postre holding 33 answering an órdago a juego may only say "quiero y no pierdo"."""
        return legal.must_accept_no_lose(state, seat)

    def is_a_falta(self, state: MusState) -> bool:
        """"A falta de tanto" (FEM IV.7): some pair is within the margin of the target."""
        return legal.is_a_falta(state)

    def action_templates(self, state: MusState, seat: int) -> list[A.ActionTemplate]:
        """The legal actions as parametrised templates (``bet(2..10)``, ``discard(1..4)``) for UIs and bots."""
        return templates(self.legal_actions(state, seat), state.options.mus.min_discard)

    # Validation.

    def why_illegal_now(self, state: MusState, seat: int, action: A.MusAction) -> str | None:
        """Why the well-formed ``action`` is illegal now (None if legal), without building the legal list."""
        turn = self.to_act(state)
        if turn is None:
            return "the game is over"
        if seat != turn:
            return f"it is seat {turn}'s turn, not seat {seat}'s"
        if is_legal(self, state, seat, action):
            return None
        return explain(state, seat, action, self.tantos_that_matter(state))

    def validate(self, state: MusState, seat: int, action: A.MusAction) -> str | None:
        """None if ``action`` by ``seat`` is legal; otherwise the reason, citing the rule (``why_illegal``)."""
        return self.why_illegal(state, seat, action)

    # Apply.

    def apply_unchecked(self, state: MusState, seat: int, action: A.MusAction) -> tuple[MusState, list[Event]]:
        """Apply a legal action: a copy of the state is changed, never the input."""
        s = state.copy()
        events: list[Event] = []
        if isinstance(action, A.Signal):
            on_signal(s, seat, action, events)
        elif s.phase is Phase.MUS_DECISION:
            self._on_mus(s, seat, action, events)
        elif s.phase is Phase.DISCARD:
            self._on_discard(s, seat, action, events)
        else:
            self._on_lance(s, seat, action, events)
        return s, events

    # Mus and discards (the cards dealt and drawn: ``dealing``).

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
            replace_cards(s, events)  # FEM III.15; then the next round of the mus, from the mano
            s.phase = transition(s.phase, Phase.MUS_DECISION)
            s.turn = s.mano

    # Lances and envites.

    def _start_lance(self, s: MusState, lance: Lance, events: list[Event]) -> None:
        s.phase = transition(s.phase, LANCE_PHASES[lance])
        if lance in ("pares", "juego"):
            values = tanteo.hand_values(s)
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
            tanteo.score(s, result.pair, result.deje, reason, result.lance, events)
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
        values = tanteo.hand_values(s)
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

    # Showdown and tanteo (the count itself: ``tanteo``).

    def _showdown(self, s: MusState, events: list[Event]) -> None:
        """The four hands are shown (FEM VII.9), then the hand is counted in lance order (FEM VII.2)."""
        s.phase = transition(s.phase, Phase.SHOWDOWN)
        s.shown = True
        s.turn = None
        events.append(_hands_shown(s.hands))
        s.phase = transition(s.phase, Phase.SCORING)
        if s.game_winner is None:
            tanteo.score_hand(s, tanteo.hand_entries(s, self._bonus, False), events)
        self._check_end(s, events)

    def hand_entries(self, s: MusState, *, bets_only: bool = False) -> list[tanteo.Entry]:
        """What the finished hand pays, in counting order: (pair, tantos, reason, lance)."""
        return tanteo.hand_entries(s, self._bonus, bets_only)

    def _bonus(self, s: MusState, values: list[HandValue], lance: Lance, pair: int) -> int:
        """Pares, juego or punto value of ``pair``: per holder for pares and juego (CONVENCIÓN)."""
        return tanteo.bonus(s, values, lance, pair)

    def _ordago_showdown(self, s: MusState, b: Betting, events: list[Event]) -> None:
        """An accepted órdago: cards shown, the lance's winner wins the game (earlier bets: FEM VII.12)."""
        s.betting = b._replace(status=bet_transition(b.status, BetStatus.ORDAGO_SHOWDOWN))
        winner = tanteo.ordago_winner(s, b)
        s.results += (LanceResult(b.lance, "ordago", 0, winner),)
        events.append(_lance_closed(b.lance, BetStatus.ORDAGO_SHOWDOWN.value, 0, winner))
        s.phase = transition(s.phase, Phase.ORDAGO_SHOWDOWN)
        s.shown = True
        s.turn = None
        events.append(_hands_shown(s.hands))
        s.phase = transition(s.phase, Phase.SCORING)
        earlier = [] if s.options.scoring.ordago_cancels_earlier_bets else tanteo.hand_entries(s, self._bonus, True)
        tanteo.score_ordago(s, winner, b.lance, earlier, events)
        self._check_end(s, events)

    def _check_end(self, s: MusState, events: list[Event]) -> None:
        """The next hand, the next game, or the end of the match."""
        s.phase = transition(s.phase, Phase.CHECK_GAME_END)
        s.turn = None
        if s.game_winner is not None and tanteo.close_game(s, s.game_winner, events):
            s.phase = transition(s.phase, Phase.GAME_OVER)
            return
        s.dealer = (s.dealer + 1) % 4
        s.phase = transition(s.phase, Phase.DEALING)
        deal(s, events)
        s.phase = transition(s.phase, Phase.MUS_DECISION)
        s.turn = s.mano

    # What leaves the engine.

    def observe(self, state: MusState, seat: int | None) -> MusObservation:
        """What ``seat`` may know: its hand, the public talk, the tanteo, its señas."""
        self.check_observer(state, seat)
        return observation_of(state, seat, self.to_act(state))

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
