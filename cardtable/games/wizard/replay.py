"""Wizard's quiet replay: a record's actions checked and made on ints and lists, one state written at the end.

``WizardGame.replay`` (loading a stored game) must validate every action exactly as ``apply`` does
but needs neither the events nor the states in between. :func:`replay` keeps the game in local
variables instead: each ``(seat, action)`` becomes one int code (``seat << 8 | card``, or
``BID + tricks``) by one lookup of the shared pairs the record decoder hands out; a table
``holder[code]`` says whether that seat holds that card now, so "the seat to act plays a card it
holds" is one list index; following suit, the lead and the trick's winner are table lookups; a
round's score is kept as ``(bids, tricks)`` and summed when the state is written. Plain list,
tuple and int operations only: on CPython each C-level call (``map``, ``sum``) costs more than
the test it makes.

This is a second implementation of the moves. It stops at anything it does not vouch for (a
trump choice, an action that is not a plain card or bid, anything illegal), writes the state,
and lets the engine's own check and move (``why_illegal_now`` and ``_move``) take that action,
so an illegal action gets ``apply``'s exact reason. ``tests/wizard/test_quiet_replay.py`` proves
it equal to replaying through ``apply`` on random games of every option set, cut anywhere, with
illegal actions of every kind put in.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import add, eq
from typing import TYPE_CHECKING

from cardtable.core.errors import IllegalAction
from cardtable.core.events import Event
from cardtable.core.fast import cached_pair
from cardtable.core.game import Game
from cardtable.core.rng import Seed, shuffled
from cardtable.core.types import Seat
from cardtable.games.wizard import rules
from cardtable.games.wizard.actions import Bid, Play, WizardAction
from cardtable.games.wizard.options import WizardOptions
from cardtable.games.wizard.state import BIDDING, CHOOSING_TRUMP, FINISHED, PLAYING, WizardState, pack_row

if TYPE_CHECKING:
    from cardtable.games.wizard.game import WizardGame

#: An action's code is ``seat << 8 | what``: ``what`` is the card for a ``Play``, ``BID + tricks`` for a ``Bid``,
#: ``NONE`` for anything the quiet loop leaves to the general step (a trump choice, a seat not at any table...).
BID = 64
NONE = 255
_SEATS = range(rules.MAX_PLAYERS)
_CODES = range(rules.MAX_PLAYERS << 8)

_DECK = rules.DECK_SIZE
_ALL_CARDS = tuple(range(_DECK))
_BIT = tuple(1 << c for c in range(_DECK))
_BITS = tuple(_BIT[x & 255] if x & 255 < _DECK else 0 for x in _CODES)  # a code's card bit; 0 if not a card
# By code: the lead state its card sets when it is the first card that is not a jester (rules.next_lead), and its
# strength under each trump and lead (rules.STRENGTH).
_LEADS = tuple(rules.next_lead(rules.NO_LEAD_YET, x & 255) if x & 255 < _DECK else rules.NO_LEAD_YET for x in _CODES)
_STRENGTH = tuple(tuple(tuple(row[x & 255] if x & 255 < _DECK else 0 for x in _CODES) for row in rows)
                  for rows in rules.STRENGTH)
_NO_LEAD = rules.NO_LEAD_YET
# By lead state + 1: whether a code's card follows the lead (its suit, a wizard or a jester; any card when no
# suit was led), and the cards a hand must play if it holds any (none when no suit was led).
_FOLLOWS = tuple(tuple(x & 255 < _DECK and (not 0 <= lead < 4 or x & 255 >= rules.FIRST_WIZARD
                                         or (x & 255) // 13 == lead) for x in _CODES) for lead in range(-1, 5))
_MUST = (0, *rules.SUIT_MASK, 0)
_ORDER = tuple(tuple(tuple((s + k) % p for k in range(p)) for s in range(p)) if p else ()
               for p in range(rules.MAX_PLAYERS + 1))  # _ORDER[players][seat]: the seats from seat round the table
# _DEALT_TO[players][dealer][i]: the seat that gets the deck's i-th card (one at a time, left of the dealer first).
_DEALT_TO = tuple(tuple(tuple((d + 1 + i) % p for i in range(_DECK)) for d in range(p)) if p else ()
                  for p in range(rules.MAX_PLAYERS + 1))


class ReplayCodes:
    """The quiet loop's codes of a record's actions (``seat << 8 | what``, see ``BID``).

    By the identity of the shared ``(seat, action)`` pairs that ``core.record_decoder`` hands out
    (``core.fast.cached_pair``): a decoded record needs one lookup per action, all in C. Pairs
    made elsewhere are coded from their parts.
    """

    def __init__(self, plays: Sequence[Play], bids: Sequence[Bid], others: Sequence[WizardAction]) -> None:
        whats: list[tuple[WizardAction, int]] = [(play, play.card) for play in plays]
        whats += [(bid, BID + bid.tricks) for bid in bids]
        whats += [(other, NONE) for other in others]
        self.by_id = {id(action): what for action, what in whats}
        self.by_pair: dict[int, int] = {}
        for seat in _SEATS:
            for action, what in whats:
                pair = cached_pair(seat, action)
                if pair is not None:
                    self.by_pair[id(pair)] = seat << 8 | what

    def of(self, actions: Sequence[tuple[Seat, WizardAction]]) -> list[int] | None:
        """The codes of ``actions``, or None if they are not pairs."""
        try:
            return list(map(self.by_pair.__getitem__, map(id, actions)))
        except KeyError:
            pass  # pairs made elsewhere
        try:
            if actions and set(map(len, actions)) != {2}:
                return None
            seats, moves = zip(*actions) if actions else ((), ())
        except (TypeError, ValueError):
            return None
        return _codes(seats, moves, self.by_id)


def replay(game: WizardGame, codes: ReplayCodes, options: WizardOptions, seed: Seed,
           actions: Sequence[tuple[Seat, WizardAction]]) -> WizardState:
    """The state after ``actions`` from ``game.new(options, seed)``, each checked as ``apply`` checks it.

    An illegal action raises ``IllegalAction`` with ``apply``'s reason and its index as ``step``.
    """
    s, _ = game.new(options, seed)  # s belongs to this function until it is returned
    n = len(actions)
    coded = codes.of(actions)
    dropped: list[Event] = []
    players, trusted = options.players, game.trusted_ids
    step = 0
    while True:
        if coded is not None:
            step = _run(s, coded, step)
        if step == n:
            return s
        # One action the quiet loop does not vouch for: the engine's own check and move.
        seat, action = actions[step]
        if id(action) in trusted and type(seat) is int and 0 <= seat < players:
            reason = game.why_illegal_now(s, seat, action)
        else:
            reason = Game.why_illegal(game, s, seat, action)
        if reason is not None:
            raise IllegalAction(action, reason, step=step)
        game._move(s, seat, action, dropped)
        dropped.clear()
        step += 1


def _codes(seats: Sequence[object], moves: Sequence[object], by_id: dict[int, int]) -> list[int]:
    """Each action's code from its seat and action (``NONE`` where the quiet loop must not decide)."""
    codes = []
    for seat, move in zip(seats, moves, strict=True):
        what = by_id.get(id(move), NONE)
        if what == NONE:  # an action built elsewhere (a record decoded the general way): by value, when well formed
            kind = type(move)
            if kind is Play and type(card := move.card) is int and 0 <= card < _DECK:  # type: ignore[attr-defined]
                what = card
            elif kind is Bid and type(tricks := move.tricks) is int and 0 <= tricks <= _DECK:  # type: ignore[attr-defined]
                what = BID + tricks
        codes.append(seat << 8 | what if type(seat) is int and seat in _SEATS else NONE)
    return codes


