"""Wizard's quiet replay: a record's actions checked and made on ints, one state written at the end.

``WizardGame.replay`` and ``replay_decoded`` (loading a stored game) must validate every action
exactly as ``apply`` does but need neither the events nor the states in between. The quiet loop
keeps the game in local variables instead: each ``(seat, action)`` becomes one int code
(``seat << 8 | card``, or ``seat << 8 | BID + tricks``) by one lookup (of the shared pair the
record decoder hands out, or of the decoded item itself); every hand is in one int ``H`` (blocks
of ``BLOCK`` bits per seat); straight-line code generated per player count plays a round's bids
and whole tricks (the seats in turn and the cards held in one test of ``H``, following checked
for the cards that do not follow, the winner by compares of per-card keys); a round is dealt by
``core.rng.dealt`` (the very permutation of ``shuffled``, fewer operations); the rounds' scores
are summed when the state is written. Plain list, tuple and int operations: on CPython each
C-level call (``map``, ``sum``, ``max``) costs more than the few bytecodes it replaces.

This is a second implementation of the moves. What the generated code does not vouch for is
played card by card (or bid by bid) with the same exact checks; at anything illegal, a trump
choice or an action that is not a plain card or bid, the state is written and the engine's own
check and move (``why_illegal_now`` and ``_move``) take that action, so an illegal action gets
``apply``'s exact reason. ``tests/wizard/test_quiet_replay.py`` proves it equal to replaying
through ``apply`` on random games of every option set and table size, cut anywhere, with illegal
actions of every kind put in.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import cycle, repeat
from operator import and_, eq, getitem, lshift, or_, rshift
from typing import Any, Protocol

from cardtable.core.errors import IllegalAction
from cardtable.core.events import Event
from cardtable.core.fast import cached_pair
from cardtable.core.rng import Seed, dealt
from cardtable.core.types import Seat
from cardtable.games.wizard import rules
from cardtable.games.wizard.actions import Bid, Play, WizardAction
from cardtable.games.wizard.options import WizardOptions
from cardtable.games.wizard.state import BIDDING, CHOOSING_TRUMP, FINISHED, PLAYING, ROW_BITS, WizardState


class Engine(Protocol):
    """What the quiet replay needs of ``WizardGame``: its checks and its move, for the actions it leaves to them."""

    @property
    def trusted_ids(self) -> set[int] | frozenset[int]:
        """The ids of the game's own cached actions (checked once, when made)."""

    def check_options(self, options: WizardOptions) -> None:
        """Raise ``InvalidOptions`` if the options do not fit together."""

    def _fresh(self, options: WizardOptions, seed: Seed, decks: Sequence[Sequence[int]],
               events: list[Event] | None) -> WizardState:
        """A new game's state, round 1 dealt, from checked options."""

    def why_illegal(self, state: WizardState, seat: Seat, action: WizardAction) -> str | None:
        """Why ``action`` is illegal now (the edge checks first), or None."""

    def why_illegal_now(self, state: WizardState, seat: Seat, action: WizardAction) -> str | None:
        """Why the well-formed action is illegal now, or None."""

    def _move(self, s: WizardState, seat: Seat, action: WizardAction, events: list[Event]) -> None:
        """Make a legal move on ``s``."""

#: An action's code is ``seat << 8 | what``: ``what`` is the card for a ``Play``, ``BID + tricks`` for a ``Bid``,
#: ``NONE`` for anything the quiet loop leaves to the general step (a trump choice, a seat not at any table...).
BID = 64
NONE = 255
_SEATS = range(rules.MAX_PLAYERS)
_CODES = range(rules.MAX_PLAYERS << 8)

_DECK = rules.DECK_SIZE
_BIT = tuple(1 << c for c in range(_DECK))
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


# The hands of a replay are one int, ``H``: seat s's hand in bits ``BLOCK * s`` on (card c: bit ``BLOCK * s + c``).
BLOCK = 60  # the deck's size: the smallest blocks, the fewest digits in H
_SHIFTS = tuple(BLOCK * seat for seat in _SEATS)
# _DEAL_SHIFTS[players][dealer]: the blocks of the seats from the dealer's left (the deal's order).
_DEAL_SHIFTS = tuple(tuple(tuple(BLOCK * seat for seat in order[1:] + order[:1]) for order in orders)
                     for orders in _ORDER)
