"""The Wizard engine: dealing, trump, bidding, tricks and scoring as a state machine."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from operator import add, eq
from typing import Any

from cardtable.cards import WIZARD_60, CardId
from cardtable.core import Event, Game, GameInfo, InvalidOptions, Outcome, Seat
from cardtable.core.errors import IllegalAction
from cardtable.core.fast import TrustedActions, constructor
from cardtable.core.rng import Seed, randrange, seeded, shuffled
from cardtable.core.search import SearchHints
from cardtable.core.state import updater
from cardtable.games.wizard import events as ev
from cardtable.games.wizard import rules
from cardtable.games.wizard.actions import Bid, ChooseTrump, Play, WizardAction
from cardtable.games.wizard.observation import PlayedCard, WizardObservation
from cardtable.games.wizard.options import PRESETS, RoundsChoice, WizardOptions
from cardtable.games.wizard.replay import ReplayCodes
from cardtable.games.wizard.replay import replay as quiet_replay
from cardtable.games.wizard.replay import replay_decoded as quiet_replay_decoded
from cardtable.games.wizard.state import BIDDING, CHOOSING_TRUMP, FINISHED, PLAYING, WizardState, pack_row

_PLAY = tuple(Play(c) for c in range(rules.DECK_SIZE))


def _plays_by_bits(first: int, width: int) -> tuple[tuple[Play, ...], ...]:
    """``table[bits]``: the ``Play`` of card ``first + i`` for each bit ``i`` of ``bits``, ascending."""
    table: list[tuple[Play, ...]] = [()]
    for bits in range(1, 1 << width):
        low = (bits & -bits).bit_length() - 1
        table.append((_PLAY[first + low], *table[bits & (bits - 1)]))
    return tuple(table)


# The Play actions of a hand, by suit: _SUIT_PLAYS[suit][the suit's 13 bits], then _SPECIAL_PLAYS[bits 52–59]
# (wizards and jesters come after every suit in id order): a legal list is two to five lookups, no loop over
# bits (3.2 MB of shared tuples, built at import in a few ms).
_SUIT_PLAYS = tuple(_plays_by_bits(13 * suit, 13) for suit in range(4))
_S0, _S1, _S2, _S3 = _SUIT_PLAYS
_SPECIAL_PLAYS = _plays_by_bits(rules.FIRST_WIZARD, 8)
# Events are immutable: the per-decision ones with few possible values are built once and shared;
# the others are built without the frozen dataclass __init__ (core.fast).
_SEATS = range(rules.MAX_PLAYERS)
_MAX_BID = rules.DECK_SIZE // rules.MIN_PLAYERS
_CARD_PLAYED = tuple(tuple(ev.CardPlayed(s, c) for c in range(rules.DECK_SIZE)) for s in _SEATS)
_BID_PLACED = tuple(tuple(ev.BidPlaced(s, k) for k in range(_MAX_BID + 1)) for s in _SEATS)
_OWN_BID = tuple(tuple(ev.OwnBid(s, k) for k in range(_MAX_BID + 1)) for s in _SEATS)
_HIDDEN_BID_PLACED = tuple(ev.HiddenBidPlaced(s) for s in _SEATS)
_trick_won = constructor(ev.TrickWon)
_hand_dealt = constructor(ev.HandDealt)
_round_started, _trump_turned = constructor(ev.RoundStarted), constructor(ev.TrumpTurned)
_round_scored = constructor(ev.RoundScored)
_BID = tuple(Bid(k) for k in range(rules.DECK_SIZE // rules.MIN_PLAYERS + 1))
_BIDS_UPTO = tuple(_BID[:n + 1] for n in range(len(_BID)))  # the bids of round n: 0 … n
_CHOOSE = tuple(ChooseTrump(name) for name in rules.SUITS)  # type: ignore[arg-type]
_ALL_CARDS = tuple(range(rules.DECK_SIZE))
_DECK = rules.DECK_SIZE
# This engine's own cached actions: checked at the edge once, here, not on every apply.
_TRUSTED = TrustedActions()
_TRUSTED_IDS = _TRUSTED.ids
_TRUSTED.add(*_PLAY, *_BID, *_CHOOSE)
_SUIT_MASK, _SPECIAL_MASK = rules.SUIT_MASK, rules.SPECIAL_MASK
_STRENGTH = rules.STRENGTH
_BIT = tuple(1 << c for c in range(rules.DECK_SIZE))
_CLEAR = tuple(~(1 << c) for c in range(rules.DECK_SIZE))  # a hand without card c: hand & _CLEAR[c]
_FOLLOW = tuple(m | _SPECIAL_MASK for m in _SUIT_MASK)  # what may be played on a suit led, if held
_NO_LEAD, _WIZARD_LED = rules.NO_LEAD_YET, rules.WIZARD_LED
_after_play = updater(WizardState, "hands", "trick", "lead", "to_act")  # a card played, the trick going on
_after_bid = updater(WizardState, "bids", "to_act")  # a bid before the dealer's
_FIRST_WIZARD, _FIRST_JESTER = rules.FIRST_WIZARD, rules.FIRST_JESTER
_CODES = ReplayCodes(_PLAY, _BID, _CHOOSE)  # the quiet replay's int per cached action (and per shared pair)

INFO = GameInfo(
    name="wizard",
    title="Wizard",
    description="60 cards, one more each round until the pack runs out; bid your tricks exactly.",
    min_players=rules.MIN_PLAYERS,
    max_players=rules.MAX_PLAYERS,
    options_type=WizardOptions,
    action_types=(Bid, ChooseTrump, Play),
    event_types=ev.EVENT_TYPES,
    observation_type=WizardObservation,
    deck=WIZARD_60,
    hidden_information=True,
    has_teams=False,
    presets=PRESETS,
)


def _rounds_choice(rounds: int, players: int) -> RoundsChoice:
    """The ``rounds`` option that gives a game of ``rounds`` rounds."""
    return "all" if rounds == rules.total_rounds(players) else rounds  # type: ignore[return-value]


class WizardGame(Game[WizardState, WizardAction, WizardObservation, WizardOptions]):
    """Wizard for 3–6 players, official rules by default, house rules as toggles."""

    info = INFO
    trusted_ids = _TRUSTED_IDS
    stat_rates = {"exact_bid_rate": ("exact_bids", "rounds")}

    # Setup.

    def check_options(self, options: WizardOptions) -> None:
        """Players 3–6 and a first dealer that is a seat (or -1)."""
        super().check_options(options)
        if not -1 <= options.first_dealer < options.players:
            raise InvalidOptions(f"first_dealer must be -1 or a seat 0–{options.players - 1}, "
                                 f"not {options.first_dealer}")

    def new(self, options: WizardOptions, seed: Seed) -> tuple[WizardState, list[Event]]:
        """Draw the first dealer (unless fixed by the options) and deal round 1."""
        return self.new_with_decks(options, seed, ())

    def new_with_decks(self, options: WizardOptions, seed: Seed,
                       decks: Sequence[Sequence[CardId]]) -> tuple[WizardState, list[Event]]:
        """Testing aid: like ``new``, but round i is dealt from ``decks[i]`` (60 ids, top first) when given.

        Rounds beyond ``decks`` are shuffled from the seed as usual. See ``testing.stack_deck``.
        """
        self.check_options(options)
        for deck in decks:
            if sorted(deck) != list(_ALL_CARDS):
                raise ValueError("a scripted deck must hold each of the 60 card ids once")
        events: list[Event] = []
        return self._fresh(options, seed, decks, events), events

    def _fresh(self, options: WizardOptions, seed: Seed, decks: Sequence[Sequence[CardId]],
               events: list[Event] | None) -> WizardState:
        """A new game's state, round 1 dealt, from checked options; its events go to ``events`` (none if None)."""
        rng = seeded(seed)
        dealer = options.first_dealer
        if dealer < 0:
            dealer, rng = randrange(rng, options.players)
        s = WizardState.__new__(WizardState)
        s.options, s.rng, s.decks = options, rng, tuple(tuple(d) for d in decks)
        s.round, s.rounds, s.dealer = 0, options.game_rounds(), (dealer - 1) % options.players
        s.totals = s.exact = (0,) * options.players
        s.rows = ()
        self._start_round(s, events)
        return s

    def _start_round(self, s: WizardState, events: list[Event] | None) -> None:
        """Move the deal one seat left and deal the next round into ``s``; with ``events=None`` build none."""
        p = s.options.players
        s.round += 1
        s.dealer = (s.dealer + 1) % p
        n = s.round
        # Shuffle, or take the scripted deck.
        if s.decks:
            deck, s.decks = list(s.decks[0]), s.decks[1:]
        else:
            deck, s.rng = shuffled(s.rng, _ALL_CARDS)
        # Deal one at a time from the top, starting left of the dealer.
        hands, dealt, deal = [0] * p, [deck] * p, n * p
        for k in range(p):  # the k-th seat left of the dealer gets cards k, k + p, k + 2p, …
            seat = (s.dealer + 1 + k) % p
            dealt[seat] = cards = deck[k:deal:p]
            hands[seat] = sum(map(_BIT.__getitem__, cards))
        s.hands = tuple(hands)
        s.trump_card = deck[deal] if deal < rules.DECK_SIZE else None
        # The stack: every card neither dealt nor turned.
        s.stack_mask = rules.ALL_MASK ^ sum(hands) ^ (0 if s.trump_card is None else _BIT[s.trump_card])
        if events is not None:
            events.append(_round_started(n, s.dealer, n))
            events.extend([_hand_dealt(seat, tuple(sorted(cards))) for seat, cards in enumerate(dealt)])
        self._turn_trump(s, events)
        # Reset the round's table.
        s.bids, s.tricks = (-1,) * p, (0,) * p
        s.leader, s.lead, s.trick, s.played = (s.dealer + 1) % p, rules.NO_LEAD_YET, (), ()
        s.last_trick, s.last_leader, s.last_winner = (), 0, None

    def _turn_trump(self, s: WizardState, events: list[Event] | None) -> None:
        """Set trump from the turned card; a wizard under ``dealer_chooses`` asks the dealer first."""
        card = s.trump_card
        s.trump = -1 if (suit := rules.trump_suit(card)) is None else suit
        chooses = card is not None and rules.is_wizard(card) and s.options.wizard_trump == "dealer_chooses"
        if chooses:
            s.phase, s.to_act = CHOOSING_TRUMP, s.dealer
        else:
            s.phase, s.to_act = BIDDING, (s.dealer + 1) % s.options.players
        if events is not None:
            events.append(_trump_turned(card, rules.suit_name(suit), chooses))

    # Flow.

    def to_act(self, state: WizardState) -> Seat | None:
        """The seat that must act now; None once the game is over."""
        return state.to_act

    def players(self, state: WizardState) -> int:
        """The number of seats."""
        return state.options.players

    def allowed_bids(self, state: WizardState) -> list[int]:
        """The bids the seat to act may make now (the sum rule can remove one for the last bidder)."""
        n = state.round
        bids = list(range(n + 1))
        if state.options.bids_may_not_equal_tricks and state.to_act == state.dealer:
            forbidden = self.forbidden_bid(state)
            if forbidden is not None:
                bids.remove(forbidden)
        return bids

    def forbidden_bid(self, state: WizardState) -> int | None:
        """Under the sum rule, the one bid the last bidder may not make now (None if none)."""
        if (state.phase != BIDDING or not state.options.bids_may_not_equal_tricks
                or state.to_act != state.dealer):
            return None
        value = state.round - sum(b for b in state.bids if b >= 0)
        return value if 0 <= value <= state.round else None

    def legal_actions(self, state: WizardState, seat: Seat) -> list[WizardAction]:
        """Every legal action of ``seat``: bids ascending, suits in deck order, cards by id."""
        if seat != state.to_act:
            return []
        if state.phase == PLAYING:
            m = state.hands[seat]
            lead = state.lead
            if 0 <= lead < 4 and m & _SUIT_MASK[lead]:  # must follow: that suit, wizards and jesters
                return [*_SUIT_PLAYS[lead][m >> 13 * lead & 0x1FFF], *_SPECIAL_PLAYS[m >> 52]]
            return [*_S0[m & 0x1FFF], *_S1[m >> 13 & 0x1FFF], *_S2[m >> 26 & 0x1FFF], *_S3[m >> 39 & 0x1FFF],
                    *_SPECIAL_PLAYS[m >> 52]]
        if state.phase == BIDDING:
            if state.options.bids_may_not_equal_tricks and seat == state.dealer:
                return [_BID[k] for k in self.allowed_bids(state)]
            return list(_BIDS_UPTO[state.round])
        return list(_CHOOSE)

    def apply(self, state: WizardState, seat: Seat, action: WizardAction) -> tuple[WizardState, list[Event]]:
        """``Game.apply`` with the check of :meth:`why_illegal` inlined (the hot path of every playout).

        A legal card or bid by the seat to act goes straight to the move; anything else takes the
        full check, whose answer is the same. A decoded ``Play`` (a replayed record, a remote
        player) is as good as a cached one once its card is an int in the deck: exactly what its
        annotation (``WizardCard``) asks.
        """
        kind = type(action)
        if kind is Play and type(seat) is int and seat == state.to_act and state.phase == PLAYING:
            card = action.card  # type: ignore[union-attr]
            if type(card) is int and 0 <= card < _DECK:
                hand, lead, bit = state.hands[seat], state.lead, _BIT[card]
                # Legal (rules.legal_mask, small-int tests first): held, and of the suit led if the hand has it.
                if hand & bit and (lead < 0 or lead > 3 or card >= _FIRST_WIZARD or card // 13 == lead
                                   or not hand & _SUIT_MASK[lead]):
                    # _play, inlined: one copy written once (core.state.updater).
                    hands = list(state.hands)
                    hands[seat] = hand ^ bit
                    trick = state.trick + (card,)
                    if lead == _NO_LEAD and card < _FIRST_JESTER:  # rules.next_lead
                        lead = _WIZARD_LED if card >= _FIRST_WIZARD else card // 13
                    p = len(hands)
                    if len(trick) < p:
                        return _after_play(state, tuple(hands), trick, lead, seat + 1 if seat + 1 < p else 0), [
                            _CARD_PLAYED[seat][card]]
                    s = _after_play(state, tuple(hands), trick, lead, seat)  # _end_trick sets who leads next
                    events: list[Event] = [_CARD_PLAYED[seat][card]]
                    self._end_trick(s, trick, events)
                    return s, events
        elif kind is Bid and id(action) in _TRUSTED_IDS and type(seat) is int and seat == state.to_act:
            tricks = action.tricks  # type: ignore[union-attr]
            if state.phase == BIDDING and tricks <= state.round and (
                    seat != state.dealer or not state.options.bids_may_not_equal_tricks
                    or tricks != self.forbidden_bid(state)):  # _bid_allowed, inlined
                if seat != state.dealer and not state.options.hidden_bids:  # _bid, inlined for a bid heard by all
                    bids = list(state.bids)
                    bids[seat] = tricks
                    return _after_bid(state, tuple(bids), seat + 1 if seat + 1 < len(bids) else 0), [
                        _BID_PLACED[seat][tricks]]
                s, events = state.copy(), []
                self._bid(s, seat, tricks, events)
                return s, events
        if type(seat) is int and 0 <= seat < len(state.hands) and (id(action) in _TRUSTED_IDS or (
                kind is Play and type(action.card) is int and 0 <= action.card < rules.DECK_SIZE)):  # type: ignore[union-attr]
            reason = self.why_illegal_now(state, seat, action)
        else:
            reason = Game.why_illegal(self, state, seat, action)
        if reason is not None:
            raise IllegalAction(action, reason)
        return self.apply_unchecked(state, seat, action)

    def _bid_allowed(self, state: WizardState, seat: Seat, tricks: int) -> bool:
        """Whether the seat to act may bid ``tricks`` now (``allowed_bids`` without the list)."""
        if tricks > state.round:
            return False
        if state.options.bids_may_not_equal_tricks and seat == state.dealer:
            return tricks != self.forbidden_bid(state)
        return True

    def why_illegal_now(self, state: WizardState, seat: Seat, action: WizardAction) -> str | None:
        """Why the well-formed action is illegal now, in words, or None, without building the legal list."""
        if state.to_act is None:
            return "the game is over"
        if seat != state.to_act:
            return f"it is seat {state.to_act}'s turn, not seat {seat}'s"
        if type(action) is Play:  # the hot path: _why_illegal_play's checks, the legal case inlined
            card, legal, lead = action.card, state.hands[seat], state.lead
            if 0 <= lead < 4 and legal & _SUIT_MASK[lead]:  # rules.legal_mask
                legal &= _FOLLOW[lead]
            if state.phase == PLAYING and 0 <= card < rules.DECK_SIZE and legal >> card & 1:
                return None
            return self._why_illegal_play(state, seat, card)
        if isinstance(action, Bid):
            if state.phase != BIDDING:
                return f"this is not the time to bid ({state.phase.replace('_', ' ')})"
            if not self._bid_allowed(state, seat, action.tricks):
                if action.tricks == self.forbidden_bid(state):
                    return f"the bids may not add up to {state.round}: the last bidder may not bid {action.tricks}"
                return f"a bid must be 0 to {state.round}"
            return None
        if isinstance(action, ChooseTrump):
            return None if state.phase == CHOOSING_TRUMP else "only the dealer names trump, after a wizard is turned"
        return f"{action!r} is not a Wizard action"

    def _why_illegal_play(self, state: WizardState, seat: Seat, card: CardId) -> str | None:
        """Why playing ``card`` is illegal, or None."""
        if state.phase != PLAYING:
            return f"this is not the time to play a card ({state.phase.replace('_', ' ')})"
        if not 0 <= card < rules.DECK_SIZE or not state.hands[seat] >> card & 1:
            return "that card is not in your hand"
        if not rules.legal_mask(state.hands[seat], state.lead) >> card & 1:
            return f"you must follow {rules.SUITS[state.lead]} (or play a wizard or jester)"
        return None

    def apply_unchecked(self, state: WizardState, seat: Seat,
                        action: WizardAction) -> tuple[WizardState, list[Event]]:
        """Apply a legal action to a copy of the state."""
        s = state.copy()
        events: list[Event] = []
        self._move(s, seat, action, events)
        return s, events

    def replay(self, options: WizardOptions, seed: Seed,
               actions: Sequence[tuple[Seat, WizardAction]]) -> WizardState:
        """``Game.replay`` without events or intermediate states: bids and cards checked and made on ints.

        See :mod:`cardtable.games.wizard.replay`; anything it does not vouch for takes ``apply``'s
        own check and move, so an illegal action gets the same reason, named by its step.
        """
        return quiet_replay(self, _CODES, options, seed, actions)

    def replay_decoded(self, options: WizardOptions, seed: Seed, items: Sequence[Any],
                       pair_of: Callable[[Any], tuple[Seat, WizardAction]]) -> WizardState:
        """``Game.replay_decoded`` through the quiet replay: each decoded item coded by one lookup, no pairs made."""
        return quiet_replay_decoded(self, _CODES, options, seed, items, pair_of)

    # Moves: each changes ``s``, a fresh copy (or a replay's private state), in place.

    def _move(self, s: WizardState, seat: Seat, action: WizardAction, events: list[Event]) -> None:
        """Make a legal move on ``s``."""
        kind = type(action)
        if kind is Play:
            self._play(s, seat, action.card, events)  # type: ignore[union-attr]
        elif kind is Bid:
            self._bid(s, seat, action.tricks, events)  # type: ignore[union-attr]
        elif isinstance(action, ChooseTrump):
            s.trump, s.phase, s.to_act = action.suit_index, BIDDING, (s.dealer + 1) % s.options.players
            events.append(ev.TrumpChosen(seat, action.suit))

    def _bid(self, s: WizardState, seat: Seat, tricks: int, events: list[Event]) -> None:
        """Record a bid; after the dealer's (last) bid, reveal hidden bids and start play."""
        bids = list(s.bids)
        bids[seat] = tricks
        s.bids = tuple(bids)
        hidden = s.options.hidden_bids
        if hidden:
            events.extend((_HIDDEN_BID_PLACED[seat], _OWN_BID[seat][tricks]))
        else:
            events.append(_BID_PLACED[seat][tricks])
        if seat == s.dealer:
            if hidden:
                events.append(ev.BidsRevealed(s.bids))
            s.phase, s.to_act = PLAYING, s.leader
        else:
            s.to_act = seat + 1 if seat + 1 < len(bids) else 0

    def _play(self, s: WizardState, seat: Seat, card: CardId, events: list[Event]) -> None:
        """Play a card; complete the trick when everyone has played, and the round after the last trick."""
        hands = list(s.hands)
        hands[seat] &= _CLEAR[card]
        s.hands = tuple(hands)
        trick = s.trick = s.trick + (card,)
        if s.lead == _NO_LEAD and card < _FIRST_JESTER:  # rules.next_lead, inlined
            s.lead = _WIZARD_LED if card >= _FIRST_WIZARD else card // 13
        events.append(_CARD_PLAYED[seat][card])
        if len(trick) < len(hands):
            s.to_act = seat + 1 if seat + 1 < len(hands) else 0
        else:
            self._end_trick(s, trick, events)

    def _end_trick(self, s: WizardState, trick: tuple[CardId, ...], events: list[Event]) -> None:
        """Give the complete trick to its winner, who leads next; end the round after its last trick."""
        leader = s.leader
        # rules.trick_winner, with the lead state the engine already keeps: the first card of the highest
        # strength (rules.winning_position, in C-level calls).
        strengths = list(map(_STRENGTH[s.trump + 1][s.lead + 1].__getitem__, trick))
        winner = (leader + strengths.index(max(strengths))) % len(trick)
        tricks = list(s.tricks)
        tricks[winner] += 1
        s.tricks = tuple(tricks)
        events.append(_trick_won(winner, leader, trick))
        s.last_trick, s.last_leader, s.last_winner = trick, leader, winner
        s.played += trick
        s.trick, s.lead, s.leader, s.to_act = (), rules.NO_LEAD_YET, winner, winner
        if not s.hands[winner]:
            self._end_round(s, events)

    def _end_round(self, s: WizardState, events: list[Event] | None) -> None:
        """Score the round, then deal the next one or finish the game; ``events=None``: build none."""
        bids, tricks = s.bids, s.tricks
        points = tuple(map(rules.round_score, bids, tricks))
        s.totals = tuple(map(add, s.totals, points))
        s.exact = tuple(map(add, s.exact, map(eq, bids, tricks)))
        s.rows += (pack_row(bids, tricks),)
        if events is not None:
            events.append(_round_scored(s.round, bids, tricks, points, s.totals))
        if s.round < s.rounds:
            self._start_round(s, events)
            return
        s.phase, s.to_act = FINISHED, None
        if events is not None:
            events.append(ev.GameEnded(s.totals, self._winners(s.totals)))

    @staticmethod
    def _winners(totals: Sequence[int]) -> tuple[Seat, ...]:
        """Every seat with the highest total."""
        best = max(totals)
        return tuple(seat for seat, t in enumerate(totals) if t == best)

    # What leaves the engine.

    def outcome(self, state: WizardState) -> Outcome | None:
        """Final totals and the winners (ties possible) once the last round is scored."""
        if state.phase != FINISHED:
            return None
        return Outcome(tuple(float(t) for t in state.totals), self._winners(state.totals),
                       f"highest total after {state.rounds} rounds")

    def hidden_cards(self, state: WizardState, seat: Seat | None) -> frozenset[CardId]:
        """Other seats' hands and the undealt cards under the trump card."""
        mask = 0
        for other, hand in enumerate(state.hands):
            if other != seat:
                mask |= hand
        return frozenset(rules.cards_of(mask | state.stack_mask))

    def max_actions(self, options: WizardOptions) -> int:
        """Per round: at most one trump choice, one bid per seat, one card per card dealt."""
        r, p = options.game_rounds(), options.players
        return r * (p + 1) + p * r * (r + 1) // 2

    def observe(self, state: WizardState, seat: Seat | None) -> WizardObservation:
        """What ``seat`` may know; bids of others stay hidden during hidden bidding.

        The forbidden last bid tells the sum of the bids so far, so while bids are hidden only the
        dealer (who must know what he may not bid) sees it.
        """
        self.check_observer(state, seat)
        s, p = state, state.options.players
        hidden = s.options.hidden_bids and s.phase in (BIDDING, CHOOSING_TRUMP)
        bids = tuple(None if b < 0 or (hidden and i != seat) else b for i, b in enumerate(s.bids))
        trump = None if s.trump < 0 else s.trump
        pending = s.phase == CHOOSING_TRUMP
        return WizardObservation(
            seat=seat, players=p, round=s.round, rounds=s.rounds, dealer=s.dealer, phase=s.phase,  # type: ignore[arg-type]
            to_act=s.to_act,
            hand=tuple(rules.cards_of(s.hands[seat])) if seat is not None else (),
            hand_sizes=tuple(h.bit_count() for h in s.hands),
            trump_card=s.trump_card, trump_suit=trump,
            trump_text="to be named by the dealer" if pending else rules.suit_name(trump),
            bids=bids, has_bid=tuple(b >= 0 for b in s.bids), bids_hidden=hidden,
            forbidden_bid=self.forbidden_bid(s) if not hidden or seat == s.dealer else None, tricks=s.tricks,
            leader=s.leader if s.phase == PLAYING else None,
            lead_suit=s.lead if 0 <= s.lead < 4 else None,
            trick=tuple(PlayedCard((s.leader + i) % p, c) for i, c in enumerate(s.trick)),
            last_trick=tuple(PlayedCard((s.last_leader + i) % p, c) for i, c in enumerate(s.last_trick)),
            last_trick_winner=s.last_winner, played_cards=s.played, score_sheet=s.sheet, totals=s.totals,
            wizard_trump=s.options.wizard_trump, bids_may_not_equal_tricks=s.options.bids_may_not_equal_tricks,
            hidden_bids=s.options.hidden_bids,
        )

    # Search.

    def sample_world(self, observation: WizardObservation, rng: random.Random) -> WizardState:
        """A full state consistent with ``observation`` (see ``wizard.world``)."""
        from cardtable.games.wizard import world

        o = observation
        options = WizardOptions(players=o.players, rounds=_rounds_choice(o.rounds, o.players),
                                wizard_trump=o.wizard_trump,  # type: ignore[arg-type]
                                bids_may_not_equal_tricks=o.bids_may_not_equal_tricks, hidden_bids=o.hidden_bids)
        return world.sample_world(options, observation, rng)

    def search_hints(self) -> SearchHints:
        """Play the current round out with the fitted bidder and chase-or-duck play; value its points."""
        from cardtable.games.wizard import world

        return world.HINTS

    # Words and statistics.

    def describe_action(self, action: WizardAction) -> str:
        """"Bid 2", "Name yellow as trump", "Play 7 of yellow"."""
        return action.words()

    def seat_stats(self, state: WizardState) -> Sequence[Mapping[str, float]]:
        """Per seat: rounds where the bid was exact, and rounds played."""
        played = len(state.rows)
        return [{"exact_bids": e, "rounds": played} for e in state.exact]