def _run(s: WizardState, codes: list[int], step: int) -> int:
    """Make the bids and cards from ``step`` on while each is legal, then write ``s``; returns the next step.

    Plain list, tuple and int operations only (each C-level call costs more than the test it
    makes). Stops at the end of the actions or of the game, at a trump choice, or at an action
    it does not vouch for (the caller's general step then decides it; in the middle of a trick
    the general step plays the trick out).
    """
    if s.trick:
        return step  # a trick begun by the general step: it finishes it
    o = s.options
    p, last_round, sum_rule = o.players, s.rounds, o.bids_may_not_equal_tricks
    dealer_chooses = o.wizard_trump == "dealer_chooses"
    order, dealt_to = _ORDER[p], _DEALT_TO[p]
    phase, dealer, number, rng = s.phase, s.dealer, s.round, s.rng
    to_act = -1 if s.to_act is None else s.to_act
    hands, bids, tricks = list(s.hands), list(s.bids), list(s.tricks)
    # holder[seat << 8 | card] is seat while that seat holds the card: "held by the seat to act" is one test.
    holder = [-1] * len(_BITS)
    for seat, hand in enumerate(hands):
        for card in rules.hand_ids(hand):
            holder[seat << 8 | card] = seat
    left = hands[0].bit_count()  # tricks left in the round
    leader, played = s.leader, s.played
    # This round's plays made here are codes[first:trick_start]; the last trick's start (-1: ``last``).
    first = trick_start = step
    last_start = -1
    last, last_leader, last_winner = s.last_trick, s.last_leader, s.last_winner
    trump_card, stack_mask, trump = s.trump_card, s.stack_mask, s.trump
    by_lead = _STRENGTH[trump + 1]
    lead = _NO_LEAD
    scored: list[tuple[tuple[int, ...], tuple[int, ...]]] = []  # rounds ended here, scored when s is written
    n = len(codes)
    while step < n:
        if phase is PLAYING:
            if step + p > n:
                break  # the record ends within this trick: the general step plays its cards
            # A trick, card by card: held by the seat to act, following suit if the hand can (rules.legal_mask).
            trick_start, best, winner = step, -1, leader
            lead, follows, must, table = _NO_LEAD, _FOLLOWS[0], 0, by_lead[0]
            for seat in order[leader]:
                code = codes[step]
                if holder[code] != seat:
                    break
                hand = hands[seat]
                if hand & must and not follows[code]:
                    break
                holder[code] = -1
                hands[seat] = hand ^ _BITS[code]
                step += 1
                if lead == _NO_LEAD and (lead := _LEADS[code]) != _NO_LEAD:  # the first card not a jester
                    follows, must, table = _FOLLOWS[lead + 1], _MUST[lead + 1], by_lead[lead + 1]
                if table[code] > best:  # the first card of the highest strength wins (rules.trick_winner)
                    best, winner = table[code], seat
            else:
                tricks[winner] += 1
                last_start, last_leader, last_winner = trick_start, leader, winner
                leader = to_act = winner
                trick_start, lead = step, _NO_LEAD
                left -= 1
                if left:
                    continue
                # The round is over: scored later; the next one dealt as WizardGame._start_round deals it.
                scored.append((tuple(bids), tuple(tricks)))
                if number == last_round:
                    phase, to_act = FINISHED, -1
                    break
                number, dealer, left = number + 1, order[dealer][1], number + 1
                deck, rng = shuffled(rng, _ALL_CARDS)
                deal = number * p
                hands = [0] * p  # holder is all -1 again: every card dealt was played
                for card, seat in zip(deck[:deal], dealt_to[dealer]):
                    hands[seat] |= _BIT[card]
                    holder[seat << 8 | card] = seat
                trump_card = deck[deal] if deal < _DECK else None
                stack_mask = rules.ALL_MASK ^ sum(hands) ^ (0 if trump_card is None else _BIT[trump_card])
                bids, tricks = [-1] * p, [0] * p
                leader, played, last_start, last, last_leader, last_winner = order[dealer][1], (), -1, (), 0, None
                if trump_card is None or trump_card >= rules.FIRST_JESTER:
                    trump = -1
                elif trump_card >= rules.FIRST_WIZARD:
                    trump = -1
                    if dealer_chooses:
                        phase, to_act = CHOOSING_TRUMP, dealer
                        break
                else:
                    trump = trump_card // 13
                by_lead, phase, to_act = _STRENGTH[trump + 1], BIDDING, leader
                continue
            to_act = seat  # stopped within the trick: the cards so far stay played
            break
        if phase is not BIDDING:
            break
        # A bid: within the round and, under the sum rule, not the dealer's forbidden one.
        bid = codes[step] - (to_act << 8 | BID)  # in 0 … number only for a bid by the seat to act
        if not 0 <= bid <= number or (sum_rule and to_act == dealer and bid == number - sum(b for b in bids if b >= 0)):
            break
        bids[to_act] = bid
        step += 1
        if to_act == dealer:
            phase, to_act = PLAYING, leader
            first = trick_start = step
        else:
            to_act = order[to_act][1]
    # Write the state.
    s.phase, s.to_act, s.dealer, s.round, s.rng = phase, None if to_act < 0 else to_act, dealer, number, rng
    s.hands, s.bids, s.tricks = tuple(hands), tuple(bids), tuple(tricks)
    s.leader, s.lead, s.trick = leader, lead, ()
    if phase is PLAYING and trick_start < step:  # stopped within a trick
        s.trick = tuple([code & 255 for code in codes[trick_start:step]])
    if phase is PLAYING or phase is FINISHED:
        played += tuple([code & 255 for code in codes[first:trick_start]])
    s.played = played
    if last_start >= 0:
        last = tuple([code & 255 for code in codes[last_start:last_start + p]])
    s.last_trick, s.last_leader, s.last_winner = last, last_leader, last_winner
    s.trump_card, s.stack_mask, s.trump = trump_card, stack_mask, trump
    for round_bids, round_tricks in scored:  # WizardGame._end_round's score step
        s.totals = tuple(map(add, s.totals, map(rules.round_score, round_bids, round_tricks)))
        s.exact = tuple(map(add, s.exact, map(eq, round_bids, round_tricks)))
        s.rows += (pack_row(round_bids, round_tricks),)
    return step
