# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Wizard's search loop in C: the same sampled deals, weights, playouts and values as the Python, the same numbers.

A second implementation of the round simulator (``playout.play_round_from_card`` with ``_choose``,
``_cover``, ``_lead``, ``points``) and of the search's deals (``search.PimcBot._search``: ``world.sample_hands``
with ``core.worlds.deal_hidden``: ``core/_worlds.pxd``, ``search.bid_likelihood``, the
``round_value`` functions). The deals draw from the bot's ``random.Random`` through
``core/_twister.pxd`` as the Python does (``shuffle``, ``random``, ``choices``); the floating point is
the Python's (the same operations in order; ``exp``, ``erf`` and ``pow`` from the same libm, checked
at first use by ``compiled.py``). The Python stays the reference; ``tests/wizard/test_compiled.py``
compares the two.
"""

from libc.math cimport erf, exp, isfinite, pow, sqrt
from libc.stdint cimport int16_t, uint8_t, uint64_t
from libc.string cimport memcpy

from cardtable.core._twister cimport Twister
from cardtable.core._twister cimport random as draw
from cardtable.core._worlds cimport MAX_PLACES, Places, deal_hidden, fill_places

import time

from cardtable.core.worlds import NoConsistentWorld
from cardtable.games.wizard import rules as _rules

cdef enum:
    MAXP = 8        # seats (the game allows 3-6)
    DECK = 60
    MAX_MOVES = 64
    LATE_DEFECT = 5   # plant's "the generator goes back to Python one word late"

include "../../../core/_playout.pxi"


# Tables (rules.py), filled at import.

cdef int16_t STRENGTH[5][6][DECK]
cdef uint64_t SUIT_MASK[4]
cdef uint64_t ABOVE[DECK]
cdef int RANK[DECK]
cdef uint64_t WIZARDS, JESTERS, PLAIN


def _fill_tables() -> None:
    global WIZARDS, JESTERS, PLAIN
    cdef int t, l, c
    for t in range(5):
        for l in range(6):
            for c in range(DECK):
                STRENGTH[t][l][c] = _rules.STRENGTH[t][l][c]
    for t in range(4):
        SUIT_MASK[t] = _rules.SUIT_MASK[t]
    for c in range(DECK):
        RANK[c] = _rules.RANK_OF[c]
        ABOVE[c] = SUIT_MASK[_rules.SUIT_OF[c]] & ~((<uint64_t>1 << (c + 1)) - 1) if _rules.SUIT_OF[c] >= 0 else 0
    WIZARDS, JESTERS = _rules.WIZARD_MASK, _rules.JESTER_MASK
    PLAIN = <uint64_t>_rules.ALL_MASK & ~(WIZARDS | JESTERS)


_fill_tables()


def plant(defect: int) -> None:
    """Plant a defect, for the tests that must catch it (0 removes it): 1 a seat short of its bid leads its
    lowest side card, 2 the chance of finishing first treats a tie as a loss, 3 a rejected deal is kept, 4 the
    weight of a deal forgets the cards a seat played, 5 the generator goes back to Python one word late."""
    global DEFECT
    DEFECT = defect


def arithmetic(values: list, hands: list, xs: list) -> list:
    """The floating point the search relies on, for ``compiled.py``'s check against Python: each hand's
    ``Table.estimate`` (a sum in card order), and ``erf``, ``exp`` and the square (``** 2``) of each x."""
    cdef double v[DECK]
    cdef int i
    for i in range(DECK):
        v[i] = values[i]
    out = [estimate(v, h) for h in hands]
    out += [(erf(x), exp(x), pow(x, 2.0)) for x in xs]
    return out


cdef inline double estimate(const double* values, uint64_t hand) noexcept nogil:
    """``Table.estimate``: the fitted values of a hand's cards added in card order (Python's ``sum``)."""
    cdef double total = 0.0
    while hand:
        total += values[ctz(hand)]
        hand &= hand - 1
    return total


# The playout policy (playout._choose, _cover, _lead, _cost).

cdef inline int cost(int card, int trump) noexcept nogil:
    """How dangerous a card is to keep when ducking: wizards most, then trumps, then rank; jesters nothing."""
    if card >= 56:
        return 0
    if card >= 52:
        return 100
    return RANK[card] + (40 if card // 13 == trump else 0)


cdef inline int min_by_strength(uint64_t cards, const int16_t* table) noexcept nogil:
    """``min(hand_ids(cards), key=lambda c: (table[c], c))``."""
    cdef int best = -1, c
    while cards:
        c = ctz(cards)
        cards &= cards - 1
        if best < 0 or table[c] < table[best]:
            best = c
    return best


cdef inline int max_cost_low(uint64_t cards, int trump) noexcept nogil:
    """``max(hand_ids(cards), key=lambda c: (_cost(c, trump), -c))``: the most dangerous, the lowest id among equals."""
    cdef int best = -1, c
    while cards:
        c = ctz(cards)
        cards &= cards - 1
        if best < 0 or cost(c, trump) > cost(best, trump):
            best = c
    return best


cdef int lead_card(uint64_t legal, uint64_t others, int need, int trump, uint64_t trump_mask) noexcept nogil:
    """``playout._lead``: a sure or high card while short of the bid, else a low side card."""
    cdef uint64_t side = legal & PLAIN & ~trump_mask, trumps, cards, rest
    cdef int top, s, c, best
    if need > 0 and DEFECT != 1:
        trumps = legal & trump_mask
        if trumps:
            top = top_bit(trumps)
            if not others & ABOVE[top]:
                return top
        for s in range(4):
            cards = side & SUIT_MASK[s]
            if cards:
                top = top_bit(cards)
                if not others & ABOVE[top]:
                    return top
        if legal & WIZARDS:
            return ctz(legal & WIZARDS)
        if side:
            best = -1  # max by (rank, id)
            rest = side
            while rest:
                c = ctz(rest)
                rest &= rest - 1
                if best < 0 or RANK[c] >= RANK[best]:
                    best = c
            if RANK[best] >= 10:
                return best
            return low_side(side)
        if trumps:
            return ctz(trumps)
        return ctz(legal)
    if side:
        c = low_side(side)
        if legal & JESTERS and not others & ABOVE[c]:
            return ctz(legal & JESTERS)
        return c
    if legal & JESTERS:
        return ctz(legal & JESTERS)
    if legal & trump_mask:
        return ctz(legal & trump_mask)
    return ctz(legal)


cdef inline int low_side(uint64_t side) noexcept nogil:
    """``min(hand_ids(side), key=lambda c: (_RANK[c], c))``."""
    cdef int best = -1, c
    while side:
        c = ctz(side)
        side &= side - 1
        if best < 0 or RANK[c] < RANK[best]:
            best = c
    return best


cdef int cover_card(uint64_t legal, uint64_t others, int lead, const int* trick, int tl, int need, uint64_t keep,
                    int trump, uint64_t trump_mask, const int16_t* by_lead) noexcept nogil:
    """``playout._cover``: lose with the other cards, keep the sure winners for the tricks still needed."""
    cdef int wizards = popcount(keep), i, c, best = -1
    cdef uint64_t plain = legal & ~keep, rest
    cdef const int16_t* table
    if tl == 0:
        return lead_card(plain, others, 0, trump, trump_mask) if plain else ctz(legal)
    for i in range(tl):
        if 52 <= trick[i] < 56:  # a wizard holds the trick: nothing wins it
            if wizards > need and legal & WIZARDS:
                return ctz(legal & WIZARDS)
            return max_cost_low(plain if plain else legal, trump)
    table = by_lead if lead == -1 else by_lead + (lead + 1) * DECK
    for i in range(tl):
        if table[trick[i]] > best:
            best = table[trick[i]]
    rest = 0
    while plain:
        c = ctz(plain)
        plain &= plain - 1
        if table[c] <= best:
            rest |= bit(c)
    if rest:
        return max_cost_low(rest, trump)
    if legal & keep:
        return ctz(legal & keep)  # this trick is taken anyway: take it with a sure card
    return min_by_strength(legal, table)


cdef int choose(uint64_t hand, uint64_t others, int lead, const int* trick, int tl, int need, int trump,
                uint64_t trump_mask, const int16_t* by_lead, bint last, int cover) noexcept nogil:
    """``playout._choose``: the playout policy's card (-1 for an empty hand)."""
    cdef uint64_t legal = hand, follow, keep, rest, winners, plain, safe
    cdef const int16_t* table
    cdef int best, i, c
    if 0 <= lead < 4:
        follow = hand & SUIT_MASK[lead]
        if follow:
            legal = follow | (hand & (WIZARDS | JESTERS))
    if not legal:
        return -1
    if not legal & (legal - 1):
        return ctz(legal)
    if cover and need > 0:
        keep = hand & WIZARDS
        if cover > 1 and trump >= 0 and (cover > 2 or not others & WIZARDS):
            rest = hand & trump_mask
            while rest:
                c = ctz(rest)
                rest &= rest - 1
                if not others & ABOVE[c]:
                    keep |= bit(c)
        if popcount(keep) >= need:
            return cover_card(legal, others, lead, trick, tl, need, keep, trump, trump_mask, by_lead)
    if tl == 0:
        return lead_card(legal, others, need, trump, trump_mask)
    if lead == -1:  # only jesters so far: any other card takes the lead and wins for now
        winners = legal & ~JESTERS
        table = by_lead
    else:
        table = by_lead + (lead + 1) * DECK
        best = -1
        for i in range(tl):
            if table[trick[i]] > best:
                best = table[trick[i]]
        winners = 0
        rest = legal
        while rest:
            c = ctz(rest)
            rest &= rest - 1
            if table[c] > best:
                winners |= bit(c)
    if need > 0:
        if winners:
            plain = winners & ~WIZARDS
            if not plain:
                return ctz(winners)
            if last:
                return min_by_strength(plain, table)
            safe = 0
            rest = plain
            while rest:
                c = ctz(rest)
                rest &= rest - 1
                if not others & ABOVE[c]:
                    safe |= bit(c)
            return min_by_strength(safe if safe else plain, table)
        if legal & JESTERS:
            return ctz(legal & JESTERS)
        best = -1  # min by (cost, id)
        rest = legal
        while rest:
            c = ctz(rest)
            rest &= rest - 1
            if best < 0 or cost(c, trump) < cost(best, trump):
                best = c
        return best
    if legal & ~winners:
        return max_cost_low(legal & ~winners, trump)
    if last:
        best = -1  # max by (cost, id): the highest id among equals
        rest = winners
        while rest:
            c = ctz(rest)
            rest &= rest - 1
            if best < 0 or cost(c, trump) >= cost(best, trump):
                best = c
        return best
    return min_by_strength(winners, table)


