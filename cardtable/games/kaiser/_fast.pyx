# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Kaiser's search playout and world sampler in C: the same hands played out, the same worlds drawn, the same numbers.

A second implementation of ``playout.play_hand`` (with ``choose_call``, ``rate_hand``,
``choose_card``, ``_lead``, ``_cheapest``; the score stays ``playout._score``'s) and of the search's
sampler ``world.sample_fitting_world`` (each try ``core.worlds.deal_hidden``, through
``core/_worlds.pxd``, then the world's ``randrange(2**62)``, then ``_misfit``). The sampler draws
from the search's ``random.Random`` through ``core/_twister.pxd`` as the Python does; the ratings are
the Python's floats added in the same order. It sits with the rules, as ``playout.py`` does (the
game's search hints hand both over). The Python stays the reference; ``tests/kaiser/test_compiled.py``
compares the two.
"""

from libc.stdint cimport uint64_t

from cardtable.core._twister cimport Twister, randbelow
from cardtable.core._worlds cimport MAX_PLACES, Places, deal_hidden, fill_places

from cardtable.core.worlds import NoConsistentWorld
from cardtable.games.kaiser import playout as _playout
from cardtable.games.kaiser import rules as _rules
from cardtable.games.kaiser.rating import PARTNER_SHARE as _PARTNER_SHARE
from cardtable.games.kaiser.state import BIDDING as _BIDDING
from cardtable.games.kaiser.state import PLAY as _PLAY
from cardtable.games.kaiser.state import TRUMP as _TRUMP

cdef enum:
    FIVE = 8       # rules.FIVE_OF_HEARTS (checked at import)
    THREE = 0      # rules.THREE_OF_SPADES
    NT = 4         # rules.NO_TRUMP
    MAX_BOUNDS = 3
    LATE_DEFECT = 5   # plant's "the generator goes back to Python one word late"

include "../../core/_playout.pxi"


# Tables (playout.py, rules.py, rating.py), filled at import.

cdef int POWER[20][32]
cdef uint64_t BEATS[20][25]
cdef uint64_t ABOVE[32]
cdef uint64_t SUIT_MASK[4]
cdef uint64_t RANK_MASK[8]
cdef double TRUMP_BYTE[256]
cdef double SIDE_BYTE[256]
cdef double SIDE_NT_BYTE[256]
cdef double PARTNER_SHARE
cdef int MAX_BID, PHASE_BIDDING, PHASE_TRUMP, PHASE_PLAY


def _fill_tables() -> None:
    global PARTNER_SHARE, MAX_BID, PHASE_BIDDING, PHASE_TRUMP, PHASE_PLAY
    cdef int i, j
    if (_rules.FIVE_OF_HEARTS, _rules.THREE_OF_SPADES, _rules.NO_TRUMP) != (FIVE, THREE, NT):
        raise ImportError("the compiled Kaiser playout was built for other card ids")
    for i in range(20):
        for j in range(32):
            POWER[i][j] = _playout.POWER[i][j]
        for j in range(25):
            BEATS[i][j] = _playout.BEATS[i][j]
    for i in range(32):
        ABOVE[i] = _playout.ABOVE[i]
    for i in range(4):
        SUIT_MASK[i] = _playout.SUIT_MASK[i]
    for i in range(8):
        RANK_MASK[i] = _playout._RANK_MASKS[i]
    for i in range(256):
        TRUMP_BYTE[i], SIDE_BYTE[i], SIDE_NT_BYTE[i] = (_playout._TRUMP_BYTE[i], _playout._SIDE_BYTE[i],
                                                         _playout._SIDE_NT_BYTE[i])
    PARTNER_SHARE, MAX_BID = _PARTNER_SHARE, _rules.MAX_BID
    PHASE_BIDDING, PHASE_TRUMP, PHASE_PLAY = _BIDDING, _TRUMP, _PLAY


_fill_tables()


def plant(defect: int) -> None:
    """Plant a defect, for the tests that must catch it (0 removes it): 1 a bidder never draws trumps, 2 the
    5♥ is worth 4, 3 a hand that misses its bounds by less than the slack counts the miss, 4 the world keeps
    the first deal's seed, 5 the generator goes back to Python one word late."""
    global DEFECT
    DEFECT = defect


# Calls (playout.rate_hand, choose_call).

cdef int rate_hand(uint64_t hand, double* value_out, double* nt_out) noexcept nogil:
    """``playout.rate_hand``: the best trump suit; its rating and the no-trump rating in the pointers."""
    cdef int b[4]
    cdef double side[4]
    cdef double total, value = -1e9, v, nt
    cdef int suit, best = 0
    cdef bint five = hand & bit(FIVE), three = hand & bit(THREE), many_hearts, many_spades
    for suit in range(4):
        b[suit] = hand >> (8 * suit) & 0xFF
        side[suit] = SIDE_BYTE[b[suit]]
    total = side[0] + side[1] + side[2] + side[3]
    many_hearts = popcount(b[1]) >= 3
    many_spades = popcount(b[0]) >= 3
    for suit in range(4):
        v = total - side[suit] + TRUMP_BYTE[b[suit]]
        if five:
            v += 3.0 if suit == 1 or many_hearts else 2.0
        if three:
            v -= 1.0 if suit == 0 and many_spades else 2.0
        if v > value + 1e-9:
            best, value = suit, v
    nt = SIDE_NT_BYTE[b[0]] + SIDE_NT_BYTE[b[1]] + SIDE_NT_BYTE[b[2]] + SIDE_NT_BYTE[b[3]]
    if five:
        nt += 3.0 if many_hearts else 2.0
    if three:
        nt -= 2.0
    value_out[0], nt_out[0] = value, nt
    return best


cdef int choose_call(uint64_t hand, int seat, int dealer, int high, int high_bidder, int floor,
                     bint no_trump) noexcept nogil:
    """``playout.choose_call``: the bid value this hand calls, or -1 for a pass."""
    cdef bint forced = seat == dealer and high < 0
    cdef double suit_value, nt_value
    cdef int lowest = -1, points, nt, value
    if not forced and high >= 0 and high_bidder == (seat + 2) % 4:
        return -1
    rate_hand(hand, &suit_value, &nt_value)
    for points in range(floor, MAX_BID + 1):
        for nt in range(2 if no_trump else 1):
            value = 2 * points + nt
            if value <= high:
                continue
            if lowest < 0:
                lowest = value
            if (nt_value - 1.0 if nt else suit_value) + PARTNER_SHARE >= points:
                return value
    return lowest if forced else -1


cdef int best_suit(uint64_t hand) noexcept nogil:
    """``rate_hand(hand)[0]``: the suit the winning bidder names."""
    cdef double value, nt
    return rate_hand(hand, &value, &nt)


# Card play (playout.choose_card, _lead, _cheapest, _lowest_rank).

cdef inline int lowest_rank(uint64_t mask) noexcept nogil:
    """The lowest-ranked card of a non-empty mask (the lowest id among equal ranks)."""
    cdef int rank
    for rank in range(8):
        if mask & RANK_MASK[rank]:
            return ctz(mask & RANK_MASK[rank])
    return -1


cdef inline int cheapest(uint64_t mask, int trump) noexcept nogil:
    """Side cards before trumps, low before high, the 5♥ last."""
    cdef uint64_t pool = mask & ~bit(FIVE)
    if not pool:
        return FIVE
    if trump < 4 and pool & ~SUIT_MASK[trump]:
        pool &= ~SUIT_MASK[trump]
    return lowest_rank(pool)


cdef int lead_card(uint64_t hand, int seat, int trump, int bidder, uint64_t gone) noexcept nogil:
    """``playout._lead``: draw trumps (bidders), cash a master side card, else low from the longest side suit."""
    cdef uint64_t live = ~gone & ~hand & 0xFFFFFFFFULL, trumps, mine, side
    cdef int top, suit, best_master = -1, longest = 0, length = -1, n
    if trump < 4:
        trumps = hand & SUIT_MASK[trump]
        if trumps and (seat & 1) == (bidder & 1) and live & SUIT_MASK[trump] and DEFECT != 1:
            top = top_bit(trumps)
            if not live & ABOVE[top] or (popcount(trumps) >= 2 and top & 7 >= 6):
                return top
    for suit in range(4):
        if suit == trump:
            continue
        mine = hand & SUIT_MASK[suit]
        if mine and live & SUIT_MASK[suit]:
            top = top_bit(mine)
            if top != THREE and not live & ABOVE[top] and (best_master < 0 or top & 7 > best_master & 7):
                best_master = top
    if best_master >= 0:
        return best_master
    side = hand & ~(bit(FIVE) | bit(THREE))
    if trump < 4 and side & ~SUIT_MASK[trump]:
        side &= ~SUIT_MASK[trump]
    if not side:
        side = hand
    for suit in range(4):
        n = popcount(side & SUIT_MASK[suit])
        if n > length:
            longest, length = suit, n
    return ctz(side & SUIT_MASK[longest])


cdef int choose_card(uint64_t hand, uint64_t legal, int seat, const int* trick_seat, const int* trick_card,
                     int tl, int trump, int bidder, uint64_t gone) noexcept nogil:
    """``playout.choose_card``: the policy's card from ``legal`` with the trick so far on the table."""
    cdef int index, best = -1, winner = -1, i, c
    cdef uint64_t on_table = 0, winners, losers, pool
    cdef bint last = tl == 3
    if tl == 0:
        return lead_card(hand, seat, trump, bidder, gone)
    index = trump * 4 + (trick_card[0] >> 3)
    for i in range(tl):
        c = trick_card[i]
        on_table |= bit(c)
        if POWER[index][c] > best:
            best, winner = POWER[index][c], trick_seat[i]
    winners = legal & BEATS[index][best]
    losers = legal & ~winners
    if winner == (seat + 2) % 4:
        if last and losers & bit(FIVE):
            return FIVE
        pool = losers & ~bit(THREE)
        if not pool:
            pool = losers if losers else legal
        return cheapest(pool, NT)
    if on_table & bit(THREE) and not on_table & bit(FIVE) and losers:
        return cheapest(losers, trump)  # duck: let the opponents keep the 3♠
    if winners:
        if last and winners & bit(FIVE):
            return FIVE
        pool = winners & ~(bit(FIVE) | bit(THREE))
        return ctz(pool if pool else winners)
    if legal & bit(THREE):
        return THREE
    return cheapest(legal, trump)


# The hand (playout.play_hand).

def play_hand(state: object) -> tuple:
    """``playout.play_hand`` of a state not over, without the score: (bidder, high bid value, each side's points)."""
    cdef uint64_t hands[4]
    cdef int trick_seat[4]
    cdef int trick_card[4]
    cdef int points[2]
    cdef int phase = state.phase, high = state.high, high_bidder = state.high_bidder, turn = state.turn
    cdef int dealer = state.dealer, floor = state.options.floor, trump, tl = 0, i, call, card, best, worth, led
    cdef bint no_trump = state.options.no_trump
    cdef uint64_t gone = 0, hand, legal, follow
    for i in range(4):
        hands[i] = state.hands[i]
    if phase == PHASE_BIDDING:
        while True:
            call = choose_call(hands[turn], turn, dealer, high, high_bidder, floor, no_trump)
            if call >= 0:
                high, high_bidder = call, turn
            if turn == dealer:
                break
            turn = (turn + 1) % 4
        turn = high_bidder
        trump = NT if high & 1 else -1
    else:
        trump = state.trump
    if trump < 0 or phase == PHASE_TRUMP:
        trump = best_suit(hands[turn])
    for _, c in state.played:
        gone |= bit(c)
    if phase == PHASE_PLAY:
        for s, c in state.trick:
            trick_seat[tl], trick_card[tl] = s, c
            tl += 1
            gone |= bit(c)
        points[0], points[1] = state.points[0], state.points[1]
    else:
        points[0], points[1] = 0, 0
    with nogil:
        while True:
            hand = hands[turn]
            legal = hand
            if tl:
                follow = hand & SUIT_MASK[trick_card[0] >> 3]
                if follow:
                    legal = follow
            card = choose_card(hand, legal, turn, trick_seat, trick_card, tl, trump, high_bidder, gone)
            hands[turn] = hand & ~bit(card)
            gone |= bit(card)
            trick_seat[tl], trick_card[tl] = turn, card
            tl += 1
            if tl < 4:
                turn = (turn + 1) % 4
                continue
            led = trick_card[0] >> 3
            best = -1
            for i in range(4):
                if POWER[trump * 4 + led][trick_card[i]] > best:
                    best, turn = POWER[trump * 4 + led][trick_card[i]], trick_seat[i]
            worth = 1
            for i in range(4):
                if trick_card[i] == FIVE:
                    worth += 4 if DEFECT == 2 else 5
                elif trick_card[i] == THREE:
                    worth -= 3
            points[turn & 1] += worth
            tl = 0
            if not hands[turn]:
                break
    return high_bidder, high, [points[0], points[1]]


# The search's sampler (world.sample_fitting_world, sample_world, _misfit).

cdef struct Bound:
    int seat
    uint64_t played
    double suit_max
    double nt_max
    double suit_min
    double nt_min


cdef inline double above_zero(double x) noexcept nogil:
    """``max(0.0, x)`` (0.0 for nan too, as Python's ``max`` keeps its first argument)."""
    return x if x > 0.0 else 0.0


cdef double misfit(const uint64_t* hands, const Bound* bounds, int count, double slack) noexcept nogil:
    """``world._misfit``: how far the hands (with the cards played) miss the bidding's bounds, beyond the slack."""
    cdef double total = 0.0, suit, nt, miss
    cdef int k
    for k in range(count):
        rate_hand(hands[bounds[k].seat] | bounds[k].played, &suit, &nt)
        miss = (above_zero(suit - bounds[k].suit_max) + above_zero(nt - bounds[k].nt_max)
                + above_zero(bounds[k].suit_min - suit) + above_zero(bounds[k].nt_min - nt))
        if miss > slack or (DEFECT == 3 and miss > 0.0):
            total += miss
    return total


def fitting_deal(rng: object, hidden: list, places: list, others: list, hands: tuple, bounds: list, tries: int,
                 slack: float) -> tuple:
    """``sample_fitting_world``'s draws: the best of up to ``tries`` deals (each followed by its world's
    ``randrange(2**62)``) by ``_misfit`` (none: one deal, not rated); (the four hands, that world's seed)."""
    cdef Places pl
    cdef Twister g
    cdef uint64_t dealt[MAX_PLACES]
    cdef uint64_t world[4]
    cdef uint64_t best[4]
    cdef Bound b[MAX_BOUNDS]
    cdef int nb = len(bounds), t, i, found = 0
    cdef uint64_t seed, best_seed = 0
    cdef double miss, best_misfit = float("inf")
    fill_places(&pl, hidden, places)
    if len(others) != pl.count or len(hands) != 4 or nb > MAX_BOUNDS:
        raise ValueError("a place per other seat, four hands, a bound per other seat at most")
    for i, (seat, played, suit_max, nt_max, suit_min, nt_min) in enumerate(bounds):
        b[i].seat, b[i].played = seat, played
        b[i].suit_max, b[i].nt_max, b[i].suit_min, b[i].nt_min = suit_max, nt_max, suit_min, nt_min
    take(&g, rng)
    try:
        for t in range(tries if nb else 1):
            if not deal_hidden(&pl, &g, dealt, False):
                raise NoConsistentWorld("no deal of the hidden cards respects what this seat has seen")
            for i in range(4):
                world[i] = hands[i]
            for i in range(pl.count):
                world[<int>others[i]] = dealt[i]
            seed = randbelow(&g, <uint64_t>1 << 62)
            miss = misfit(world, b, nb, slack) if nb else 0.0
            if miss < best_misfit:
                found = 1
                best_misfit = miss
                best_seed = seed if DEFECT != 4 or t == 0 else best_seed
                for i in range(4):
                    best[i] = world[i]
                if miss == 0.0:
                    break
    finally:
        give_back(&g, rng)
    if not found:  # every deal's misfit was nan: the Python's assert
        raise AssertionError("no sampled world was kept")
    return (best[0], best[1], best[2], best[3]), best_seed
