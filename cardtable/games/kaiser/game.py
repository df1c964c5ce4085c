"""Kaiser's flow: deal, one round of bidding, trump, eight tricks, scoring, until a side wins."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from cardtable.cards import KAISER_32
from cardtable.core.events import Event
from cardtable.core.fast import TrustedActions
from cardtable.core.game import Game, GameInfo
from cardtable.core.outcome import Outcome
from cardtable.core.rng import Seed, seeded, shuffled
from cardtable.core.search import SearchHints
from cardtable.core.types import CardId, Seat
from cardtable.games.kaiser import rules
from cardtable.games.kaiser.actions import (
    ACTION_TYPES,
    NAME_TRUMPS,
    PASS,
    PLAYS,
    Bid,
    KaiserAction,
    NameTrump,
    Pass,
    Play,
    describe,
)
from cardtable.games.kaiser.events import (
    EVENT_TYPES,
    BidMade,
    CardPlayed,
    CardsDealt,
    ContractWon,
    GameEnded,
    HandScored,
    HandStarted,
    TrickTaken,
    TrumpNamed,
)
from cardtable.games.kaiser.observation import (
    BidView,
    ContractView,
    HandResult,
    KaiserObservation,
    PlayedCard,
)
from cardtable.games.kaiser.options import KaiserOptions
from cardtable.games.kaiser.rules import HAND_CAP, game_verdict
from cardtable.games.kaiser.state import BIDDING, OVER, PHASE_NAMES, PLAY, TRUMP, KaiserState

FIRST_DEALER: Seat = 3
"""Seat 3 deals the first hand, so seat 0 bids first; the deal then moves left (to the next seat)."""
ACTIONS_PER_HAND = 4 + 1 + 32
#: SUIT_PLAYS[suit][byte]: the Play actions for one suit's 8-bit slice of a hand, lowest first.
SUIT_PLAYS: tuple[tuple[tuple[Play, ...], ...], ...] = tuple(
    tuple(tuple(PLAYS[c] for c in cards) for cards in suit) for suit in rules.SUIT_CARDS
)
ALL_BIDS: tuple[Bid, ...] = tuple(Bid(p, nt) for p in range(5, rules.MAX_BID + 1) for nt in (False, True))
# This engine's own cached actions: checked at the edge once, here, not on every apply.
_TRUSTED = TrustedActions()
_TRUSTED.add(*PLAYS, *NAME_TRUMPS, *ALL_BIDS, PASS)
_TRUSTED_IDS = _TRUSTED.ids


class KaiserGame(Game[KaiserState, KaiserAction, KaiserObservation, KaiserOptions]):
    """Kaiser for four players in two partnerships (see docs/rules/kaiser.md)."""

    info = GameInfo(
        name="kaiser",
        title="Kaiser",
        description=("The prairie partnership game: 32 cards, one round of bidding, trump or no trump; "
                     "the 5♥ is worth five and the 3♠ costs three."),
        min_players=4,
        max_players=4,
        options_type=KaiserOptions,
        action_types=ACTION_TYPES,
        event_types=EVENT_TYPES,
        observation_type=KaiserObservation,
        deck=KAISER_32,
        hidden_information=True,
        has_teams=True,
    )
    trusted_ids = _TRUSTED_IDS

    # Setup.

    def new(self, options: KaiserOptions, seed: Seed) -> tuple[KaiserState, list[Event]]:
        """A new game: seat 3 deals the first hand."""
        state = KaiserState.__new__(KaiserState)
        state.options = options
        state.rng = seeded(seed)
        state.totals = (0, 0)
        state.sheet = ()
        state.result = None
        state.hand_no = 0
        state.last_trick = ()
        state.last_winner = -1
        events: list[Event] = []
        _start_hand(state, FIRST_DEALER, events)
        return state, events

    def teams(self, options: KaiserOptions) -> tuple[tuple[Seat, ...], ...]:
        """Seats 0 and 2 against seats 1 and 3."""
        return rules.TEAMS

    def players(self, state: KaiserState) -> int:
        """Always four."""
        return 4

    def max_actions(self, options: KaiserOptions) -> int:
        """At most HAND_CAP hands of 4 calls, a trump and 32 cards."""
        return HAND_CAP * ACTIONS_PER_HAND

    # Flow.

    def to_act(self, state: KaiserState) -> Seat | None:
        """The seat to bid, name trump or play; ``None`` once the game is over."""
        return None if state.phase == OVER else state.turn

    def legal_actions(self, state: KaiserState, seat: Seat) -> list[KaiserAction]:
        """Pass then bids low to high; the four suits; or the playable cards, lowest id first."""
        if state.phase == OVER or seat != state.turn:
            return []
        if state.phase == PLAY:
            hand = state.hands[seat]
            if state.trick:
                led = state.trick[0][1] >> 3
                follow = hand >> (8 * led) & 0xFF
                if follow:
                    return list(SUIT_PLAYS[led][follow])
            return [*SUIT_PLAYS[0][hand & 0xFF], *SUIT_PLAYS[1][hand >> 8 & 0xFF],
                    *SUIT_PLAYS[2][hand >> 16 & 0xFF], *SUIT_PLAYS[3][hand >> 24 & 0xFF]]
        if state.phase == TRUMP:
            return list(NAME_TRUMPS)
        return _legal_calls(state, seat)

    def why_illegal_now(self, state: KaiserState, seat: Seat, action: KaiserAction) -> str | None:
        """Why the action is illegal, in words; ``None`` exactly when it is among the legal actions (none built)."""
        if state.phase == OVER:
            return "the game is over"
        if seat != state.turn:
            return f"it is seat {state.turn}'s turn, not seat {seat}'s"
        if _is_legal(state, seat, action):
            return None
        return _reason(state, seat, action)

    def apply_unchecked(self, state: KaiserState, seat: Seat,
                        action: KaiserAction) -> tuple[KaiserState, list[Event]]:
        """The state after a legal action, and what happened."""
        new = state.copy()
        events: list[Event] = []
        if isinstance(action, Play):
            _play(new, seat, action.card, events)
        elif isinstance(action, NameTrump):
            new.trump = action.index
            new.phase = PLAY
            new.leader = new.turn = seat
            events.append(TrumpNamed(seat, action.suit))
        else:
            _call(new, seat, action, events)
        return new, events

    # What leaves the engine.

    def observe(self, state: KaiserState, seat: Seat | None) -> KaiserObservation:
        """What ``seat`` may know: its own hand and everything public."""
        self.check_observer(state, seat)
        return _observe(state, seat)

    def outcome(self, state: KaiserState) -> Outcome | None:
        """The side's total for each seat, and the winning side's seats."""
        return state.result

    def hidden_cards(self, state: KaiserState, seat: Seat | None) -> frozenset[CardId]:
        """Every card in a hand other than the observer's own."""
        mask = 0
        for s, hand in enumerate(state.hands):
            if s != seat:
                mask |= hand
        return frozenset(rules.cards_of(mask))

    # Search.

    def sample_world(self, observation: KaiserObservation, rng: random.Random) -> KaiserState:
        """A full state consistent with ``observation`` (see ``kaiser.world``)."""
        from cardtable.games.kaiser import world

        return world.sample_world(observation, rng)

    def search_hints(self) -> SearchHints:
        """Play the hand out with a cheap trick-taking policy; value the change of score."""
        from cardtable.games.kaiser import world

        return world.HINTS

    def describe_action(self, action: KaiserAction) -> str:
        """ "Bid 7", "Bid 7 no trump", "Pass", "Name hearts as trump", "Play five of hearts"."""
        return describe(action)

    # Statistics.

    def seat_stats(self, state: KaiserState) -> Sequence[Mapping[str, float]]:
        """Per seat: hands played, contracts won in the bidding, contracts made."""
        stats: list[dict[str, float]] = [{"hands": 0, "contracts": 0, "contracts_made": 0} for _ in range(4)]
        for line in state.sheet:
            for s in range(4):
                stats[s]["hands"] += 1
            stats[line.bidder]["contracts"] += 1
            stats[line.bidder]["contracts_made"] += 1 if line.made else 0
        return stats

    stat_rates = {"contract_made_rate": ("contracts_made", "contracts")}