_POISON = 1 << BLOCK * rules.MAX_PLAYERS  # a bit no hand has
# _HELD[seat][code]: the code's card bit in H if the code is that seat's card, else _POISON; so for the seats
# s_i of a trick ``H & t == t`` with ``t = _HELD[s_0][c_0] | _HELD[s_1][c_1] | …`` says at once that each code is
# the card of the seat whose turn it is and that this seat holds it.
_HELD = tuple(tuple(1 << BLOCK * seat + (x & 255) if x >> 8 == seat and x & 255 < _DECK else _POISON for x in _CODES)
              for seat in _SEATS)
_HELD_BY = tuple(tuple(tuple(_HELD[seat] for seat in order) for order in orders) for orders in _ORDER)
# _MUST_AT[suit][seat]: that seat's cards of the suit in H (what it must play to a trick led in that suit).
_MUST_AT = tuple(tuple(mask << shift for shift in _SHIFTS) for mask in rules.SUIT_MASK)
_FOLLOWS_SUIT = _FOLLOWS[1:5]  # by suit led
_WIZARD_STRENGTH = 1000  # rules.STRENGTH's wizard
_WIZARD_KEY = _WIZARD_STRENGTH * 8
_SHARED: dict[int, int] = {}
# _KEYS[trump + 1][suit led][code]: the card's strength * 8 + the code's seat. Below a wizard the strengths of the
# cards that can win a trick led in a suit differ, so the largest key names the winner's seat (``key & 7``).
_KEYS = tuple(tuple(tuple(_SHARED.setdefault(v := row[x & 255] * 8 + (x >> 8), v) if x & 255 < _DECK else -1
                          for x in _CODES) for row in rows[1:5]) for rows in rules.STRENGTH)