# The round simulator (playout.Table, play_round_from_card, _play, points).

cdef struct Round:
    int players
    int trump
    int cover
    int leader     # who leads (or led) the trick in progress
    int trick_len
    int bids[MAXP]     # None counted as 0
    int tricks[MAXP]
    int trick[MAXP]


cdef inline int winning_position(const int* trick, int tl, const int16_t* table) noexcept nogil:
    """``rules.winning_position``: the first wizard, else the strongest, the earlier among equals."""
    cdef int pos, best_pos = 0, best = -1, value
    for pos in range(tl):
        value = table[trick[pos]]
        if value > best:
            if value == 1000:
                return pos
            best_pos, best = pos, value
    return best_pos


cdef int play_out(const Round* r, uint64_t* hands, int me, int forced, int* points) noexcept nogil:
    """``play_round_from_card``: ``me`` plays ``forced`` now, the policy plays the rest; every seat's points in
    ``points``. -1 if a hand ran out of cards before the round's end (hands that do not fit the round)."""
    cdef int p = r.players, trump = r.trump, cover = r.cover, tl = r.trick_len, leader = r.leader
    cdef int tricks[MAXP]
    cdef int trick[MAXP]
    cdef int lead = -1, seat, card, i, winner, b, k
    cdef uint64_t live = 0, hand, trump_mask = SUIT_MASK[trump] if trump >= 0 else 0
    cdef const int16_t* by_lead = &STRENGTH[trump + 1][0][0]  # by_lead + (lead + 1) * DECK: the row of a lead
    for i in range(p):
        tricks[i] = r.tricks[i]
        live |= hands[i]
    for i in range(tl):
        trick[i] = r.trick[i]
        if lead == -1 and trick[i] < 56:  # rules.lead_state
            lead = 4 if trick[i] >= 52 else trick[i] // 13
    while True:
        seat = (leader + tl) % p
        while tl < p:
            hand = hands[seat]
            if seat == me and forced >= 0:
                card, forced = forced, -1
            else:
                card = choose(hand, live & ~hand, lead, trick, tl, r.bids[seat] - tricks[seat], trump, trump_mask,
                              by_lead, tl == p - 1, cover)
                if card < 0:
                    return -1
            hands[seat] = hand & ~bit(card)
            live &= ~bit(card)
            trick[tl] = card
            tl += 1
            if lead == -1 and card < 56:
                lead = 4 if card >= 52 else card // 13
            seat = (seat + 1) % p
        winner = (leader + winning_position(trick, tl, by_lead + (lead + 1) * DECK)) % p
        tricks[winner] += 1
        if not live:
            break
        leader, tl, lead = winner, 0, -1
    for i in range(p):
        b, k = r.bids[i], tricks[i]
        points[i] = 20 + 10 * b if b == k else -10 * (k - b if k > b else b - k)
    return 0


