"""A fast Kaiser hand simulator on ints for the search bot's playouts, with a heuristic-like policy.

``play_hand(state, rng)`` plays one sampled world from any point of a hand (bidding, trump or play)
to the end of that hand on plain ints, without building states, actions or events, and returns
the :class:`HandEnd`: each side's change of score and, if the game ends with the hand, who won.
It follows the engine's rules exactly (``tests/kaiser/test_playout.py`` replays its moves through
the engine on random positions and compares). Every seat plays the same policy, which reads only
its own hand and what is public (the bidding, the cards gone this hand):

- calls: the ``heuristic`` bot's rule (rate each suit and no trump, add the partner's share, bid the
  lowest bid the rating covers; pass on the partner's bid; the forced dealer bids the floor); the
  winning bidder names the suit it rates best;
- leading: a bidder draws trumps with the top live trump while the defenders may hold trumps; else
  it cashes a side card nothing live beats; else it leads low from its longest side suit, keeping
  the 5♥ and 3♠ back;
- following: partner winning, play low (the 5♥ when last); the 3♠ on the table with an opponent
  winning, duck; else win as cheaply as possible (the 5♥ when last and it wins), else throw the 3♠
  on the opponents, never the 5♥.

It is the ``playout`` of ``KaiserGame.search_hints()`` (``world.HINTS``), which the generic search
bot reads, and rates hands for the search's sampler: so it sits with the rules and imports no
player (the ratings are ``rating.py``'s, which the ``heuristic`` bot bids by too). ``_fast.pyx`` is
the same hand in C (``compiled.FAST``), used where built.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import NamedTuple

from cardtable.games.kaiser import rules
from cardtable.games.kaiser.actions import NAME_TRUMPS, PASS, PLAYS, Bid, KaiserAction
from cardtable.games.kaiser.compiled import FAST
from cardtable.games.kaiser.rating import PARTNER_SHARE, side_suit_value, trump_suit_value
from cardtable.games.kaiser.rules import game_verdict
from cardtable.games.kaiser.state import BIDDING, OVER, PLAY, TRUMP, KaiserState

FIVE, THREE = rules.FIVE_OF_HEARTS, rules.THREE_OF_SPADES
FIVE_BIT, THREE_BIT = 1 << FIVE, 1 << THREE
SUIT_MASK = (0xFF, 0xFF << 8, 0xFF << 16, 0xFF << 24)
_NT = rules.NO_TRUMP
#: POWER[trump * 4 + led][card]: how strongly a card bids for a trick (see ``rules.card_power``).
POWER: tuple[tuple[int, ...], ...] = tuple(
    tuple(rules.card_power(c, led, trump) for c in range(32)) for trump in range(5) for led in range(4))
#: BEATS[trump * 4 + led][power]: the cards whose power is above ``power``.
BEATS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << c for c in range(32) if row[c] > p) for p in range(25)) for row in POWER)
_RANK_MASKS = tuple(sum(1 << (8 * suit + rank) for suit in range(4)) for rank in range(8))
#: ABOVE[card]: the cards of its suit ranked above it.
ABOVE: tuple[int, ...] = tuple(SUIT_MASK[c >> 3] & ~((1 << (c + 1)) - 1) for c in range(32))


class HandEnd(NamedTuple):
    """How a hand ended: each side's change of score, and the winning side if the game is over."""

    change: tuple[int, int]
    winner: int
    """-1 while the game goes on; 0 or 1 the winning side; 2 a draw (the hand cap with level totals)."""


def _top(mask: int) -> int:
    """The highest card id of a non-empty mask."""
    return mask.bit_length() - 1