# Dealing.

_ALL_CARDS = tuple(range(32))


def _start_hand(state: KaiserState, dealer: Seat, events: list[Event]) -> None:
    """Shuffle with the state's RNG and deal 8 cards to each seat, starting left of the dealer."""
    deck, state.rng = shuffled(state.rng, _ALL_CARDS)
    hands = [0, 0, 0, 0]
    for i in range(4):
        hands[(dealer + 1 + i) % 4] = rules.mask_of(deck[8 * i: 8 * i + 8])
    state.hand_no += 1
    events.append(HandStarted(state.hand_no, dealer))
    for seat in range(4):
        events.append(CardsDealt(seat, tuple(rules.cards_of(hands[seat]))))
    set_deal(state, dealer, hands)


def set_deal(state: KaiserState, dealer: Seat, hands: Sequence[int]) -> None:
    """Put the hands on the table and open the bidding left of the dealer (used by the testing aid too)."""
    state.hands = (hands[0], hands[1], hands[2], hands[3])
    state.dealer = dealer
    state.phase = BIDDING
    state.turn = (dealer + 1) % 4
    state.bids = ()
    state.high = -1
    state.high_bidder = -1
    state.trump = -1
    state.leader = -1
    state.trick = ()
    state.played = ()
    state.last_trick = ()
    state.last_winner = -1
    state.tricks = (0, 0)
    state.points = (0, 0)