_MOST_TRICKS = rules.DECK_SIZE // rules.MIN_PLAYERS
# _BID_CODES[players][leader]: the code of a bid of 0 by each seat in bidding order from the leader.
_BID_CODES = tuple(tuple(tuple(seat << 8 | BID for seat in order) for order in orders) for orders in _ORDER)
_SCORE = tuple(tuple(rules.round_score(bid, won) for won in range(_MOST_TRICKS + 1)) for bid in range(_MOST_TRICKS + 1))
_CELL_SHIFTS = tuple(2 * ROW_BITS * seat for seat in _SEATS)  # where a seat's bid and tricks sit in a packed row
_WIZARD: Led = ((), (), ())  # _LED's mark of a wizard (compared by identity)
# _LED[trump + 1][code]: for a card of a suit, that suit's (follow table, key table, must masks) when it leads;
# _WIZARD for a wizard; None for a jester or a code that is not a card.
_LED: tuple[tuple[Led | None, ...], ...] = tuple(
    tuple(((_FOLLOWS_SUIT[suit], keys[suit], _MUST_AT[suit]) if (suit := (x & 255) // 13) < 4
           else _WIZARD if x & 255 < rules.FIRST_JESTER else None) for x in _CODES) for keys in _KEYS)
_IS_WIZARD = tuple(x & 255 < _DECK and rules.is_wizard(x & 255) for x in _CODES)


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
        self.by_item: dict[Any, int] = {}  # decoded record items (see of_items)
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

    def of_items(self, items: Sequence[Any], pair_of: Callable[[Any], tuple[Seat, WizardAction]]) -> list[int]:
        """The codes of a record's decoded items (hashable structs, ``core.record_decoder``): one lookup each.

        An item not seen before is converted once by ``pair_of`` (which raises for an action it refuses),
        coded from its pair and remembered.
        """
        by_item = self.by_item
        try:
            return list(map(by_item.__getitem__, items))
        except KeyError:
            pass
        out = []
        for item in items:
            code = by_item.get(item)
            if code is None:
                seat, action = pair_of(item)
                code = _codes((seat,), (action,), self.by_id)[0]
                if len(by_item) < 100_000:  # bounded: seats × actions of one game
                    by_item[item] = code
            out.append(code)
        return out


def replay(game: Engine, codes: ReplayCodes, options: WizardOptions, seed: Seed,
           actions: Sequence[tuple[Seat, WizardAction]]) -> WizardState:
    """The state after ``actions`` from ``game.new(options, seed)``, each checked as ``apply`` checks it.

    An illegal action raises ``IllegalAction`` with ``apply``'s reason and its index as ``step``.
    """
    return _replay(game, options, seed, codes.of(actions), actions.__getitem__, len(actions))


def replay_decoded(game: Engine, codes: ReplayCodes, options: WizardOptions, seed: Seed, items: Sequence[Any],
                   pair_of: Callable[[Any], tuple[Seat, WizardAction]]) -> WizardState:
    """:func:`replay` of a record's decoded items (``core.record_decoder``): coded by one lookup each, no pairs made.

    Every item is coded (so converted by ``pair_of``, which may refuse it) before any is replayed; the
    general step asks ``pair_of`` for the one action it takes.
    """
    coded = codes.of_items(items, pair_of)
    return _replay(game, options, seed, coded, lambda step: pair_of(items[step]), len(items))


def _replay(game: Engine, options: WizardOptions, seed: Seed, coded: list[int] | None,
            action_at: Callable[[int], tuple[Seat, WizardAction]], n: int) -> WizardState:
    """The quiet loop over ``n`` actions (``coded``: their codes, or None), the general step for the rest."""
    game.check_options(options)
    s = game._fresh(options, seed, (), None)  # game.new without its events; s belongs to this function
    dropped: list[Event] = []
    players, trusted = options.players, game.trusted_ids
    step = 0
    while True:
        if coded is not None:
            step = _run(s, coded, step)
        if step == n:
            return s
        # One action the quiet loop does not vouch for: the engine's own check and move.
        seat, action = action_at(step)
        if id(action) in trusted and type(seat) is int and 0 <= seat < players:
            reason = game.why_illegal_now(s, seat, action)
        else:
            reason = game.why_illegal(s, seat, action)
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


Led = tuple[tuple[Any, ...], tuple[int, ...], tuple[int, ...]]
FastTricks = Callable[[list[int], int, int, int, int, int, list[int], tuple[Led | None, ...]],
                      tuple[int, int, int, int]]
FastBids = Callable[[list[int], int, int, int, int], list[int] | None]


def _fast_tricks(players: int) -> tuple[FastTricks, FastBids]:
    """The bids and whole tricks of one round for ``players`` seats as straight-line code, generated per count.

    ``tricks(codes, step, n, H, leader, left, won, by_code) -> (step, H, leader, left)``
    plays trick after trick from ``step`` while the round has tricks ``left``, the record has a whole trick, and
    the trick is one it vouches for at a glance; it stops before any other trick (two jesters first, a card not
    held by the seat to act, a suit not followed) for the caller to play card by card. Per trick: the seats and
    the cards held in one test of ``H`` (see ``_HELD``), the suit led from the first card that is not a jester,
    following checked only for the cards that do not follow, and the winner from the largest ``_KEYS`` value
    (the first wizard if there is one), found by compares (a call to ``max`` costs more). ``by_code`` is
    ``_LED[trump + 1]`` (what a card leading brings: its suit's tables, or a wizard's mark); ``won`` (tricks
    per seat) is updated in place.

    ``bids(codes, step, leader, number, forbidden) -> bids by seat | None``: a round's bids, one per seat
    from the leader, each in ``0 … number`` and their sum not ``forbidden`` (the sum rule's total, else -1);
    None if not all are (the caller then goes bid by bid).
    """
    p = players
    cs = [f"c{i}" for i in range(p)]
    lines = [
        "def tricks(codes, step, n, H, leader, left, won, by_code):",
        f"    count = (n - step) // {p}  # whole tricks: those left in the round, or in the record",
        "    if count > left:",
        "        count = left",
        f"    start, end = step, step + count * {p}",
        f"    for step in range(start, end, {p}):",
        f"        {', '.join(cs)}, = codes[step:step + {p}]",
        f"        {', '.join(f'B{i}' for i in range(p))}, = held_by[leader]",
        f"        t = {' | '.join(f'B{i}[c{i}]' for i in range(p))}",
        "        G = H ^ t  # the hands after the trick, if every card was held: else a bit of t is set in G",
        "        if G & t:",
        "            break",
        "        led = by_code[c0]",
        "        if led is None:  # a jester led: the next card sets the lead",
        "            led = by_code[c1]",
        "            if led is WIZARD:",
        "                leader = c1 >> 8",
        "            elif led is not None:",
        "                F, X, M = led",
        *_suit_led(p, 1, "                "),
        "            else:",
        "                break",
        "        elif led is not WIZARD:  # a suit led (else the leader's wizard wins, anything may follow)",
        "            F, X, M = led",
        *_suit_led(p, 0, "            "),
        "        H = G",
        "        won[leader] += 1",
        "    else:",
        "        step = end",
        f"    return step, H, leader, left - (step - start) // {p}",
        "",
        "def bids(codes, step, leader, number, forbidden):",
        f"    {', '.join(cs)}, = codes[step:step + {p}]",
        f"    {', '.join(f'E{i}' for i in range(p))}, = bid_codes[leader]",
        *(f"    c{i} -= E{i}" for i in range(p)),
        f"    if {' and '.join(f'0 <= c{i} <= number' for i in range(p))} and {' + '.join(cs)} != forbidden:",
        *(f"        if leader == {lead}:\n            return [{', '.join(cs[(s - lead) % p] for s in range(p))}]"
          for lead in range(p)),
        "    return None",
    ]
    namespace: dict[str, Any] = {"held_by": _HELD_BY[p], "W": _IS_WIZARD, "WIZARD": _WIZARD,
                                 "WIZARD_KEY": _WIZARD_KEY, "bid_codes": _BID_CODES[p]}
    exec("\n".join(lines), namespace)  # generated from the player count only
    tricks: FastTricks = namespace["tricks"]
    bids: FastBids = namespace["bids"]
    return tricks, bids


def _suit_led(p: int, k: int, indent: str) -> list[str]:
    """Generated lines for a trick whose card ``k`` leads a suit (cards before it are jesters): follow, winner.

    ``F``, ``X``, ``M``: that suit's follow table, key table and must masks (``_LED``).
    """
    rest = range(k + 1, p)
    lines = []
    if rest:
        lines += [f"if not ({' and '.join(f'F[c{i}]' for i in rest)}):",
                  f"    if {' or '.join(f'(not F[c{i}] and H & M[c{i} >> 8])' for i in rest)}:",
                  "        break"]
    lines += [f"leader = X[c{k}]"]
    for i in rest:
        lines += [f"x = X[c{i}]", "if x > leader:", "    leader = x"]
    wizards = " else ".join([*(f"c{i} >> 8 if W[c{i}]" for i in rest[:-1]), f"c{p - 1} >> 8"]) if rest else "leader"
    lines += ["if leader < WIZARD_KEY:", "    leader &= 7", "else:  # the first wizard (none before card k)",
              f"    leader = {wizards}"]
    return [indent + line for line in lines]


#: The generated trick and bid loops by player count.
_FAST = tuple(_fast_tricks(p) if p >= rules.MIN_PLAYERS else None for p in range(rules.MAX_PLAYERS + 1))


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
    order, deal_shifts, fast = _ORDER[p], _DEAL_SHIFTS[p], _FAST[p]
    assert fast is not None
    fast_tricks, fast_bids = fast
    phase, dealer, number, rng = s.phase, s.dealer, s.round, s.rng
    to_act = -1 if s.to_act is None else s.to_act
    bids, tricks = list(s.bids), list(s.tricks)
    H = sum(map(lshift, s.hands, _SHIFTS))  # every hand in one int (see BLOCK)
    left = s.hands[0].bit_count()  # tricks left in the round
    leader, played = s.leader, s.played
    # This round's plays made here are codes[first:trick_start]; the last trick's start (-1: ``last``).
    first = trick_start = step
    last_start = -1
    last, last_leader, last_winner = s.last_trick, s.last_leader, s.last_winner
    trump_card, stack_mask, trump = s.trump_card, s.stack_mask, s.trump
    dealt_hands: tuple[int, ...] = ()  # the hands of a round dealt here (its stack is written with the state)
    led_by, by_lead = _LED[trump + 1], _STRENGTH[trump + 1]
    lead = _NO_LEAD
    scored_bids: list[int] = []  # the bids and tricks of the rounds ended here, one after another: scored when s
    scored_tricks: list[int] = []  # is written
    n = len(codes)
    while step < n:
        if phase is PLAYING:
            start = step
            step, H, leader, left = fast_tricks(codes, step, n, H, leader, left, tricks, led_by)
            if step > start:  # the last trick: its first card's seat led it
                last_start = step - p
                last_leader, last_winner = codes[last_start] >> 8, leader
            trick_start, to_act = step, leader
            if left:
                if step + p > n:
                    break  # the record ends within this trick: the general step plays its cards
                # A trick the generated loop left: card by card, held by the seat to act, following suit if the
                # hand can (rules.legal_mask).
                best, winner = -1, leader
                lead, follows, must, table = _NO_LEAD, _FOLLOWS[0], 0, by_lead[0]
                for seat in order[leader]:
                    code = codes[step]
                    bit = _HELD[seat][code]
                    if H & bit != bit or (must and not follows[code] and H >> _SHIFTS[seat] & must):
                        break
                    H ^= bit
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
                if left:
                    to_act = seat  # stopped within the trick: the cards so far stay played
                    break
            # The round is over: scored later; the next one dealt as WizardGame._start_round deals it.
            scored_bids += bids
            scored_tricks += tricks
            if number == last_round:
                phase, to_act = FINISHED, -1
                break
            number, dealer, left = number + 1, order[dealer][1], number + 1
            # Dealt one at a time from the dealer's left (the k-th hand: that seat's), the next card turned.
            hands, trump_card, rng = dealt(rng, _DECK, p, number)
            H = sum(map(lshift, hands, deal_shifts[dealer]))
            dealt_hands = hands
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
            led_by, by_lead, phase, to_act = _LED[trump + 1], _STRENGTH[trump + 1], BIDDING, leader
            continue
        if phase is not BIDDING:
            break
        if to_act == leader and step + p <= n:  # the round's bids from the first: all at once if all are fine
            made = fast_bids(codes, step, leader, number, number if sum_rule else -1)
            if made is not None:
                bids, step, phase = made, step + p, PLAYING
                first = trick_start = step
                continue
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
    s.hands = tuple(map(and_, map(rshift, repeat(H), _SHIFTS[:p]), repeat(rules.ALL_MASK)))
    s.bids, s.tricks = tuple(bids), tuple(tricks)
    s.leader, s.lead, s.trick = leader, lead, ()
    if phase is PLAYING and trick_start < step:  # stopped within a trick
        s.trick = tuple([code & 255 for code in codes[trick_start:step]])
    if phase is PLAYING or phase is FINISHED:
        played += tuple([code & 255 for code in codes[first:trick_start]])
    s.played = played
    if last_start >= 0:
        last = tuple([code & 255 for code in codes[last_start:last_start + p]])
    s.last_trick, s.last_leader, s.last_winner = last, last_leader, last_winner
    if dealt_hands:
        stack_mask = rules.ALL_MASK ^ sum(dealt_hands) ^ (0 if trump_card is None else _BIT[trump_card])
    s.trump_card, s.stack_mask, s.trump = trump_card, stack_mask, trump
    if scored_bids:  # WizardGame._end_round's score step, every round ended here at once
        points = list(map(getitem, map(_SCORE.__getitem__, scored_bids), scored_tricks))
        hits = list(map(eq, scored_bids, scored_tricks))
        s.totals = tuple([total + sum(points[seat::p]) for seat, total in enumerate(s.totals)])
        s.exact = tuple([exact + sum(hits[seat::p]) for seat, exact in enumerate(s.exact)])
        cells = list(map(lshift, map(or_, scored_bids, map(lshift, scored_tricks, repeat(ROW_BITS))),
                         cycle(_CELL_SHIFTS[:p])))
        s.rows += tuple(map(sum, zip(*[iter(cells)] * p)))  # pack_row, per round
    return step