def _low(mask: int) -> int:
    """The lowest card id of a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def _cards(mask: int) -> list[int]:
    return rules.cards_of(mask)


# Calls: the heuristic bot's ratings (``kaiser.rating``), from per-suit tables.


def _byte_ranks(byte: int) -> list[int]:
    return [r for r in range(8) if byte >> r & 1]


_TRUMP_BYTE = tuple(trump_suit_value(_byte_ranks(b)) for b in range(256))
_SIDE_BYTE = tuple(side_suit_value(_byte_ranks(b), 0) for b in range(256))
_SIDE_NT_BYTE = tuple(side_suit_value(_byte_ranks(b), _NT) for b in range(256))


def rate_hand(hand: int) -> tuple[int, float, float]:
    """The best trump suit of a hand, its rating and the no-trump rating (as ``rating.trump_rating`` rates)."""
    b = (hand & 0xFF, hand >> 8 & 0xFF, hand >> 16 & 0xFF, hand >> 24 & 0xFF)
    side = [_SIDE_BYTE[b[0]], _SIDE_BYTE[b[1]], _SIDE_BYTE[b[2]], _SIDE_BYTE[b[3]]]
    total = side[0] + side[1] + side[2] + side[3]
    five = hand & FIVE_BIT
    three = hand & THREE_BIT
    many_hearts = b[1].bit_count() >= 3
    many_spades = b[0].bit_count() >= 3
    best, value = 0, -1e9
    for suit in range(4):
        v = total - side[suit] + _TRUMP_BYTE[b[suit]]
        if five:
            v += 3.0 if suit == 1 or many_hearts else 2.0
        if three:
            v -= 1.0 if suit == 0 and many_spades else 2.0
        if v > value + 1e-9:
            best, value = suit, v
    nt = _SIDE_NT_BYTE[b[0]] + _SIDE_NT_BYTE[b[1]] + _SIDE_NT_BYTE[b[2]] + _SIDE_NT_BYTE[b[3]]
    if five:
        nt += 3.0 if many_hearts else 2.0
    if three:
        nt -= 2.0
    return best, value, nt


def choose_call(hand: int, seat: int, dealer: int, high: int, high_bidder: int, floor: int,
                no_trump: bool) -> int:
    """The bid value (``rules.bid_value``) this hand calls, or -1 for a pass."""
    forced = seat == dealer and high < 0
    if not forced and high >= 0 and high_bidder == (seat + 2) % 4:
        return -1
    _, suit_value, nt_value = rate_hand(hand)
    lowest = -1
    for points in range(floor, rules.MAX_BID + 1):
        for nt in (False, True) if no_trump else (False,):
            value = 2 * points + nt
            if value <= high:
                continue
            if lowest < 0:
                lowest = value
            if (nt_value - 1.0 if nt else suit_value) + PARTNER_SHARE >= points:
                return value
    return lowest if forced else -1


# Card play.


def _lowest_rank(mask: int) -> int:
    """The lowest-ranked card of a non-empty mask (the lowest id among equal ranks)."""
    for rank in _RANK_MASKS:
        low = mask & rank
        if low:
            return (low & -low).bit_length() - 1
    raise ValueError("an empty mask has no card")


def _cheapest(mask: int, trump: int) -> int:
    """The least useful card of a non-empty mask: side cards before trumps, low before high, the 5♥ last."""
    pool = mask & ~FIVE_BIT
    if not pool:
        return FIVE
    if trump < 4 and pool & ~SUIT_MASK[trump]:
        pool &= ~SUIT_MASK[trump]
    return _lowest_rank(pool)


def choose_card(hand: int, legal: int, seat: int, trick: list[tuple[int, int]], trump: int, bidder: int,
                gone: int) -> int:
    """The card the policy plays from ``legal`` (a mask) with ``trick`` on the table."""
    if not trick:
        return _lead(hand, legal, seat, trump, bidder, gone)
    led = trick[0][1] >> 3
    index = trump * 4 + led
    power = POWER[index]
    best, winner, on_table = -1, -1, 0
    for s, c in trick:
        on_table |= 1 << c
        if power[c] > best:
            best, winner = power[c], s
    winners = legal & BEATS[index][best]
    losers = legal & ~winners
    last = len(trick) == 3
    if winner == (seat + 2) % 4:
        if last and losers & FIVE_BIT:
            return FIVE
        pool = losers & ~THREE_BIT or losers or legal
        return _cheapest(pool, _NT)
    if on_table & THREE_BIT and not on_table & FIVE_BIT and losers:
        return _cheapest(losers, trump)  # duck: let the opponents keep the 3♠
    if winners:
        if last and winners & FIVE_BIT:
            return FIVE
        pool = winners & ~(FIVE_BIT | THREE_BIT) or winners
        return _low(pool)  # all of the led suit (following) or all trumps (void): the lowest id wins cheapest
    if legal & THREE_BIT:
        return THREE
    return _cheapest(legal, trump)


def _lead(hand: int, legal: int, seat: int, trump: int, bidder: int, gone: int) -> int:
    """Draw trumps (bidders), cash a master side card, else low from the longest side suit."""
    live = ~gone & ~hand & rules.FULL_DECK  # cards in the other hands
    if trump < 4:
        trumps = hand & SUIT_MASK[trump]
        if trumps and (seat & 1) == (bidder & 1) and live & SUIT_MASK[trump]:
            top = _top(trumps)
            if not live & ABOVE[top] or (trumps.bit_count() >= 2 and top & 7 >= 6):
                return top
    best_master = -1
    for suit in range(4):
        if suit == trump:
            continue
        mine = hand & SUIT_MASK[suit]
        if mine and live & SUIT_MASK[suit]:
            top = _top(mine)
            if top != THREE and not live & ABOVE[top] and (best_master < 0 or top & 7 > best_master & 7):
                best_master = top
    if best_master >= 0:
        return best_master
    side = hand & ~(FIVE_BIT | THREE_BIT)
    if trump < 4 and side & ~SUIT_MASK[trump]:
        side &= ~SUIT_MASK[trump]
    if not side:
        side = hand
    longest, length = 0, -1
    for suit in range(4):
        n = (side & SUIT_MASK[suit]).bit_count()
        if n > length:
            longest, length = suit, n
    return _low(side & SUIT_MASK[longest])


# The hand.


def play_hand(state: KaiserState, rng: random.Random,
              record: Callable[[int, KaiserAction], None] | None = None) -> HandEnd:
    """Play the hand ``state`` is in to its end with the policy; ``record(seat, action)`` sees each move.

    Where the compiled ``_fast`` is built and nothing records, it plays the hand instead (the same moves).
    """
    if state.phase == OVER:
        return _finished(state)
    fast = FAST.get() if record is None else None
    if fast is not None:
        bidder, high, points = fast.play_hand(state)
        return _score(state, bidder, high, points)
    hands = list(state.hands)
    opts = state.options
    high, high_bidder, turn, dealer = state.high, state.high_bidder, state.turn, state.dealer
    if state.phase == BIDDING:
        while True:
            call = choose_call(hands[turn], turn, dealer, high, high_bidder, opts.floor, opts.no_trump)
            if call >= 0:
                high, high_bidder = call, turn
            if record is not None:
                record(turn, PASS if call < 0 else Bid(call >> 1, bool(call & 1)))
            if turn == dealer:
                break
            turn = (turn + 1) % 4
        turn = high_bidder
        trump = _NT if high & 1 else -1
    else:
        trump = state.trump
    if trump < 0 or state.phase == TRUMP:
        trump = rate_hand(hands[turn])[0]
        if record is not None:
            record(turn, NAME_TRUMPS[trump])
    trick = list(state.trick) if state.phase == PLAY else []
    gone = 0
    for _, c in state.played:
        gone |= 1 << c
    for _, c in trick:
        gone |= 1 << c
    points = list(state.points) if state.phase == PLAY else [0, 0]
    bidder = high_bidder
    while True:
        hand = hands[turn]
        legal = hand
        if trick:
            follow = hand & SUIT_MASK[trick[0][1] >> 3]
            if follow:
                legal = follow
        card = choose_card(hand, legal, turn, trick, trump, bidder, gone)
        if record is not None:
            record(turn, PLAYS[card])
        hands[turn] = hand & ~(1 << card)
        gone |= 1 << card
        trick.append((turn, card))
        if len(trick) < 4:
            turn = (turn + 1) % 4
            continue
        power = POWER[trump * 4 + (trick[0][1] >> 3)]
        best = -1
        for s, c in trick:
            if power[c] > best:
                best, turn = power[c], s
        worth = 1
        for _, c in trick:
            if c == FIVE:
                worth += 5
            elif c == THREE:
                worth -= 3
        points[turn & 1] += worth
        trick = []
        if not hands[turn]:
            break
    return _score(state, bidder, high, points)


def _score(state: KaiserState, bidder: int, high: int, points: list[int]) -> HandEnd:
    """The hand's result as the engine scores it."""
    side, bid, no_trump = bidder & 1, high >> 1, bool(high & 1)
    change = [0, 0]
    change[side] = rules.hand_score(bid, no_trump, points[side])
    change[1 - side] = points[1 - side]
    totals = (state.totals[0] + change[0], state.totals[1] + change[1])
    verdict = game_verdict(totals, side, state.options.target, state.hand_no)
    return HandEnd((change[0], change[1]), -1 if verdict is None else _side_of(verdict[0]))


def _side_of(winners: tuple[int, ...]) -> int:
    """The winning side of a finished game's winners (2: a draw, all four seats)."""
    return 2 if len(winners) == 4 else winners[0] & 1


def _finished(state: KaiserState) -> HandEnd:
    """The result of the last hand of a game that is over."""
    line = state.sheet[-1]
    winners = state.result.winners if state.result is not None else ()
    return HandEnd(line.change, _side_of(tuple(winners)) if winners else -1)


def hand_end_of(world: KaiserState, state: KaiserState) -> HandEnd:
    """The result of the hand ``world`` was in, once ``state`` has scored it (the search's tree reached it)."""
    line = state.sheet[len(world.sheet)]
    if state.phase == OVER and len(state.sheet) == len(world.sheet) + 1 and state.result is not None:
        return HandEnd(line.change, _side_of(tuple(state.result.winners)))
    return HandEnd(line.change, -1)