cdef int round_from(Round* r, object table) except -1:
    """Read a ``playout.Table``."""
    cdef int i
    p = table.players
    if not 2 <= p <= MAXP or len(table.trick) >= p or not -1 <= table.trump < 4:
        raise ValueError(f"a Wizard table has 2 to {MAXP} seats, a trick not yet full and a trump suit or none")
    r.players, r.trump, r.cover, r.leader, r.trick_len = p, table.trump, table.cover, table.trick_leader, len(table.trick)
    for i in range(p):
        r.bids[i] = table.bids[i] if table.bids[i] is not None else 0
        r.tricks[i] = table.tricks[i]
    for i in range(r.trick_len):
        r.trick[i] = table.trick[i]
    return 0


def play_round_from_card(table: object, hands: object, me: int, card: int) -> list:
    """``playout.play_round_from_card`` in C: points per seat when ``me`` plays ``card`` now."""
    cdef Round r
    cdef uint64_t h[MAXP]
    cdef int points[MAXP]
    cdef int i
    round_from(&r, table)
    if len(hands) != r.players or not 0 <= card < DECK:
        raise ValueError("a hand per seat, and a card of the deck")
    for i in range(r.players):
        h[i] = hands[i]
    if play_out(&r, h, me, card, points) < 0:
        raise ValueError("a hand ran out of cards before the end of the round")
    return [points[i] for i in range(r.players)]


