"""Crazy Eights: the flow of a game (deal, play, draw, pass, round end, scoring)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Final

from cardtable.core.errors import InvalidOptions
from cardtable.core.events import Event
from cardtable.core.fast import TrustedActions, constructor
from cardtable.core.game import Game, GameInfo
from cardtable.core.outcome import Outcome
from cardtable.core.rng import Seed, randrange, seeded, shuffled
from cardtable.core.state import updater
from cardtable.core.types import CardId, Seat
from cardtable.games.crazy_eights.actions import (
    ACTION_TYPES,
    DRAW,
    PASS,
    PLAYS_OF_CARD,
    Action,
    Draw,
    Pass,
    Play,
    PlayEight,
    describe,
)
from cardtable.games.crazy_eights.events import (
    EVENT_TYPES,
    CardDrawn,
    CardPlayed,
    DrewCard,
    EightPlayed,
    GameEnded,
    HandDealt,
    Passed,
    RoundDealt,
    RoundEnd,
    RoundEnded,
    StockRebuilt,
    seat_name,
)
from cardtable.games.crazy_eights.observation import CrazyEightsObservation, RoundScore
from cardtable.games.crazy_eights.options import CrazyEightsOptions
from cardtable.games.crazy_eights.rules import (
    BIT,
    DECK,
    DECK_SIZE,
    EIGHTS,
    PENALTY,
    RANK_MASK,
    RANK_OF,
    SUIT_INDEX,
    SUIT_MASK,
    SUIT_NAMES,
    SUIT_OF,
    card_text,
    card_words,
    cards_of,
    is_eight,
)
from cardtable.games.crazy_eights.state import CrazyEightsState
from cardtable.games.crazy_eights.world import sample_world

_CardPlayedEvent = CardPlayed | EightPlayed

#: A round that reaches this many actions ends as if blocked. Legal play can in principle cycle
#: forever (cards drawn and played back); this bound never binds in ordinary games.
ROUND_ACTION_LIMIT: Final = 2000

#: MATCH[top * 4 + suit]: the mask of cards playable on ``top`` with ``suit`` in force.
MATCH: Final = tuple(SUIT_MASK[s] | RANK_MASK[RANK_OF[t]] | EIGHTS for t in range(DECK_SIZE) for s in range(4))

#: The bit of each card that is not an eight (0 for the eights): a plain Play's card must be one.
_NON_EIGHT_BIT: Final = tuple(0 if is_eight(c) else 1 << c for c in range(DECK_SIZE))

# Events are immutable, so the per-step ones are built once and shared: building frozen dataclasses
# was a large share of a random-play step.
_SEATS = range(6)
_CARD_DRAWN: Final = tuple(CardDrawn(s) for s in _SEATS)
_DREW_CARD: Final = tuple(tuple(DrewCard(s, c) for c in range(DECK_SIZE)) for s in _SEATS)
_CARD_PLAYED: Final = tuple(tuple(CardPlayed(s, c) for c in range(DECK_SIZE)) for s in _SEATS)
_EIGHT_PLAYED: Final = {(s, c, name): EightPlayed(s, c, name) for s in _SEATS for c in range(DECK_SIZE)
                        if is_eight(c) for name in SUIT_NAMES}
_PASSED: Final = tuple(tuple(Passed(s, p) for p in range(7)) for s in _SEATS)
_ALL_CARDS: Final = tuple(range(DECK_SIZE))
# Events of every round's start and end, built without the frozen dataclass __init__ (core.fast).
_round_dealt, _hand_dealt = constructor(RoundDealt), constructor(HandDealt)
_round_ended, _game_ended, _round_score = constructor(RoundEnded), constructor(GameEnded), constructor(RoundScore)

State = CrazyEightsState
Obs = CrazyEightsObservation
Options = CrazyEightsOptions
# This engine's own cached actions: checked at the edge once, here, not on every apply.
_TRUSTED = TrustedActions()
_TRUSTED_IDS = _TRUSTED.ids
_TRUSTED.add(*(a for plays in PLAYS_OF_CARD for a in plays), DRAW, PASS)


def playable_mask(state: State) -> int:
    """The cards of the seat to act that may be played now."""
    return state.hands[state.turn] & MATCH[state.top * 4 + state.suit]


def can_draw(state: State) -> bool:
    """Whether the seat to act has something to draw and the drawing rule lets it draw now."""
    return bool(state.stock or state.discards) and (state.draw_until or state.drawn == 0)


# Dealing.


def deal_round(state: State, order: Sequence[CardId]) -> list[Event]:
    """Deal ``state.round`` from ``order`` (top of the pack first) into ``state``, which is fresh and ours.

    One card at a time from the dealer's left, then the starter is turned; the rest is the
    stock, ``order``'s next card being drawn first. A turned eight's own suit is in force.
    """
    n, size = state.players, state.options.cards_each
    leader = (state.dealer + 1) % n
    dealt = n * size
    hands = [0] * n
    starter = order[dealt]
    suit = SUIT_OF[starter]
    events: list[Event] = [_round_dealt(state.round, state.dealer, size, starter, SUIT_NAMES[suit], leader)]
    shown: list[Event] = [events[0]] * n
    for k in range(n):  # seat leader + k gets every n-th card from the k-th on
        seat = (leader + k) % n
        cards = sorted(order[k:dealt:n])
        hands[seat] = sum(map(BIT.__getitem__, cards))
        shown[seat] = _hand_dealt(seat, tuple(cards))
    events += shown
    state.hands = tuple(hands)
    state.stock = tuple(reversed(order[dealt + 1:]))
    state.discards = 0
    state.top = starter
    state.suit = suit
    state.turn = leader
    state.drawn = state.passes = state.round_actions = 0
    state.last_drawn = None
    return events


def new_state(options: Options, seed: Seed) -> State:
    """A state before the first deal: empty sheet, RNG from ``seed`` (the dealer is drawn by the caller)."""
    state = CrazyEightsState.__new__(CrazyEightsState)
    state.options = options
    state.players = options.players
    state.draw_until = options.draw_until_playable
    state.round = 1
    state.dealer = 0
    state.sheet = ()
    state.totals = (0,) * options.players
    state.rng = seeded(seed)
    state.over = False
    return state


def _shuffled_deal(state: State) -> list[Event]:
    """Shuffle a full deck from the state's RNG and deal the round."""
    order, state.rng = shuffled(state.rng, _ALL_CARDS)
    return deal_round(state, order)