# Bidding.


def _legal_calls(state: KaiserState, seat: Seat) -> list[KaiserAction]:
    """Pass (unless the dealer is forced), then every bid from the floor that beats the highest."""
    opts = state.options
    out: list[KaiserAction] = []
    if not (seat == state.dealer and state.high < 0):
        out.append(PASS)
    floor_value = rules.bid_value(opts.floor, False)
    for bid in ALL_BIDS:
        value = rules.bid_value(bid.points, bid.no_trump)
        if value > state.high and value >= floor_value and (opts.no_trump or not bid.no_trump):
            out.append(bid)
    return out


def _call(state: KaiserState, seat: Seat, action: Bid | Pass, events: list[Event]) -> None:
    """Record a bid or pass; after the dealer's call the highest bidder takes the contract."""
    if isinstance(action, Bid):
        state.bids = state.bids + ((seat, action.points, action.no_trump),)
        state.high = rules.bid_value(action.points, action.no_trump)
        state.high_bidder = seat
        events.append(BidMade(seat, action.points, action.no_trump))
    else:
        state.bids = state.bids + ((seat, 0, False),)
        events.append(BidMade(seat, 0, False))
    if seat != state.dealer:
        state.turn = (seat + 1) % 4
        return
    # The bidding is over: no trump starts play at once, a suit bid waits for trump to be named.
    bidder = state.high_bidder
    events.append(ContractWon(bidder, state.bid_points, state.bid_no_trump))
    state.turn = bidder
    if state.bid_no_trump:
        state.trump = rules.NO_TRUMP
        state.phase = PLAY
        state.leader = bidder
    else:
        state.phase = TRUMP


# Play.


def _play(state: KaiserState, seat: Seat, card: CardId, events: list[Event]) -> None:
    """Play a card; a fourth card closes the trick, the eighth trick closes the hand."""
    hands = list(state.hands)
    hands[seat] &= ~(1 << card)
    state.hands = (hands[0], hands[1], hands[2], hands[3])
    trick = state.trick + ((seat, card),)
    events.append(CardPlayed(seat, card))
    if len(trick) < 4:
        state.trick = trick
        state.turn = (seat + 1) % 4
        return
    # The trick is complete: the winner takes its points and leads the next.
    winner = rules.trick_winner(trick, state.trump)
    cards = tuple(c for _, c in trick)
    worth = rules.trick_points(cards)
    side = winner & 1
    tricks, points = list(state.tricks), list(state.points)
    tricks[side] += 1
    points[side] += worth
    state.tricks, state.points = (tricks[0], tricks[1]), (points[0], points[1])
    state.trick, state.last_trick, state.last_winner = (), trick, winner
    state.played = state.played + trick
    state.leader = state.turn = winner
    events.append(TrickTaken(winner, cards, worth))
    if state.hands[winner] == 0:
        _score_hand(state, events)


# Scoring.


def _score_hand(state: KaiserState, events: list[Event]) -> None:
    """Score the hand, then end the game or deal the next hand."""
    bidder = state.high_bidder
    side, bid, no_trump = bidder & 1, state.bid_points, state.bid_no_trump
    taken = state.points
    made = taken[side] >= bid
    change = [0, 0]
    change[side] = rules.hand_score(bid, no_trump, taken[side])
    change[1 - side] = taken[1 - side]  # defenders always keep what they took
    totals = (state.totals[0] + change[0], state.totals[1] + change[1])
    trump_words = "no trump" if no_trump else rules.SUIT_WORDS[state.trump]
    line = HandResult(state.hand_no, state.dealer, bidder, bid, no_trump, trump_words, made, taken,
                      (change[0], change[1]), totals)
    state.totals = totals
    state.sheet = state.sheet + (line,)
    events.append(HandScored(state.hand_no, bidder, bid, no_trump, made, taken, line.change, totals))
    verdict = game_verdict(totals, side, state.options.target, state.hand_no)
    if verdict is None:
        # The last trick is cleared with the new deal: its cards are back in (hidden) hands.
        _start_hand(state, (state.dealer + 1) % 4, events)
        return
    winners, reason = verdict
    state.phase, state.turn = OVER, -1
    state.result = Outcome((float(totals[0]), float(totals[1])) * 2, winners, reason)
    events.append(GameEnded(winners, reason))


# Messages.