# Sampling deals (world.sample_hands: core/_worlds.pxd).


def deal(rng: object, cards: list, places: list) -> list:
    """``core.worlds.deal_hidden`` in C, as masks (one per place); NoConsistentWorld as the Python raises it."""
    cdef Places pl
    cdef Twister g
    cdef uint64_t out[MAX_PLACES]
    cdef int ok, j
    fill_places(&pl, cards, places)
    take(&g, rng)
    ok = deal_hidden(&pl, &g, out, DEFECT == 3)
    give_back(&g, rng)
    if not ok:
        raise NoConsistentWorld("no deal of the hidden cards respects what this seat has seen")
    return [out[j] for j in range(pl.count)]


# The search's deals (search.PimcBot._search, _sample, bid_likelihood, round_value).

cdef class Deals:
    """One decision's sampled deals, each weighted by the bids and played out once per candidate card."""

    cdef Twister g
    cdef object rng
    cdef object perf
    cdef Round round
    cdef Places places
    cdef int me
    cdef int nothers
    cdef int others[MAXP]
    cdef uint64_t mine
    cdef int nmoves
    cdef int moves[MAX_MOVES]
    # The weight: fit 0 for none, bids (-1: not counted), the cards each seat played, the fitted values.
    cdef double fit
    cdef double variance2     # 2.0 * (1.0 + round / 8)
    cdef int bids_hidden
    cdef int bid_of[MAXP]
    cdef uint64_t played_by[MAXP]
    cdef double values[DECK]
    # The value: 0 the round's points, 1 the chance of winning in the last round, 2 the normal chance.
    cdef int mode
    cdef int totals[MAXP]
    cdef double scale         # spread * sqrt(2.0)

    def __init__(self, rng: object, table: object, me: int, moves: list, mine: int, cards: list, places: list,
                 others: list, fit: float, rounds_played: int, bids: list, bids_hidden: bool, mode: int,
                 totals: object, spread: float) -> None:
        cdef int i
        round_from(&self.round, table)
        fill_places(&self.places, cards, places)
        p = self.round.players
        if len(moves) > MAX_MOVES or len(others) != len(places) - 1 or len(totals) != p or mode not in (0, 1, 2):
            raise ValueError("at most 64 moves, a place per other seat and the stack, a total per seat, a value mode")
        self.rng, self.perf, self.me, self.mine = rng, time.perf_counter, me, mine
        self.nmoves, self.nothers = len(moves), len(others)
        for i, move in enumerate(moves):
            self.moves[i] = move
        for i, s in enumerate(others):
            self.others[i] = s
        self.fit, self.variance2, self.bids_hidden = fit, 2.0 * (1.0 + rounds_played / 8), bids_hidden
        for i in range(p):
            self.bid_of[i] = -1 if i == me or bids[i] is None else bids[i]
            self.played_by[i] = table.played_by[i]
            self.totals[i] = totals[i]
        for i in range(DECK):
            self.values[i] = table.values[i]
        self.mode, self.scale = mode, spread * sqrt(2.0)
        take(&self.g, rng)

    cdef double weight(self, const uint64_t* hands) noexcept nogil:
        """``bid_likelihood``: a Gaussian in (bid − fitted estimate of the hand as it was), to the power fit."""
        cdef double log_weight = 0.0
        cdef uint64_t held
        cdef int s
        if not self.fit:
            return 1.0
        if self.bids_hidden:
            return 1.0
        for s in range(self.round.players):
            if self.bid_of[s] < 0:
                continue
            held = hands[s] | (self.played_by[s] if DEFECT != 4 else 0)
            log_weight -= pow(self.bid_of[s] - estimate(self.values, held), 2.0)
        return exp(self.fit * log_weight / self.variance2)

    cdef double value(self, const int* points) noexcept nogil:
        """``round_value``'s function: the points, or the chance of finishing first."""
        cdef int s, best, count = 0, final, mine
        cdef double chance = 100.0
        if self.mode == 0:
            return <double>points[self.me]
        if self.mode == 1:
            best = self.totals[0] + points[0]
            for s in range(self.round.players):
                final = self.totals[s] + points[s]
                if final > best:
                    best = final
            for s in range(self.round.players):
                if self.totals[s] + points[s] == best:
                    count += 1
            if self.totals[self.me] + points[self.me] < best or (DEFECT == 2 and count > 1):
                return 0.0
            return 100.0 / count
        mine = self.totals[self.me] + points[self.me]
        for s in range(self.round.players):
            if s != self.me:
                chance *= 0.5 * (1.0 + erf((mine - self.totals[s] - points[s]) / self.scale))
        return chance

    def run(self, rows: list, weights: list, sims: int, deadline: float) -> int:
        """``sims`` deals (fewer if the deadline passes): each weighted, and played out per move if it counts;
        the rows and weights appended. The deals made."""
        cdef uint64_t hands[MAXP]
        cdef uint64_t h[MAXP]
        cdef uint64_t dealt[MAX_PLACES]
        cdef int points[MAXP]
        cdef double row[MAX_MOVES]
        cdef double w
        cdef int done = 0, i, m, p = self.round.players, bad
        cdef bint timed = isfinite(deadline)
        try:
            while done < sims:
                if not deal_hidden(&self.places, &self.g, dealt, DEFECT == 3):
                    raise NoConsistentWorld("no deal of the hidden cards respects what this seat has seen")
                for i in range(p):
                    hands[i] = 0
                hands[self.me] = self.mine
                for i in range(self.nothers):
                    hands[self.others[i]] = dealt[i]
                done += 1
                w = self.weight(hands)
                if w > 0.0:
                    bad = 0
                    for m in range(self.nmoves):
                        memcpy(h, hands, p * sizeof(uint64_t))
                        bad |= play_out(&self.round, h, self.me, self.moves[m], points)
                        row[m] = self.value(points)
                    if bad:
                        raise ValueError("a hand ran out of cards before the end of the round")
                    rows.append([row[m] for m in range(self.nmoves)])
                    weights.append(w)
                if timed and self.perf() >= deadline:
                    break
        finally:
            give_back(&self.g, self.rng)
        return done