# Playing.


def _play(state: State, card: CardId, suit: int, events: list[Event]) -> None:
    """The seat to act puts ``card`` on the pile with ``suit`` in force; its last card ends the round."""
    seat = state.turn
    hands = list(state.hands)
    hand = hands[seat] = hands[seat] ^ BIT[card]
    state.hands = tuple(hands)
    state.discards |= BIT[state.top]
    state.top = card
    state.suit = suit
    state.drawn = state.passes = 0
    state.last_drawn = None
    if not hand:
        _end_round(state, "out", seat, events)
    else:
        state.turn = (seat + 1) % state.players


def _draw(state: State, events: list[Event]) -> None:
    """The seat to act draws the stock's top card, rebuilding an empty stock from the discards first."""
    seat = state.turn
    if not state.stock:
        # Rebuild from the discards under the top card; their order is irrelevant, so sort then shuffle.
        pile, state.rng = shuffled(state.rng, cards_of(state.discards))
        state.stock = tuple(pile)
        state.discards = 0
        events.append(StockRebuilt(len(pile)))
    stock = state.stock
    card = stock[-1]
    state.stock = stock[:-1]
    hands = list(state.hands)
    hands[seat] |= BIT[card]
    state.hands = tuple(hands)
    state.drawn += 1
    state.last_drawn = card
    state.passes = 0
    events.append(_CARD_DRAWN[seat])
    events.append(_DREW_CARD[seat][card])


def _pass(state: State, events: list[Event]) -> None:
    """The seat to act passes; the n-th pass in a row blocks the round."""
    state.passes += 1
    events.append(_PASSED[state.turn][state.passes])
    state.drawn = 0
    state.last_drawn = None
    if state.passes >= state.players:
        _end_round(state, "blocked", None, events)
    else:
        state.turn = (state.turn + 1) % state.players


# Scoring.


def _end_round(state: State, end: RoundEnd, went_out: Seat | None, events: list[Event]) -> None:
    """Score the hands held, then end the game or rotate the deal and deal the next round."""
    held = [tuple(cards_of(h)) for h in state.hands]
    penalties = tuple([sum(map(PENALTY.__getitem__, cards)) for cards in held])
    state.totals = totals = tuple([t + p for t, p in zip(state.totals, penalties)])
    state.sheet = state.sheet + (_round_score(state.round, state.dealer, end, went_out, penalties),)
    events.append(_round_ended(state.round, end, went_out, tuple(held), penalties, totals))
    if state.round >= state.options.rounds:
        state.over = True
        events.append(_game_ended(state.totals, winners(state.totals)))
        return
    state.round += 1
    state.dealer = (state.dealer + 1) % state.players
    events.extend(_shuffled_deal(state))


