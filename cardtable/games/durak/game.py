"""Durak, the simplified rules of the 2020 task: two players per bout, no throwing in, a hand-over on a take."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from cardtable.core.bot import BotFactory
from cardtable.core.events import Event
from cardtable.core.fast import TrustedActions, constructor
from cardtable.core.game import Game, GameInfo
from cardtable.core.observation import Observation
from cardtable.core.outcome import Outcome
from cardtable.core.rng import Seed
from cardtable.core.search import SearchHints
from cardtable.core.state import SlotState, updater
from cardtable.core.types import CardId, Seat
from cardtable.games.durak import rules
from cardtable.games.durak.actions import (
    ACTION_TYPES,
    ATTACKS,
    BEATS,
    STOP,
    TAKE,
    Attack,
    Beat,
    DurakAction,
    Stop,
    Take,
    describe,
)
from cardtable.games.durak.events import (
    EVENT_TYPES,
    Attacked,
    BoutStarted,
    Covered,
    Dealt,
    DealtHand,
    Drew,
    DrewCards,
    GameOver,
    HandedOver,
    LeftGame,
    Stopped,
    Took,
    TrumpTurned,
)
from cardtable.games.durak.options import PRESETS, DurakOptions, check
from cardtable.games.durak.rules import BEATERS, HAND_ORDER, HAND_SIZE, RANK_BIT, SUIT

#: Most actions in one bout: every card moved from a hand to the table, then stop or take.
_ACTIONS_PER_BOUT = rules.DECK_SIZE + 1
# This engine's own cached actions: checked at the edge once, here, not on every apply.
# Events are immutable: the per-decision ones are built once per seat and card, and shared.
_SEATS = range(5)  # up to max_players
_ATTACKED = tuple(tuple(Attacked(s, c) for c in range(rules.DECK_SIZE)) for s in _SEATS)
_COVERED = tuple(tuple(Covered(s, c) for c in range(rules.DECK_SIZE)) for s in _SEATS)
# Events of every bout's end, built without the frozen dataclass __init__ (core.fast: the same objects).
_handed_over, _took, _stopped = constructor(HandedOver), constructor(Took), constructor(Stopped)
_bout_started, _drew_cards = constructor(BoutStarted), constructor(DrewCards)
_dealt, _dealt_hand, _trump_turned = constructor(Dealt), constructor(DealtHand), constructor(TrumpTurned)
_TRUSTED = TrustedActions()
_TRUSTED_IDS = _TRUSTED.ids
_TRUSTED.add(*ATTACKS, *BEATS, STOP, TAKE)


class DurakState(SlotState):
    """A position. ``left[s]`` is the bout after which seat ``s`` left the game (0: still playing)."""

    __slots__ = ("players", "capped", "bout_limit", "trump", "trump_card", "hands", "deck", "attacker",
                 "defender", "bout", "bout_number", "discards", "left", "over", "fool", "takes", "defences",
                 "known", "gone")

    players: int
    capped: bool
    bout_limit: int
    trump: int
    trump_card: CardId
    hands: tuple[tuple[CardId, ...], ...]
    deck: tuple[CardId, ...]
    attacker: Seat
    defender: Seat
    bout: tuple[CardId, ...]
    bout_number: int
    discards: int
    left: tuple[int, ...]
    over: bool
    fool: Seat | None
    takes: tuple[int, ...]
    defences: tuple[int, ...]
    known: tuple[frozenset[CardId], ...]  # per seat: the cards of its hand every seat has seen (taken, the trump)
    gone: frozenset[CardId]  # the discarded cards (every seat saw them in the bout)

@dataclass(frozen=True)
class DurakObservation(Observation):
    """What a seat may know: its hand, the trump, the table, counts of everything else."""

    TYPE: ClassVar[str] = "durak"
    seat: Seat | None
    players: int
    hand: tuple[int, ...]
    trump_card: int
    trump_suit: str
    deck_count: int
    hand_counts: tuple[int, ...]
    in_game: tuple[bool, ...]
    attacker: Seat | None
    defender: Seat | None
    to_act: Seat | None
    bout: tuple[int, ...]
    bout_number: int
    discards: int
    attack_cap: str
    fool: Seat | None
    winner: Seat | None
    finished: bool
    known_cards: tuple[tuple[int, ...], ...] = ()
    discarded: tuple[int, ...] = ()

    def cards_shown(self) -> frozenset[CardId]:
        """Own hand, the bout on the table, the trump card, the cards known in hands and the discards."""
        shown = frozenset(self.hand) | frozenset(self.bout) | {self.trump_card} | frozenset(self.discarded)
        return shown.union(*map(frozenset, self.known_cards))


def first_leavers(left: Sequence[int]) -> tuple[Seat, ...]:
    """The seats that left the game first (together), or none if nobody has left."""
    done = [b for b in left if b]
    if not done:
        return ()
    first = min(done)
    return tuple(s for s, b in enumerate(left) if b == first)


def winner_of(left: Sequence[int]) -> Seat | None:
    """The winner: the first player to leave the game, unless several left at once first."""
    firsts = first_leavers(left)
    return firsts[0] if len(firsts) == 1 else None


def next_in_game(state: DurakState, seat: Seat) -> Seat:
    """The next seat after ``seat``, cyclically, that is still in the game."""
    for k in range(1, state.players + 1):
        other = (seat + k) % state.players
        if not state.left[other]:
            return other
    return seat


class DurakGame(Game[DurakState, DurakAction, DurakObservation, DurakOptions]):
    """The engine; the 2020 program is this engine with the scripted bot in every seat."""

    info = GameInfo(
        name="durak",
        title="Durak",
        description="Simplified Durak (the 2020 task): one attacker, one defender, no throwing in; "
                    "the loser of a bout also gets the attacker's cards of the bout's ranks.",
        min_players=2,
        max_players=5,
        options_type=DurakOptions,
        action_types=ACTION_TYPES,
        event_types=EVENT_TYPES,
        observation_type=DurakObservation,
        deck=rules.DECK,
        presets=PRESETS,
    )
    trusted_ids = _TRUSTED_IDS
    stat_rates = {"fool_rate": ("fool", "games"), "win_rate": ("won", "games"),
                  "take_rate": ("takes", "defences")}

    # Setup.

    def check_options(self, options: DurakOptions) -> None:
        """The player count fits ``player_limit`` (4: the 2020 text, 5: the seed)."""
        super().check_options(options)
        check(options)

    def new(self, options: DurakOptions, seed: Seed) -> tuple[DurakState, list[Event]]:
        """Shuffle with ``seed`` (the deck's number), deal, turn the trump and start the first bout."""
        players = options.players
        deck = rules.shuffle(seed, options.shuffle)
        hands, stock = rules.deal(deck, players, options.deal)
        trump_card, stock_left = rules.turn_trump(stock)
        trump = SUIT[trump_card]
        state = DurakState()
        state.players, state.capped, state.bout_limit = players, options.attack_cap == "defender_hand", \
            options.bout_limit
        state.trump, state.trump_card, state.deck = trump, trump_card, stock_left
        state.hands = tuple(rules.sort_hand(h, trump) for h in hands)
        state.bout, state.bout_number, state.discards = (), 1, 0
        state.left, state.over, state.fool = (0,) * players, False, None
        state.takes = state.defences = (0,) * players
        state.known, state.gone = (frozenset(),) * players, frozenset()
        first = rules.lowest_trump_holder(hands, trump) if options.first_attacker == "lowest_trump" else None
        state.attacker = 0 if first is None else first
        state.defender = next_in_game(state, state.attacker)
        events: list[Event] = []
        for seat, hand in enumerate(state.hands):
            events += (_dealt(seat, len(hand)), _dealt_hand(seat, hand))
        events += (_trump_turned(trump_card), _bout_started(1, state.attacker, state.defender))
        return state, events

    # Flow.

    def to_act(self, state: DurakState) -> Seat | None:
        """The attacker while every attack is beaten, else the defender; ``None`` at the end."""
        if state.over:
            return None
        return state.defender if len(state.bout) & 1 else state.attacker

    def legal_actions(self, state: DurakState, seat: Seat) -> list[DurakAction]:
        """Attacker: any card to lead, then cards of the bout's ranks or stop; defender: beating cards or take."""
        if state.over:
            return []
        bout = state.bout
        if len(bout) & 1:
            if seat != state.defender:
                return []
            beaters = BEATERS[state.trump][bout[-1]]
            actions: list[DurakAction] = [BEATS[c] for c in state.hands[seat] if beaters >> c & 1]
            actions.append(TAKE)
            return actions
        if seat != state.attacker:
            return []
        if not bout:
            return [ATTACKS[c] for c in state.hands[seat]]
        if state.capped and not state.hands[state.defender]:
            return [STOP]
        ranks = 0
        for c in bout:
            ranks |= RANK_BIT[c]
        actions = [ATTACKS[c] for c in state.hands[seat] if RANK_BIT[c] & ranks]
        actions.append(STOP)
        return actions

    def why_illegal_now(self, state: DurakState, seat: Seat, action: DurakAction) -> str | None:
        """The turn, then the test ``legal_actions`` makes for this one action (no list built), in Durak's words."""
        if state.over:
            return "the game is over"
        bout = state.bout
        defending = len(bout) & 1
        turn = state.defender if defending else state.attacker  # to_act, inlined
        if seat != turn:
            return f"it is seat {turn}'s turn, not seat {seat}'s"
        kind = type(action)
        if defending:
            if kind is Take:
                return None
            if kind is Beat and action.card in state.hands[seat] and (  # type: ignore[union-attr]
                    BEATERS[state.trump][bout[-1]] >> action.card & 1):  # type: ignore[union-attr]
                return None
        elif kind is Attack and action.card in state.hands[seat]:  # type: ignore[union-attr]
            if not bout:
                return None
            if not (state.capped and not state.hands[state.defender]):
                ranks = 0
                for c in bout:
                    ranks |= RANK_BIT[c]
                if RANK_BIT[action.card] & ranks:  # type: ignore[union-attr]
                    return None
        elif kind is Stop and bout:
            return None
        return self._reason(state, seat, action)

    def _reason(self, state: DurakState, seat: Seat, action: DurakAction) -> str:
        """Why a turn-correct action is not legal."""
        defending = bool(len(state.bout) & 1)
        if isinstance(action, (Beat, Take)) and not defending:
            return "only the defender may beat or take, and every attack card is beaten"
        if isinstance(action, (Attack, Stop)) and defending:
            return "the defender must beat or take the last attack card first"
        if isinstance(action, Stop):
            return "the attacker must lead a card to start the bout"
        card = action.card if isinstance(action, (Attack, Beat)) else -1
        if card not in state.hands[seat]:
            return f"{rules.DECK.text(card)} is not in seat {seat}'s hand" if 0 <= card < 36 else "no such card"
        if isinstance(action, Beat):
            return f"{rules.DECK.text(card)} does not beat {rules.DECK.text(state.bout[-1])}"
        if state.capped and not state.hands[state.defender]:
            return "the defender has no cards left (attack cap: defender_hand)"
        return f"{rules.DECK.text(card)} is not of a rank already in the bout"

    def apply(self, state: DurakState, seat: Seat, action: DurakAction) -> tuple[DurakState, list[Event]]:
        """Validate, then step (see ``Game.apply``); raises ``IllegalAction`` naming the reason.

        The engine's own actions (from ``legal_actions``) are checked here with the tests of
        ``why_illegal_now`` and stepped at once; anything else, and every illegal action, goes
        through the base class's full check and message.
        """
        if id(action) in _TRUSTED_IDS and type(seat) is int and not state.over:
            bout = state.bout
            kind = type(action)
            if len(bout) & 1:
                if seat == state.defender:
                    if kind is Take:
                        return _end_bout(state, seat, kind)
                    if kind is Beat:
                        card = action.card  # type: ignore[union-attr]
                        if BEATERS[state.trump][bout[-1]] >> card & 1 and card in state.hands[seat]:
                            return _play_card(state, seat, card, _COVERED[seat][card])
            elif seat == state.attacker:
                if kind is Attack:
                    card = action.card  # type: ignore[union-attr]
                    if card in state.hands[seat]:
                        if not bout:
                            return _play_card(state, seat, card, _ATTACKED[seat][card])
                        if not (state.capped and not state.hands[state.defender]):
                            ranks = 0
                            for c in bout:
                                ranks |= RANK_BIT[c]
                            if RANK_BIT[card] & ranks:
                                return _play_card(state, seat, card, _ATTACKED[seat][card])
                elif kind is Stop and bout:
                    return _end_bout(state, seat, kind)
        return super().apply(state, seat, action)

    def apply_unchecked(self, state: DurakState, seat: Seat,
                        action: DurakAction) -> tuple[DurakState, list[Event]]:
        """Play a card, or end the bout (stop or take) and refill, check who left, start the next bout."""
        kind = type(action)
        if kind is Attack:
            return _play_card(state, seat, action.card, _ATTACKED[seat][action.card])  # type: ignore[union-attr]
        if kind is Beat:
            return _play_card(state, seat, action.card, _COVERED[seat][action.card])  # type: ignore[union-attr]
        return _end_bout(state, seat, kind)

    # What leaves the engine.

    def observe(self, state: DurakState, seat: Seat | None) -> DurakObservation:
        """Own hand, the trump, the bout, and counts of hands, deck and discards."""
        self.check_observer(state, seat)
        over = state.over
        return DurakObservation(
            seat=seat, players=state.players, hand=() if seat is None else state.hands[seat],
            trump_card=state.trump_card, trump_suit=rules.SUIT_WORDS[state.trump], deck_count=len(state.deck),
            hand_counts=tuple(len(h) for h in state.hands), in_game=tuple(not b for b in state.left),
            attacker=None if over else state.attacker, defender=None if over else state.defender,
            to_act=self.to_act(state), bout=state.bout, bout_number=state.bout_number, discards=state.discards,
            attack_cap="defender_hand" if state.capped else "none", fool=state.fool,
            winner=winner_of(state.left) if over else None, finished=over,
            known_cards=tuple(rules.sort_hand(tuple(k), state.trump) for k in state.known),
            discarded=rules.sort_hand(tuple(state.gone), state.trump),
        )

    def outcome(self, state: DurakState) -> Outcome | None:
        """Winners: the first to leave (several: a tie); scores 1 for them, -1 for the fool, else 0."""
        if not state.over:
            return None
        winners = first_leavers(state.left)
        scores = tuple(1.0 if s in winners else -1.0 if s == state.fool else 0.0 for s in range(state.players))
        reason = "draw: nobody holds cards" if state.fool is None else f"seat {state.fool} is the fool"
        if state.fool is None and any(not b for b in state.left):
            reason = f"draw: bout limit {state.bout_limit} reached"
        return Outcome(scores, winners, reason)

    def hidden_cards(self, state: DurakState, seat: Seat | None) -> frozenset[CardId]:
        """Other players' hands and the deck, except the turned-up trump card and cards taken in view of all."""
        hidden = set(state.deck)
        for other, hand in enumerate(state.hands):
            if other != seat:
                hidden.update(hand)
                hidden.difference_update(state.known[other])
        hidden.discard(state.trump_card)
        return frozenset(hidden)

    def players(self, state: DurakState) -> int:
        """The number of seats."""
        return state.players

    def max_actions(self, options: DurakOptions) -> int:
        """At most 37 actions per bout, and at most ``bout_limit`` bouts."""
        return options.bout_limit * _ACTIONS_PER_BOUT

    # Search.

    def sample_world(self, observation: DurakObservation, rng: random.Random) -> DurakState:
        """A full state consistent with ``observation`` (see ``durak.world``)."""
        from cardtable.games.durak import world

        return world.sample_world(observation, rng)

    def search_hints(self) -> SearchHints:
        """Play to the end with a cheap low-card policy; value +1 first out, -1 the fool."""
        from cardtable.games.durak import world

        return world.HINTS

    # Words, bots, statistics.

    def describe_action(self, action: DurakAction) -> str:
        """The action in words ("Attack with the six of clubs", "Take the cards")."""
        return describe(action)

    def bots(self) -> Mapping[str, BotFactory]:
        """The bots of ``durak.bots.BOTS``: scripted, heuristic, careful, endgame and the lowest-card baseline."""
        from cardtable.games.durak.bots import BOTS

        return BOTS

    def seat_stats(self, state: DurakState) -> Sequence[Mapping[str, float]]:
        """Per seat: games, fool, won (first to leave), bouts defended and takes."""
        winners = first_leavers(state.left) if state.over else ()
        return [{"games": 1.0, "fool": float(state.fool == s), "won": float(s in winners),
                 "defences": float(state.defences[s]), "takes": float(state.takes[s])}
                for s in range(state.players)]


# Stepping: a card played, or the end of a bout (stop or take, refill, who left, the next bout).

_after_card = updater(DurakState, "hands", "bout")
#: HANDABLE[trump][card]: the card's rank bit if it is not a trump (a take hands over such cards), else 0.
HANDABLE: tuple[tuple[int, ...], ...] = tuple(
    tuple(0 if SUIT[c] == t else RANK_BIT[c] for c in range(rules.DECK_SIZE)) for t in range(4))
_DREW_COUNT = tuple(tuple(Drew(s, n) for n in range(HAND_SIZE + 1)) for s in _SEATS)
_BOUT_STARTED: dict[tuple[int, Seat, Seat], BoutStarted] = {}
#: The DrewCards events of draws of one or two cards, built once and shared (at most 5 * 36 * 36 of them).
_DREW_CARDS: dict[tuple[Seat, tuple[CardId, ...]], DrewCards] = {}
_SHARED_BOUTS = 256  # the BoutStarted events of the first bouts are built once and shared


def _play_card(state: DurakState, seat: Seat, card: CardId, event: Event) -> tuple[DurakState, list[Event]]:
    """``seat`` puts ``card`` on the table (an attack or a beat)."""
    hands = list(state.hands)
    hand = hands[seat]
    i = hand.index(card)
    hands[seat] = hand[:i] + hand[i + 1:]
    new = _after_card(state, tuple(hands), state.bout + (card,))
    known = state.known[seat]
    if card in known:
        new.known = _with(state.known, seat, known - {card})
    return new, [event]


def _end_bout(state: DurakState, seat: Seat, kind: type) -> tuple[DurakState, list[Event]]:
    """Stop or take, then refill, remove players without cards, end the game or start the next bout."""
    bout, known, takes, discards, gone = state.bout, state.known, state.takes, state.discards, state.gone
    attacker, defender, trump, players = state.attacker, state.defender, state.trump, state.players
    hands = list(state.hands)
    events: list[Event]
    taken = kind is Take
    if taken:  # hand over the attacker's non-trump cards of the bout's ranks; the defender takes it all
        ranks = 0
        for c in bout:
            ranks |= RANK_BIT[c]
        handable = HANDABLE[trump]
        hand = hands[attacker]
        handed = tuple([c for c in hand if handable[c] & ranks])
        if handed:
            hands[attacker] = tuple([c for c in hand if not handable[c] & ranks])
            events = [_handed_over(attacker, handed), _took(defender, bout + handed)]
            known = _with(known, attacker, known[attacker] - frozenset(handed))
            cards = bout + handed
        else:
            events = [_took(defender, bout)]
            cards = bout
        hands[defender] = tuple(sorted(hands[defender] + cards, key=HAND_ORDER[trump].__getitem__))
        known = _with(known, defender, known[defender].union(cards))
        takes = _bump(takes, defender)
    else:
        events = [_stopped(seat, bout)]
        discards += len(bout)
        gone = gone.union(bout)
    defences = _bump(state.defences, defender)
    deck = state.deck
    left = state.left
    if deck:  # refill up to six from the top: attacker, defender, then the others after the defender
        key = HAND_ORDER[trump].__getitem__
        for other in _REFILL_ORDER[players][attacker][defender]:
            need = HAND_SIZE - len(hands[other])
            if need <= 0 or left[other]:
                continue
            drawn, deck = deck[:need], deck[need:]
            hands[other] = tuple(sorted(hands[other] + drawn, key=key))
            private = _DREW_CARDS.get((other, drawn))
            if private is None:
                private = _drew_cards(other, drawn)
                if len(drawn) <= 2:
                    _DREW_CARDS[other, drawn] = private
            events += (_DREW_COUNT[other][len(drawn)], private)
            if not deck:
                if state.trump_card in drawn:  # the turned-up trump is drawn last, in view of all
                    known = _with(known, other, known[other] | {state.trump_card})
                break
        if deck and not any(left) and state.bout_number < state.bout_limit:
            # The common case: nobody has left or leaves now, the next bout starts (``_next_bout``, inline).
            attacker = (defender + 1) % players if taken else defender
            number = state.bout_number + 1
            defender = (attacker + 1) % players
            started = _BOUT_STARTED.get((number, attacker, defender))
            if started is None:
                started = _bout_started(number, attacker, defender)
                if number < _SHARED_BOUTS:
                    _BOUT_STARTED[number, attacker, defender] = started
            events.append(started)
            return _after_next_bout(state, tuple(hands), deck, (), known, takes, defences, discards, gone, attacker,
                                    defender, number), events
    new = _after_bout(state, tuple(hands), deck, (), known, takes, defences, discards, gone)
    if not deck:  # leaving: only once the deck is empty, checked after the refill
        out = list(left)
        for other in range(players):
            if not out[other] and not hands[other]:
                out[other] = state.bout_number
                events.append(LeftGame(other))
        new.left = tuple(out)
        playing = [s for s in range(players) if not out[s]]
        if len(playing) <= 1:
            _finish(new, playing[0] if playing else None, "one player holds cards" if playing
                    else "nobody holds cards", events)
            return new, events
    if state.bout_number >= state.bout_limit:
        _finish(new, None, f"bout limit {state.bout_limit} reached", events)
        return new, events
    _next_bout(new, state, taken, events)
    return new, events


_after_bout = updater(DurakState, "hands", "deck", "bout", "known", "takes", "defences", "discards", "gone")
_after_next_bout = updater(DurakState, "hands", "deck", "bout", "known", "takes", "defences", "discards", "gone",
                           "attacker", "defender", "bout_number")


def _next_bout(new: DurakState, state: DurakState, taken: bool, events: list[Event]) -> None:
    """Start the next bout in ``new``: the taker misses his turn; a successful defender attacks (if still playing)."""
    out, defender, players = new.left, state.defender, state.players
    if taken or out[defender]:
        attacker = next_in_game(new, defender)
    else:
        attacker = defender
    defender = (attacker + 1) % players
    if out[defender]:
        defender = next_in_game(new, attacker)
    new.attacker, new.defender = attacker, defender
    number = new.bout_number = state.bout_number + 1
    started = _BOUT_STARTED.get((number, attacker, defender))
    if started is None:
        started = _bout_started(number, attacker, defender)
        if number < _SHARED_BOUTS:
            _BOUT_STARTED[number, attacker, defender] = started
    events.append(started)


def _refill_order(players: int, attacker: Seat, defender: Seat) -> tuple[Seat, ...]:
    """Who draws first after a bout: the attacker, the defender, then the others after the defender."""
    order = [attacker, defender]
    order += [s for k in range(1, players) if (s := (defender + k) % players) != attacker]
    return tuple(order)


#: _REFILL_ORDER[players][attacker][defender]: the drawing order after a bout (see ``_refill_order``).
_REFILL_ORDER = tuple(tuple(tuple(_refill_order(n, a, d) for d in range(n)) for a in range(n)) for n in range(6))


def _finish(new: DurakState, fool: Seat | None, reason: str, events: list[Event]) -> None:
    """End the game with ``fool`` (``None``: a draw)."""
    new.over, new.fool = True, fool
    events.append(GameOver(fool, winner_of(new.left), reason))


def _with(values: tuple[frozenset[CardId], ...], seat: Seat,
          value: frozenset[CardId]) -> tuple[frozenset[CardId], ...]:
    """``values`` with ``value`` for ``seat``."""
    return values[:seat] + (value,) + values[seat + 1:]


def _bump(counts: tuple[int, ...], seat: Seat) -> tuple[int, ...]:
    """``counts`` with one more for ``seat``."""
    return counts[:seat] + (counts[seat] + 1,) + counts[seat + 1:]


__all__ = ["DurakGame", "DurakObservation", "DurakState", "Stop", "Take"]