def _is_legal(state: KaiserState, seat: Seat, action: KaiserAction) -> bool:
    """The test ``legal_actions`` makes, for one well-formed action of the seat to act."""
    if isinstance(action, Play):
        if state.phase != PLAY or not state.hands[seat] >> action.card & 1:
            return False
        if not state.trick:
            return True
        led = state.trick[0][1] >> 3
        return action.card >> 3 == led or not state.hands[seat] >> (8 * led) & 0xFF
    if isinstance(action, NameTrump):
        return state.phase == TRUMP
    if state.phase != BIDDING:
        return False
    if isinstance(action, Pass):
        return not (seat == state.dealer and state.high < 0)
    opts = state.options
    value = rules.bid_value(action.points, action.no_trump)
    return (5 <= action.points <= rules.MAX_BID and value > state.high
            and value >= rules.bid_value(opts.floor, False) and (opts.no_trump or not action.no_trump))


def _reason(state: KaiserState, seat: Seat, action: Any) -> str:
    """Why a (non-legal) action is refused, in words."""
    phase = PHASE_NAMES[state.phase]
    if isinstance(action, Play):
        if state.phase != PLAY:
            return f"cards are not played during the {phase}"
        if not 0 <= action.card < 32 or not state.hands[seat] >> action.card & 1:
            return f"you do not hold {action.text()[5:]}"
        return f"you must follow {rules.SUIT_WORDS[state.trick[0][1] >> 3]}"
    if isinstance(action, NameTrump):
        return "trump is named only by the winning bidder of a suit contract, after the bidding"
    if isinstance(action, (Bid, Pass)) and state.phase != BIDDING:
        return "the bidding is over"
    if isinstance(action, Pass):
        return "the dealer must bid when the other three have passed"
    if isinstance(action, Bid):
        if action.no_trump and not state.options.no_trump:
            return "no-trump bids are not allowed in this game"
        if not state.options.floor <= action.points <= rules.MAX_BID:
            return f"bids run from {state.options.floor} to {rules.MAX_BID}"
        return "a bid must beat the highest bid so far"
    return "not a Kaiser action"


# Observation.


def _bid_words(points: int, no_trump: bool) -> str:
    return "pass" if points == 0 else f"{points}{' no trump' if no_trump else ''}"


def _played(trick: Sequence[tuple[int, int]]) -> tuple[PlayedCard, ...]:
    return tuple(PlayedCard(s, c, rules.CARD_TEXT[c], rules.CARD_WORDS[c]) for s, c in trick)


def _contract(state: KaiserState) -> ContractView | None:
    """The contract once the bidding is over."""
    if state.phase == BIDDING or state.high_bidder < 0:
        return None
    pts, nt, bidder = state.bid_points, state.bid_no_trump, state.high_bidder
    if nt:
        trump, words = None, f"Seat {bidder} bid {pts} no trump"
    elif state.trump >= 0:
        trump = rules.SUIT_WORDS[state.trump]
        words = f"Seat {bidder} bid {pts} with {trump} as trump"
    else:
        trump, words = None, f"Seat {bidder} bid {pts}; trump not yet named"
    return ContractView(bidder, pts, nt, trump, words)


def _status(state: KaiserState) -> str:
    """Whose turn it is and to do what, in words."""
    if state.phase == OVER:
        return f"Game over: {state.result.reason if state.result else ''}"
    doing = ("bid", "name trump", "play")[state.phase]
    return f"Seat {state.turn} to {doing}"


def _observe(state: KaiserState, seat: Seat | None) -> KaiserObservation:
    """Build the observation for a seat or a spectator."""
    bids = tuple(BidView(s, p, nt, _bid_words(p, nt)) for s, p, nt in state.bids)
    high = next((b for b in reversed(bids) if b.points), None)
    trump = {-1: "not yet named", rules.NO_TRUMP: "no trump"}.get(state.trump)
    hand: tuple[int, ...] = ()
    if seat is not None and 0 <= seat < 4:
        hand = rules.sort_hand(state.hands[seat], state.trump)
    return KaiserObservation(
        seat=seat, phase=PHASE_NAMES[state.phase], to_act=None if state.phase == OVER else state.turn,
        dealer=state.dealer, hand_number=state.hand_no, hand=hand,
        hand_sizes=tuple(h.bit_count() for h in state.hands), bids=bids, high_bid=high,
        contract=_contract(state), trump=trump if trump is not None else rules.SUIT_WORDS[state.trump],
        leader=state.leader if state.phase == PLAY else None,
        trick=_played(state.trick), played=_played(state.played), last_trick=_played(state.last_trick),
        last_trick_winner=state.last_winner if state.last_trick else None,
        tricks_taken=state.tricks, points_taken=state.points, score_sheet=state.sheet, totals=state.totals,
        teams=rules.TEAMS, floor=state.options.floor, no_trump_allowed=state.options.no_trump,
        target=state.options.target, status=_status(state),
    )