def winners(totals: tuple[int, ...]) -> tuple[Seat, ...]:
    """Every seat with the lowest total (a tie shares the win)."""
    low = min(totals)
    return tuple(s for s, t in enumerate(totals) if t == low)


def suit_text(state: State) -> str:
    """The suit in force in words, and why (an eight's named suit is not visible on the pile)."""
    name = SUIT_NAMES[state.suit].capitalize()
    top = card_words(state.top)
    if not is_eight(state.top):
        return f"{name} are in force: the suit of the {top}"
    if SUIT_OF[state.top] != state.suit:
        return f"{name} are in force, named with the {top}"
    return f"{name} are in force, set by the {top}"


# Stepping. The common steps (a card played that does not end the round, a card drawn from a
# non-empty stock) write the new state in one go; every other step takes the general path.

_after_play = updater(CrazyEightsState, "hands", "discards", "top", "suit", "turn", "drawn", "passes",
                      "last_drawn", "round_actions")
_after_draw = updater(CrazyEightsState, "hands", "stock", "drawn", "last_drawn", "passes", "round_actions")


def _step_play(state: State, seat: Seat, card: CardId, suit: int,
               event: _CardPlayedEvent) -> tuple[State, list[Event]]:
    """The seat to act (``seat``) plays ``card`` with ``suit`` in force."""
    hands = list(state.hands)
    hand = hands[seat] = hands[seat] ^ BIT[card]
    actions = state.round_actions + 1
    if hand and actions < ROUND_ACTION_LIMIT:
        return _after_play(state, tuple(hands), state.discards | BIT[state.top], card, suit,
                           (seat + 1) % state.players, 0, 0, None, actions), [event]
    new = state.copy()
    new.round_actions = actions
    events: list[Event] = [event]
    _play(new, card, suit, events)
    _check_limit(state, new, events)
    return new, events


def _step_draw(state: State, seat: Seat) -> tuple[State, list[Event]]:
    """The seat to act (``seat``) draws."""
    stock = state.stock
    actions = state.round_actions + 1
    if stock and actions < ROUND_ACTION_LIMIT:
        card = stock[-1]
        hands = list(state.hands)
        hands[seat] |= BIT[card]
        return (_after_draw(state, tuple(hands), stock[:-1], state.drawn + 1, card, 0, actions),
                [_CARD_DRAWN[seat], _DREW_CARD[seat][card]])
    return _step(state, seat, DRAW)


def _step(state: State, seat: Seat, action: Action) -> tuple[State, list[Event]]:
    """Any step, the general way: copy the state, then play, draw or pass on the copy."""
    new = state.copy()
    new.round_actions += 1
    events: list[Event] = []
    if type(action) is Play:
        card = action.card
        events.append(_CARD_PLAYED[seat][card])
        _play(new, card, SUIT_OF[card], events)
    elif type(action) is PlayEight:
        events.append(_EIGHT_PLAYED[seat, action.card, action.suit])
        _play(new, action.card, SUIT_INDEX[action.suit], events)
    elif type(action) is Draw:
        _draw(new, events)
    else:
        _pass(new, events)
    _check_limit(state, new, events)
    return new, events


def _check_limit(state: State, new: State, events: list[Event]) -> None:
    """End the round as blocked-by-limit if this step reached the safety limit without ending it."""
    if new.round == state.round and not new.over and new.round_actions >= ROUND_ACTION_LIMIT:
        _end_round(new, "limit", None, events)


