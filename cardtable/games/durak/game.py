"""Durak, the simplified rules of the 2020 task: two players per bout, no throwing in, a hand-over on a take."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from cardtable.core.events import Event
from cardtable.core.fast import TrustedActions, constructor
from cardtable.core.game import Game, GameInfo
from cardtable.core.outcome import Outcome
from cardtable.core.rng import Seed
from cardtable.core.search import SearchHints
from cardtable.core.state import updater
from cardtable.core.types import CardId, Seat
from cardtable.games.durak import rules, world
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
from cardtable.games.durak.masks import FULL, LANE, NON_TRUMPS, RANK_CARDS
from cardtable.games.durak.observation import DurakObservation
from cardtable.games.durak.options import PRESETS, DurakOptions, check
from cardtable.games.durak.rules import HAND_SIZE, RANK_BIT
from cardtable.games.durak.state import TALLY, DurakSetup, DurakState, position_state

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
    return _next_seat(state.left, seat)


def _next_seat(left: tuple[int, ...], seat: Seat) -> Seat:
    """The next seat after ``seat``, cyclically, whose ``left`` entry is 0 (``seat`` itself if none)."""
    players = len(left)
    for k in range(1, players + 1):
        other = (seat + k) % players
        if not left[other]:
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
        setup = DurakSetup(players, options.attack_cap == "defender_hand", options.bout_limit, trump_card, stock_left)
        tables = setup.tables
        masks = [tables.mask(h) for h in hands]
        state = DurakState()
        state.setup, state.held, state.drawn = setup, sum(m << LANE * s for s, m in enumerate(masks)), 0
        state.bout, state.bout_number, state.discards = (), 1, 0
        state.left, state.over, state.fool = (0,) * players, False, None
        state.tally = state.known = 0
        first = _lowest_trump_holder(masks) if options.first_attacker == "lowest_trump" else None
        state.attacker = 0 if first is None else first
        state.defender = next_in_game(state, state.attacker)
        events: list[Event] = []
        for seat, mask in enumerate(masks):
            events += (_dealt(seat, mask.bit_count()), _dealt_hand(seat, tables.cards_of(mask)))
        events += (_trump_turned(trump_card), _bout_started(1, state.attacker, state.defender))
        return state, events

    # Flow.

    def to_act(self, state: DurakState) -> Seat | None:
        """The attacker while every attack is beaten, else the defender; ``None`` at the end."""
        if state.over:
            return None
        return state.defender if len(state.bout) & 1 else state.attacker

    def legal_actions(self, state: DurakState, seat: Seat) -> list[DurakAction]:
        """Attacker: any card to lead, then cards of the bout's ranks or stop; defender: beating cards or take.

        In hand order: the hand is a position mask (``durak.masks``), read four 9-bit chunks at a
        time for a lead (a whole hand), bit by bit for the few beating or matching cards.
        """
        if state.over:
            return []
        bout = state.bout
        if len(bout) & 1:
            if seat != state.defender:
                return []
            setup = state.setup
            m = state.held >> LANE * seat & setup.beaters[bout[-1]]
            beat_at = setup.beat_at
            actions: list[DurakAction] = []
            while m:
                low = m & -m
                actions.append(beat_at[low.bit_length()])
                m ^= low
            actions.append(TAKE)
            return actions
        if seat != state.attacker:
            return []
        setup = state.setup
        m = state.held >> LANE * seat & FULL
        a = setup.attacks
        if not bout:
            return [*a[m & 511], *a[512 | m >> 9 & 511], *a[1024 | m >> 18 & 511], *a[1536 | m >> 27]]
        if setup.capped and not state.held >> LANE * state.defender & FULL:
            return [STOP]
        ranks = 0
        for c in bout:
            ranks |= RANK_CARDS[c]
        m &= ranks
        attack_at = setup.attack_at
        actions = []
        while m:
            low = m & -m
            actions.append(attack_at[low.bit_length()])
            m ^= low
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
        setup = state.setup
        if not 0 <= getattr(action, "card", 0) < rules.DECK_SIZE:
            return self._reason(state, seat, action)
        if defending:
            if kind is Take:
                return None
            if kind is Beat and state.held & setup.seat_bit[seat][action.card] and (  # type: ignore[union-attr]
                    setup.beat_ids[bout[-1]] >> action.card & 1):  # type: ignore[union-attr]
                return None
        elif kind is Attack and state.held & setup.seat_bit[seat][action.card]:  # type: ignore[union-attr]
            if not bout:
                return None
            if not (setup.capped and not state.held >> LANE * state.defender & FULL):
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
        if not 0 <= card < rules.DECK_SIZE:
            return "no such card"
        if not state.held & state.setup.tables.seat_bit[seat][card]:
            return f"{rules.DECK.text(card)} is not in seat {seat}'s hand"
        if isinstance(action, Beat):
            return f"{rules.DECK.text(card)} does not beat {rules.DECK.text(state.bout[-1])}"
        if state.setup.capped and not state.held >> LANE * state.defender & FULL:
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
                        return _end_bout(state, seat, True)
                    if kind is Beat:
                        card = action.card  # type: ignore[union-attr]
                        setup = state.setup
                        bit = setup.seat_bit[seat][card]
                        if state.held & bit and setup.beat_ids[bout[-1]] >> card & 1:
                            return _after_card(state, state.held ^ bit, bout + (card,)), [_COVERED[seat][card]]
            elif seat == state.attacker:
                if kind is Attack:
                    card = action.card  # type: ignore[union-attr]
                    setup = state.setup
                    bit = setup.seat_bit[seat][card]
                    held = state.held
                    if held & bit:
                        if not bout:
                            return _after_card(state, held ^ bit, (card,)), [_ATTACKED[seat][card]]
                        if not (setup.capped and not held >> LANE * state.defender & FULL):
                            ranks = 0
                            for c in bout:
                                ranks |= RANK_BIT[c]
                            if RANK_BIT[card] & ranks:
                                return _after_card(state, held ^ bit, bout + (card,)), [_ATTACKED[seat][card]]
                elif kind is Stop and bout:
                    return _end_bout(state, seat, False)
        return super().apply(state, seat, action)

    def apply_unchecked(self, state: DurakState, seat: Seat,
                        action: DurakAction) -> tuple[DurakState, list[Event]]:
        """Play a card, or end the bout (stop or take) and refill, check who left, start the next bout."""
        kind = type(action)
        if kind is Attack:
            card = action.card  # type: ignore[union-attr]
            held = state.held ^ state.setup.seat_bit[seat][card]
            return _after_card(state, held, state.bout + (card,)), [_ATTACKED[seat][card]]
        if kind is Beat:
            card = action.card  # type: ignore[union-attr]
            held = state.held ^ state.setup.seat_bit[seat][card]
            return _after_card(state, held, state.bout + (card,)), [_COVERED[seat][card]]
        return _end_bout(state, seat, kind is Take)

    # What leaves the engine.

    def observe(self, state: DurakState, seat: Seat | None) -> DurakObservation:
        """Own hand, the trump, the bout, and counts of hands, deck and discards."""
        self.check_observer(state, seat)
        over, setup, held = state.over, state.setup, state.held
        cards_of, known, players = setup.tables.cards_of, state.known, setup.players
        lanes = [held >> LANE * s & FULL for s in range(players)]
        placed = setup.prefix[-1] ^ setup.prefix[state.drawn] | setup.absent_positions  # the deck, the absent
        for mask in lanes:
            placed |= mask
        bit = setup.tables.bit
        for card in state.bout:
            placed |= bit[card]
        return DurakObservation(
            seat=seat, players=players, hand=() if seat is None else cards_of(lanes[seat]),
            trump_card=setup.trump_card, trump_suit=rules.SUIT_WORDS[setup.trump],
            deck_count=len(setup.stock) - state.drawn,
            hand_counts=tuple(m.bit_count() for m in lanes), in_game=tuple(not b for b in state.left),
            attacker=None if over else state.attacker, defender=None if over else state.defender,
            to_act=self.to_act(state), bout=state.bout, bout_number=state.bout_number, discards=state.discards,
            attack_cap="defender_hand" if setup.capped else "none", fool=state.fool,
            winner=winner_of(state.left) if over else None, finished=over,
            known_cards=tuple(cards_of(m & known) if m & known else () for m in lanes) if known else ((),) * players,
            discarded=cards_of(FULL & ~placed),  # everything else was discarded (``DurakState.gone``)
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
        setup, held = state.setup, state.held
        hidden = setup.prefix[-1] ^ setup.prefix[state.drawn]
        for other in range(setup.players):
            if other != seat:
                hidden |= held >> LANE * other & FULL & ~state.known
        hidden &= ~setup.tables.bit[setup.trump_card]
        return frozenset(setup.tables.cards_of(hidden))

    def players(self, state: DurakState) -> int:
        """The number of seats."""
        return state.setup.players

    def max_actions(self, options: DurakOptions) -> int:
        """At most 37 actions per bout, and at most ``bout_limit`` bouts."""
        return options.bout_limit * _ACTIONS_PER_BOUT

    # Search.

    def sample_world(self, observation: DurakObservation, rng: random.Random) -> DurakState:
        """A full state consistent with ``observation`` (see ``durak.world``)."""
        return world.sample_world(observation, rng)

    def search_hints(self) -> SearchHints:
        """Play to the end with a cheap low-card policy; value +1 first out, -1 the fool."""
        return world.HINTS

    # Words, statistics.

    def describe_action(self, action: DurakAction) -> str:
        """The action in words ("Attack with the six of clubs", "Take the cards")."""
        return describe(action)

    def seat_stats(self, state: DurakState) -> Sequence[Mapping[str, float]]:
        """Per seat: games, fool, won (first to leave), bouts defended and takes."""
        winners = first_leavers(state.left) if state.over else ()
        defences, takes = state.defences, state.takes
        return [{"games": 1.0, "fool": float(state.fool == s), "won": float(s in winners),
                 "defences": float(defences[s]), "takes": float(takes[s])}
                for s in range(state.setup.players)]


# Stepping: a card played, or the end of a bout (stop or take, refill, who left, the next bout).

_after_card = updater(DurakState, "held", "bout")
_DREW_COUNT = tuple(tuple(Drew(s, n) for n in range(HAND_SIZE + 1)) for s in _SEATS)
#: The DrewCards events of draws of one or two cards, built once and shared (at most 5 * 36 * 36 of them).
_DREW_CARDS: dict[tuple[Seat, tuple[CardId, ...]], DrewCards] = {}
_SHARED_BOUTS = 256  # the BoutStarted events of the first bouts are built once and shared:
#: _BOUTS[number * 25 + attacker * 5 + defender] for number < _SHARED_BOUTS, built on first use.
_BOUTS: list[BoutStarted | None] = [None] * (_SHARED_BOUTS * 25)
# One more defence (or take) in a seat's lanes of the tally (``durak.state.TALLY``).
_DEFENDED = tuple(1 << TALLY * 2 * s for s in _SEATS)
_TOOK = tuple(1 << TALLY * 2 * s | 1 << TALLY * (2 * s + 1) for s in _SEATS)  # a take is a defence too
_LANES = tuple(LANE * s for s in _SEATS)


def _end_bout(state: DurakState, seat: Seat, taken: bool) -> tuple[DurakState, list[Event]]:
    """Stop or take, then refill, remove players without cards, end the game or start the next bout."""
    setup, bout, held, known, discards = state.setup, state.bout, state.held, state.known, state.discards
    attacker, defender, players = state.attacker, state.defender, setup.players
    tables = setup.tables
    events: list[Event]
    if taken:  # hand over the attacker's non-trump cards of the bout's ranks; the defender takes it all
        bit = tables.bit
        ranks = cards = 0
        for c in bout:
            ranks |= RANK_CARDS[c]
            cards |= bit[c]
        at = _LANES[attacker]
        handed = held >> at & ranks & NON_TRUMPS
        if handed:
            held ^= handed << at
            shown = tables.cards_of(handed)
            events = [_handed_over(attacker, shown), _took(defender, bout + shown)]
            cards |= handed
        else:
            events = [_took(defender, bout)]
        held |= cards << _LANES[defender]
        known |= cards
        tally = state.tally + _TOOK[defender]
    else:
        events = [_stopped(seat, bout)]
        discards += len(bout)
        tally = state.tally + _DEFENDED[defender]
    stock, drawn, left = setup.stock, state.drawn, state.left
    end = len(stock)
    if drawn < end:  # refill up to six from the top: attacker, defender, then the others after the defender
        prefix = setup.prefix
        for other in setup.refill[attacker][defender]:
            at = _LANES[other]
            need = HAND_SIZE - (held >> at & FULL).bit_count()
            if need <= 0 or left[other]:
                continue
            upto = drawn + need
            if upto > end:
                upto = end
            cards_drawn = stock[drawn:upto]
            held |= (prefix[upto] ^ prefix[drawn]) << at
            count = upto - drawn
            if count > 2:
                private = _drew_cards(other, cards_drawn)
            else:
                private = _DREW_CARDS.get((other, cards_drawn))  # type: ignore[assignment]
                if private is None:
                    private = _DREW_CARDS[other, cards_drawn] = _drew_cards(other, cards_drawn)
            events += (_DREW_COUNT[other][count], private)
            drawn = upto
            if drawn == end:
                if setup.trump_card in cards_drawn:  # the turned-up trump card, drawn last, is seen by all
                    known |= tables.bit[setup.trump_card]
                break
    if drawn == end:
        for other in range(players):  # leaving: only once the deck is empty, checked after the refill
            if not left[other] and not held >> _LANES[other] & FULL:
                return _after_leaving(state, held, drawn, known, tally, discards, taken, events)
    if state.bout_number >= setup.bout_limit:
        new = _after_bout(state, held, drawn, (), known, tally, discards)
        _finish(new, None, f"bout limit {setup.bout_limit} reached", events)
        return new, events
    # Nobody leaves now: the taker misses his turn; a successful defender attacks (``_next_bout``, inline).
    if any(left):
        attacker = _next_seat(left, defender) if taken or left[defender] else defender
        defender = (attacker + 1) % players
        if left[defender]:
            defender = _next_seat(left, attacker)
    else:
        attacker = (defender + 1) % players if taken else defender
        defender = (attacker + 1) % players
    number = state.bout_number + 1
    started = _BOUTS[number * 25 + attacker * 5 + defender] if number < _SHARED_BOUTS else None
    events.append(started or _bout_start(number, attacker, defender))
    return _after_next_bout(state, held, drawn, (), known, tally, discards, attacker, defender, number), events


def _after_leaving(state: DurakState, held: int, drawn: int, known: int, tally: int, discards: int, taken: bool,
                   events: list[Event]) -> tuple[DurakState, list[Event]]:
    """The end of a bout after which someone leaves the game (the deck is empty and a hand too)."""
    new = _after_bout(state, held, drawn, (), known, tally, discards)
    players = state.setup.players
    out = list(state.left)
    for other in range(players):
        if not out[other] and not held >> _LANES[other] & FULL:
            out[other] = state.bout_number
            events.append(LeftGame(other))
    new.left = tuple(out)
    playing = [s for s in range(players) if not out[s]]
    if len(playing) <= 1:
        _finish(new, playing[0] if playing else None, "one player holds cards" if playing
                else "nobody holds cards", events)
        return new, events
    if state.bout_number >= state.setup.bout_limit:
        _finish(new, None, f"bout limit {state.setup.bout_limit} reached", events)
        return new, events
    _next_bout(new, state, taken, events)
    return new, events


_after_bout = updater(DurakState, "held", "drawn", "bout", "known", "tally", "discards")
_after_next_bout = updater(DurakState, "held", "drawn", "bout", "known", "tally", "discards", "attacker", "defender",
                           "bout_number")


def _next_bout(new: DurakState, state: DurakState, taken: bool, events: list[Event]) -> None:
    """Start the next bout in ``new``: the taker misses his turn; a successful defender attacks (if still playing)."""
    out, defender, players = new.left, state.defender, state.setup.players
    if taken or out[defender]:
        attacker = next_in_game(new, defender)
    else:
        attacker = defender
    defender = (attacker + 1) % players
    if out[defender]:
        defender = next_in_game(new, attacker)
    new.attacker, new.defender = attacker, defender
    number = new.bout_number = state.bout_number + 1
    events.append(_bout_start(number, attacker, defender))


def _bout_start(number: int, attacker: Seat, defender: Seat) -> BoutStarted:
    """The event of a bout's start; those of the first bouts are kept in ``_BOUTS`` and shared."""
    if number >= _SHARED_BOUTS:
        return _bout_started(number, attacker, defender)
    i = number * 25 + attacker * 5 + defender
    started = _BOUTS[i]
    if started is None:
        started = _BOUTS[i] = _bout_started(number, attacker, defender)
    return started


def _finish(new: DurakState, fool: Seat | None, reason: str, events: list[Event]) -> None:
    """End the game with ``fool`` (``None``: a draw)."""
    new.over, new.fool = True, fool
    events.append(GameOver(fool, winner_of(new.left), reason))


def _lowest_trump_holder(hands: Sequence[int]) -> Seat | None:
    """The seat holding the lowest trump (position masks: trumps at 27–35, by rank), or ``None``."""
    best: tuple[int, Seat] | None = None
    for seat, hand in enumerate(hands):
        trumps = hand >> 27
        if trumps and (best is None or trumps & -trumps < best[0]):
            best = (trumps & -trumps, seat)
    return None if best is None else best[1]


__all__ = ["DurakGame", "DurakObservation", "DurakSetup", "DurakState", "Stop", "Take", "position_state"]