class CrazyEightsGame(Game[CrazyEightsState, Action, CrazyEightsObservation, CrazyEightsOptions]):
    """Crazy Eights for 2–6 players: shed your cards; eights are wild and name the suit."""

    info = GameInfo(
        name="crazy_eights",
        title="Crazy Eights",
        description="Shed your hand by matching the suit in force or the rank of the top card; eights are wild "
                    "and name the suit. Penalty points for cards held; lowest total wins.",
        min_players=2,
        max_players=6,
        options_type=CrazyEightsOptions,
        action_types=ACTION_TYPES,
        event_types=EVENT_TYPES,
        observation_type=CrazyEightsObservation,
        deck=DECK,
        hidden_information=True,
    )
    trusted_ids = _TRUSTED_IDS

    def check_options(self, options: Options) -> None:
        """The seat range, and the deal must leave a starter card: 6 players × 9 cards does not fit."""
        super().check_options(options)
        needed = options.players * options.cards_each + 1
        if needed > DECK_SIZE:
            raise InvalidOptions(
                f"{options.players} players × {options.cards_each} cards plus the starter need {needed} cards; "
                f"the deck has {DECK_SIZE}")

    def new(self, options: Options, seed: Seed) -> tuple[State, list[Event]]:
        """Draw the first dealer at random, shuffle and deal round 1."""
        state = new_state(options, seed)
        state.dealer, state.rng = randrange(state.rng, options.players)
        return state, _shuffled_deal(state)

    # Flow.

    def to_act(self, state: State) -> Seat | None:
        """The seat to act; ``None`` once the last round is scored."""
        return None if state.over else state.turn

    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        """Playable cards (an eight once per suit it may name); else Draw if allowed; else Pass."""
        if state.over or seat != state.turn:
            return []
        playable = state.hands[seat] & MATCH[state.top * 4 + state.suit]
        if playable:
            out: list[Action] = []
            while playable:
                low = playable & -playable
                out.extend(PLAYS_OF_CARD[low.bit_length() - 1])
                playable ^= low
            return out
        if (state.stock or state.discards) and (state.draw_until or not state.drawn):
            return [DRAW]
        return [PASS]

    def why_illegal_now(self, state: State, seat: Seat, action: Action) -> str | None:
        """Why the well-formed ``action`` is illegal now (the same test ``legal_actions`` makes), or ``None``."""
        if state.over:
            return "the game is over"
        if seat != state.turn:
            return f"it is {seat_name(state.turn)}'s turn, not {seat_name(seat)}'s"
        if type(action) is Play:  # the hot path: the legal case of _why_play_illegal, inline
            card = action.card
            if 0 <= card < DECK_SIZE and state.hands[seat] & MATCH[state.top * 4 + state.suit] & _NON_EIGHT_BIT[card]:
                return None
            return self._why_play_illegal(state, action)
        if isinstance(action, (Play, PlayEight)):
            return self._why_play_illegal(state, action)
        playable = playable_mask(state)
        if isinstance(action, Draw):
            if playable:
                return f"you can play ({card_text(cards_of(playable)[0])}), so you may not draw"
            if not (state.stock or state.discards):
                return "there is nothing left to draw"
            return None if can_draw(state) else "you have already drawn your one card this turn"
        if isinstance(action, Pass):
            if playable:
                return f"you can play {card_text(cards_of(playable)[0])}, so you may not pass"
            return "you can still draw a card, so you may not pass" if can_draw(state) else None
        return f"{action!r} is not a Crazy Eights action"

    def _why_play_illegal(self, state: State, action: Play | PlayEight) -> str | None:
        card = action.card
        if not 0 <= card < DECK_SIZE:
            return f"there is no card {card}"
        if not state.hands[state.turn] & BIT[card]:
            return f"you do not hold {card_text(card)}"
        if is_eight(card) != (type(action) is PlayEight):
            return ("an eight must name a suit, e.g. 'play 8♠ name hearts'" if is_eight(card)
                    else "only an eight names a suit")
        if not BIT[card] & MATCH[state.top * 4 + state.suit]:
            return (f"{card_text(card)} matches neither {SUIT_NAMES[state.suit]} (the suit in force) "
                    f"nor the rank of {card_text(state.top)}")
        return None

    def apply(self, state: State, seat: Seat, action: Action) -> tuple[State, list[Event]]:
        """Validate, then play, draw or pass (see ``Game.apply``); raises ``IllegalAction`` naming the reason.

        The engine's own actions (from ``legal_actions``) are checked here with the bit tests of
        ``why_illegal_now`` and stepped at once; anything else, and every illegal action, goes
        through the base class's full check and message.
        """
        if type(seat) is int and seat == state.turn and not state.over:
            kind = type(action)
            hands = state.hands
            if kind is Draw:  # no fields: every Draw is well-formed; _step_draw, inline (the hot path)
                if not hands[seat] & MATCH[state.top * 4 + state.suit] and (state.draw_until or not state.drawn):
                    stock = state.stock
                    actions = state.round_actions + 1
                    if stock and actions < ROUND_ACTION_LIMIT:
                        card = stock[-1]
                        new_hands = list(hands)
                        new_hands[seat] |= BIT[card]
                        return (_after_draw(state, tuple(new_hands), stock[:-1], state.drawn + 1, card, 0, actions),
                                [_CARD_DRAWN[seat], _DREW_CARD[seat][card]])
                    if stock or state.discards:
                        return _step(state, seat, action)
            elif id(action) in _TRUSTED_IDS:  # one of our own cached actions: its fields are known to fit
                if kind is Play:
                    card = action.card  # type: ignore[union-attr]
                    top = state.top
                    if hands[seat] & MATCH[top * 4 + state.suit] & _NON_EIGHT_BIT[card]:
                        hand = hands[seat] ^ BIT[card]
                        actions = state.round_actions + 1
                        if hand and actions < ROUND_ACTION_LIMIT:  # _step_play, inline (the hot path)
                            new_hands = list(hands)
                            new_hands[seat] = hand
                            return (_after_play(state, tuple(new_hands), state.discards | BIT[top], card,
                                                SUIT_OF[card], (seat + 1) % state.players, 0, 0, None, actions),
                                    [_CARD_PLAYED[seat][card]])
                        return _step_play(state, seat, card, SUIT_OF[card], _CARD_PLAYED[seat][card])
                elif kind is PlayEight:
                    card = action.card  # type: ignore[union-attr]
                    if hands[seat] >> card & 1:
                        suit = action.suit  # type: ignore[union-attr]
                        return _step_play(state, seat, card, SUIT_INDEX[suit], _EIGHT_PLAYED[seat, card, suit])
        return super().apply(state, seat, action)

    def apply_unchecked(self, state: State, seat: Seat, action: Action) -> tuple[State, list[Event]]:
        """Play, draw or pass for the seat to act; a round ending deals the next one."""
        if seat == state.turn:
            kind = type(action)
            if kind is Play:
                card = action.card  # type: ignore[union-attr]
                return _step_play(state, seat, card, SUIT_OF[card], _CARD_PLAYED[seat][card])
            if kind is Draw:
                return _step_draw(state, seat)
            if kind is PlayEight:
                card, suit = action.card, action.suit  # type: ignore[union-attr]
                return _step_play(state, seat, card, SUIT_INDEX[suit], _EIGHT_PLAYED[seat, card, suit])
        return _step(state, seat, action)

    # What leaves the engine.

    def observe(self, state: State, seat: Seat | None) -> Obs:
        """Own hand (sorted), the pile, the suit in force in words, counts, the score sheet."""
        self.check_observer(state, seat)
        own = seat is not None
        hand = tuple(cards_of(state.hands[seat])) if seat is not None else ()
        last = state.last_drawn if own and seat == state.turn and not state.over else None
        return CrazyEightsObservation(
            seat=seat, players=state.players, round=state.round, rounds=state.options.rounds,
            dealer=state.dealer, to_act=self.to_act(state), hand=hand, top=state.top,
            suit=SUIT_NAMES[state.suit], suit_text=suit_text(state), stock_count=len(state.stock),
            discard_count=state.discards.bit_count() + 1, hand_counts=tuple(h.bit_count() for h in state.hands),
            drawn_this_turn=state.drawn, last_drawn=last, passes_in_row=state.passes,
            draw_until_playable=state.draw_until, sheet=state.sheet, totals=state.totals, over=state.over,
            winners=winners(state.totals) if state.over else (), discard_pile=tuple(cards_of(state.discards)),
        )

    def outcome(self, state: State) -> Outcome | None:
        """Penalty totals (lower is better); every seat with the lowest total wins."""
        if not state.over:
            return None
        best = winners(state.totals)
        names = " and ".join(seat_name(s) for s in best)
        return Outcome(
            scores=tuple(float(t) for t in state.totals), winners=best,
            reason=f"lowest penalty total wins (scores are penalty points, lower is better): {names} "
                   f"with {min(state.totals)} after {len(state.sheet)} round(s)")

    def hidden_cards(self, state: State, seat: Seat | None) -> frozenset[CardId]:
        """Other seats' hands and the stock; the discards under the top card were seen when played."""
        mask = 0
        for s, hand in enumerate(state.hands):
            if s != seat:
                mask |= hand
        for card in state.stock:
            mask |= BIT[card]
        return frozenset(cards_of(mask))

    def players(self, state: State) -> int:
        """The number of seats."""
        return state.players

    def max_actions(self, options: Options) -> int:
        """Each round ends by its action limit at the latest."""
        return options.rounds * ROUND_ACTION_LIMIT

    def describe_action(self, action: Action) -> str:
        """"Play seven of spades", "Play eight of spades, name hearts", "Draw a card", "Pass"."""
        return describe(action)

    # Search.

    def sample_world(self, observation: Obs, rng: random.Random) -> State:
        """A full state consistent with ``observation`` (see ``crazy_eights.world``)."""
        return sample_world(observation, rng)

    # Statistics.

    def seat_stats(self, state: State) -> Sequence[Mapping[str, float]]:
        """Per seat: rounds played, rounds won by going out, penalty points."""
        return [{"rounds": float(len(state.sheet)),
                 "went_out": float(sum(1 for r in state.sheet if r.went_out == s)),
                 "penalty": float(state.totals[s])} for s in range(state.players)]

    stat_rates = {"out_rate": ("went_out", "rounds"), "penalty_per_round": ("penalty", "rounds")}
