# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The Crazy Eights search's inner loops in C: the same playouts, deals and particles as the Python, the same numbers.

A second implementation of ``playout.play_round`` (``play_round``; ``sample_rounds`` of
``win_chance``), of the search's sampled worlds
(``Worlds``: ``search._particle_table`` or ``search.deal_table``, the seed, each candidate's
``apply_play`` and playout, ``win_chance``) and of the particle filter's building
(``build_particles``: ``particles.construct``, ``_fill``, ``replay``, ``_turn``). Each draws from
the bots' ``random.Random`` streams through ``core/_twister.pxd`` exactly as the Python does, so
the bot's choices are the same; the Python stays the reference (``compiled.py`` says which runs,
``tests/crazy_eights/test_compiled.py`` compares them). The card tables come from the Python modules
at import.
"""

from libc.math cimport isfinite, pow
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from cardtable.core._twister cimport (
    Twister, init_genrand, randbelow, seed_u64, seed_u64_from, twist,
)
from cardtable.core._twister cimport random as draw
from cardtable.core._twister cimport shuffle_u8

import time

from cardtable.games.crazy_eights.game import MATCH as _MATCH
from cardtable.games.crazy_eights.game import ROUND_ACTION_LIMIT as _LIMIT
from cardtable.games.crazy_eights.players.heuristic import ENDGAME_CARDS as _ENDGAME
from cardtable.games.crazy_eights.players.reading import PREFERRED as _PREFERRED
from cardtable.games.crazy_eights.rules import EIGHTS as _EIGHTS
from cardtable.games.crazy_eights.rules import PENALTY as _PENALTY
from cardtable.games.crazy_eights.rules import SUIT_MASK as _SUIT_MASK

cdef enum:
    MAXP = 8      # seats a table may have (the game allows 2-6)
    DECK = 52
    MAX_PLAYS = 64
    LATE_DEFECT = 6   # plant's "the generator goes back to Python one word late"

include "../../../core/_playout.pxi"


# Tables (rules.py, game.py, reading.py), filled at import.

cdef uint64_t MATCH[DECK * 4]
cdef uint64_t PREFERRED[DECK]
cdef uint64_t SUIT_PLAIN[4]
cdef int PENALTY[DECK]
cdef uint16_t PENALTY13[1 << 13]
cdef uint64_t EIGHTS, NOT_EIGHTS, PLAIN_ALL
cdef int LIMIT, ENDGAME


def _fill_tables() -> None:
    global EIGHTS, NOT_EIGHTS, PLAIN_ALL, LIMIT, ENDGAME
    cdef int i, r
    EIGHTS = _EIGHTS
    NOT_EIGHTS = ~EIGHTS
    PLAIN_ALL = ((<uint64_t>1 << DECK) - 1) & NOT_EIGHTS
    LIMIT = _LIMIT
    ENDGAME = _ENDGAME
    for i in range(DECK * 4):
        MATCH[i] = _MATCH[i]
    for i in range(DECK):
        PREFERRED[i] = _PREFERRED[i]
        PENALTY[i] = _PENALTY[i]
    for i in range(4):
        SUIT_PLAIN[i] = <uint64_t>_SUIT_MASK[i] & NOT_EIGHTS
    for i in range(1 << 13):
        PENALTY13[i] = 0
        for r in range(13):
            if i >> r & 1:
                PENALTY13[i] += PENALTY[r]


_fill_tables()


def plant(defect: int) -> None:
    """Plant a defect, for the tests that must catch it (0 removes it): 1 the playout's heuristic breaks ties
    by the highest card, 2 the win chance counts a tie with an opponent as a loss, 3 the fallback deal ignores
    what a seat cannot hold, 4 building a particle forgets what a play rules out, 5 advancing a particle
    lets a seat play a drawn card that is not on the pile, 6 the generator goes back to Python one word late."""
    global DEFECT
    DEFECT = defect


cdef inline int nth_card(uint64_t mask, int n) noexcept nogil:
    """The ``n``-th lowest card of ``mask`` (``cards_of(mask)[n]``)."""
    while n > 0:
        mask &= mask - 1
        n -= 1
    return ctz(mask)


cdef inline int hand_penalty(uint64_t hand) noexcept nogil:
    """``playout.hand_penalty``."""
    return (PENALTY13[hand & 0x1FFF] + PENALTY13[hand >> 13 & 0x1FFF] + PENALTY13[hand >> 26 & 0x1FFF]
            + PENALTY13[hand >> 39 & 0x1FFF])


# The heuristic (playout.heuristic_plain, heuristic_suit, heuristic_choice).

cdef inline int best_plain(uint64_t hand, uint64_t plain) noexcept nogil:
    """The costliest plain card; among equals the suit held most of; then the lowest id."""
    cdef int best = -1, key, best_key = -1, card
    while plain:
        card = ctz(plain)
        plain &= plain - 1
        key = PENALTY[card] * 64 + popcount(hand & SUIT_PLAIN[card // 13])
        if key > best_key or (DEFECT == 1 and key == best_key):
            best, best_key = card, key
    return best


cdef inline int best_suit(uint64_t hand) noexcept nogil:
    """The suit named with an eight: most cards held (eights aside), then points, then suit order."""
    cdef int best = 0, key, best_key = -1, s
    cdef uint64_t cards
    for s in range(4):
        cards = hand & SUIT_PLAIN[s]
        key = popcount(cards) * 4096 + PENALTY13[cards >> (13 * s) & 0x1FFF]
        if key > best_key:
            best, best_key = s, key
    return best


cdef inline int choose(uint64_t hand, uint64_t playable, bint endgame, int* named) noexcept nogil:
    """``heuristic_choice``: the card played (``named``: the suit then in force)."""
    cdef uint64_t plain = playable & NOT_EIGHTS
    cdef int card
    if plain and not (playable & EIGHTS and endgame):
        card = best_plain(hand, plain) if plain & (plain - 1) else ctz(plain)
        named[0] = card // 13
        return card
    card = ctz(playable & EIGHTS)
    named[0] = best_suit(hand)
    return card


# A round in progress (playout.Table) and its playout (playout.play_round, apply_play).

cdef struct Tab:
    uint64_t hands[MAXP]
    uint64_t discards
    int n
    int stock_len
    int top
    int suit
    int turn
    int drawn
    int passes
    int actions
    int draw_until
    int random_draws
    int rebuilt       # stocks rebuilt from the discards (the Python table then holds a new list)
    uint8_t stock[DECK]


cdef inline bint endgame_for(const uint64_t* hands, int n, int seat) noexcept nogil:
    """``playout._endgame``: another seat holds ``ENDGAME_CARDS`` cards or fewer."""
    cdef int s
    for s in range(n):
        if s != seat and popcount(hands[s]) <= ENDGAME:
            return True
    return False


cdef inline bint apply_play(Tab* t, int card, int suit) noexcept nogil:
    """``playout.apply_play``: True if the seat to act went out."""
    cdef int seat = t.turn
    cdef uint64_t hand = t.hands[seat] ^ bit(card)
    t.hands[seat] = hand
    t.discards |= bit(t.top)
    t.top = card
    t.suit = suit
    t.drawn = 0
    t.passes = 0
    t.actions += 1
    if not hand:
        return True
    t.turn = (seat + 1) % t.n
    return False


cdef int play(Tab* t, Twister* g) noexcept nogil:
    """``playout.play_round``: the round played out by the heuristic; the seat that went out, -1 for none."""
    cdef uint64_t hand, playable, rest
    cdef int seat = t.turn, n = t.n, card, named, i
    while t.actions < LIMIT:
        hand = t.hands[seat]
        playable = hand & MATCH[t.top * 4 + t.suit]
        t.actions += 1
        if playable:
            card = choose(hand, playable, endgame_for(t.hands, n, seat), &named)
            hand ^= bit(card)
            t.hands[seat] = hand
            t.discards |= bit(t.top)
            t.top = card
            t.suit = named
            t.drawn = 0
            t.passes = 0
            if not hand:
                t.turn = seat
                return seat
            seat = (seat + 1) % n
            continue
        if (t.stock_len or t.discards) and (t.draw_until or not t.drawn):
            if not t.stock_len:
                rest = t.discards
                while rest:
                    t.stock[t.stock_len] = <uint8_t>ctz(rest)
                    t.stock_len += 1
                    rest &= rest - 1
                t.discards = 0
                t.rebuilt += 1
                if not t.random_draws:
                    shuffle_u8(g, t.stock, t.stock_len)
            if t.random_draws:
                i = <int>(draw(g) * t.stock_len)
                card = t.stock[i]
                t.stock[i] = t.stock[t.stock_len - 1]
            else:
                card = t.stock[t.stock_len - 1]
            t.stock_len -= 1
            t.hands[seat] = hand | bit(card)
            t.drawn += 1
            t.passes = 0
            continue
        t.passes += 1
        t.drawn = 0
        if t.passes >= n:
            break
        seat = (seat + 1) % n
    t.turn = seat
    return -1


cdef int from_table(Tab* t, object table) except -1:
    """Read a ``playout.Table``."""
    hands = table.hands
    stock = table.stock
    cdef int i
    if not 2 <= len(hands) <= MAXP or len(stock) > DECK:
        raise ValueError(f"a Crazy Eights table has 2 to {MAXP} hands and at most {DECK} stock cards")
    t.n = len(hands)
    for i in range(t.n):
        t.hands[i] = hands[i]
    t.stock_len = len(stock)
    for i in range(t.stock_len):
        t.stock[i] = <uint8_t>stock[i]
    t.discards = table.discards
    t.top, t.suit, t.turn = table.top, table.suit, table.turn
    t.drawn, t.passes, t.actions = table.drawn, table.passes, table.actions
    t.draw_until, t.random_draws = bool(table.draw_until), bool(table.random_draws)
    t.rebuilt = 0
    return 0


cdef int to_table(const Tab* t, object table) except -1:
    """Write the position back as the Python playout leaves it (the hands list changed in place; the stock
    list too, unless a rebuilt stock made a new one)."""
    cdef int i
    hands = table.hands
    for i in range(t.n):
        hands[i] = t.hands[i]
    stock = [t.stock[i] for i in range(t.stock_len)]
    if t.rebuilt:
        table.stock.clear()
        table.stock = stock
    else:
        table.stock[:] = stock
    table.discards, table.top, table.suit, table.turn = t.discards, t.top, t.suit, t.turn
    table.drawn, table.passes, table.actions = t.drawn, t.passes, t.actions
    return 0


def play_round(table: object, rng: object) -> object:
    """``playout.play_round`` in C: ``table`` (a ``Table``) and ``rng`` (a ``random.Random``) end as the Python leaves them."""
    cdef Tab t
    cdef Twister g
    cdef int out
    from_table(&t, table)
    take(&g, rng)
    out = play(&t, &g)
    give_back(&g, rng)
    to_table(&t, table)
    return None if out < 0 else out


def sample_rounds(players: int, cards_each: int, draw_until: bool, rounds: int, seed: int) -> tuple:
    """``win_chance.sample_rounds``: every seat's penalty in ``rounds`` rounds of heuristic players from ``Random(seed)``."""
    cdef Tab t
    cdef Twister g
    cdef uint8_t deck[DECK]
    cdef int r, i, s, dealt = players * cards_each
    if not 2 <= players <= MAXP or dealt >= DECK:
        raise ValueError("a sampled round deals 2 to 8 hands and leaves a card to turn up")
    seed_u64(&g, seed)
    out = []
    for r in range(rounds):
        for i in range(DECK):
            deck[i] = <uint8_t>i
        shuffle_u8(&g, deck, DECK)
        t.n = players
        for s in range(players):
            t.hands[s] = 0
            for i in range(cards_each * s, cards_each * (s + 1)):
                t.hands[s] |= bit(deck[i])
        t.stock_len = DECK - dealt - 1
        memcpy(t.stock, deck + dealt + 1, t.stock_len)
        t.discards, t.top, t.suit = 0, deck[dealt], deck[dealt] // 13
        t.turn = <int>randbelow(&g, <uint64_t>players)
        t.drawn = t.passes = t.actions = t.rebuilt = 0
        t.draw_until, t.random_draws = draw_until, True
        play(&t, &g)
        out.append(tuple([hand_penalty(t.hands[s]) for s in range(players)]))
    return tuple(out)


# The value of a playout (search._search's value, win_chance.win_chance, beat_chance).

cdef struct Value:
    int totals[MAXP]
    int seat
    int rounds_left
    int cdf_start
    int cdf_len
    double power       # math.log2(n) / (n - 1), from Python
    double* cum        # gap_cdf's cumulative chances (cdf_len of them)


cdef double value_of(const Tab* t, const Value* v) noexcept nogil:
    """The chance of winning the game from the round's end: exact in the last round, else the product model."""
    cdef int end[MAXP]
    cdef int s, own, best, ties = 0, k
    cdef double chance = 1.0, below
    memset(end, 0, sizeof(end))  # (gcc cannot see that a table has seats)
    for s in range(t.n):
        end[s] = v.totals[s] + hand_penalty(t.hands[s])
    own = end[v.seat]
    if v.rounds_left <= 0:
        best = end[0]
        for s in range(t.n):
            if end[s] < best:
                best = end[s]
            if end[s] == own:
                ties += 1
        return 0.0 if own > best else 1.0 / ties
    for s in range(t.n):
        if s == v.seat:
            continue
        k = -(end[s] - own) - v.cdf_start
        if k < 0:
            chance *= 1.0
        elif k >= v.cdf_len:
            chance *= 0.0
        else:
            below = v.cum[k - 1] if k > 0 else 0.0
            chance *= 1.0 - v.cum[k] + (0.0 if DEFECT == 2 else 0.5) * (v.cum[k] - below)
    return pow(chance, v.power)


# The search's sampled worlds (search._search's loop, _particle_table, deal_table).

cdef class Worlds:
    """One decision's worlds: each sampled, seeded and played out once per live candidate, from the bot's ``rng``.

    ``run`` plays worlds until the next multiple of ``batch`` (the search culls there), the budget or
    the deadline; ``close`` gives ``rng`` the generator's state (nothing else draws from it meanwhile).
    """

    cdef Twister g
    cdef Twister genrand       # init_genrand(19650218): where every seeding starts
    cdef Twister seeded
    cdef Twister work
    cdef object rng
    cdef object values
    cdef object perf
    cdef Tab base
    cdef Value value
    cdef int me
    cdef int batch
    cdef int nplays
    cdef int cards[MAX_PLAYS]
    cdef int suits[MAX_PLAYS]
    # The particles (None: deal_table's deals).
    cdef int nparticles
    cdef uint64_t* particle_hands
    cdef uint64_t* particle_stock
    # deal_table: the seats in dealing order, their counts and the cards each lacks; the cards seen.
    cdef int order[MAXP]
    cdef int counts[MAXP]
    cdef uint64_t lacks[MAXP]
    cdef uint64_t seen

    def __cinit__(self) -> None:
        self.particle_hands = NULL
        self.particle_stock = NULL
        self.value.cum = NULL

    def __dealloc__(self) -> None:
        free(self.particle_hands)
        free(self.particle_stock)
        free(self.value.cum)

    def __init__(self, rng: object, table: object, me: int, plays: list, values: list, particles: object,
                 deal: object, totals: object, rounds_left: int, cdf: object, power: float, batch: int) -> None:
        cdef int i, s, n
        from_table(&self.base, table)
        n = self.base.n
        if len(plays) > MAX_PLAYS or len(values) != len(plays) or len(totals) != n:
            raise ValueError("a search has at most 64 candidates, a list of values for each, a total per seat")
        self.rng, self.values, self.perf = rng, values, time.perf_counter
        self.me, self.batch, self.nplays = me, batch, len(plays)
        for i, (card, suit) in enumerate(plays):
            self.cards[i], self.suits[i] = card, suit
        self.nparticles = 0 if particles is None else len(particles)
        if particles is not None:
            if not particles:
                raise ValueError("the particle sampler needs particles")
            self.particle_hands = <uint64_t*>malloc(self.nparticles * n * sizeof(uint64_t))
            self.particle_stock = <uint64_t*>malloc(self.nparticles * sizeof(uint64_t))
            if self.particle_hands == NULL or self.particle_stock == NULL:
                raise MemoryError()
            for i, (hands, stock) in enumerate(particles):
                for s in range(n):
                    self.particle_hands[i * n + s] = hands[s]
                self.particle_stock[i] = stock
        else:
            seen, order, counts, lacks = deal
            self.seen = seen
            for i, s in enumerate(order):
                self.order[i] = s
                self.counts[i] = counts[s]
                self.lacks[i] = lacks[s]
        for s in range(n):
            self.value.totals[s] = totals[s]
        self.value.seat, self.value.rounds_left, self.value.power = me, rounds_left, power
        self.value.cdf_start, self.value.cdf_len = 0, 0
        if cdf is not None:
            start, cum = cdf
            self.value.cdf_start, self.value.cdf_len = start, len(cum)
            self.value.cum = <double*>malloc(max(1, len(cum)) * sizeof(double))
            if self.value.cum == NULL:
                raise MemoryError()
            for i, p in enumerate(cum):
                self.value.cum[i] = p
        init_genrand(&self.genrand, 19650218)
        take(&self.g, rng)

    cdef int sample_particle(self, Tab* t) noexcept nogil:
        """``search._particle_table``: a particle's hands for the others, its stock in card order."""
        cdef int k = <int>(draw(&self.g) * self.nparticles), s, n = t.n
        cdef uint64_t stock = self.particle_stock[k], mine = t.hands[self.me]
        for s in range(n):
            t.hands[s] = self.particle_hands[k * n + s]
        t.hands[self.me] = mine
        t.stock_len = 0
        while stock:
            t.stock[t.stock_len] = <uint8_t>ctz(stock)
            t.stock_len += 1
            stock &= stock - 1
        return 0

    cdef int sample_deal(self, Tab* t) noexcept nogil:
        """``search.deal_table``: seats known to lack cards dealt first; -1 if a pool ran out (Python: IndexError)."""
        cdef uint8_t pool[DECK]
        cdef uint8_t allowed[DECK]
        cdef uint8_t* src
        cdef int plen = 0, alen, c, j, k, i, s
        cdef uint64_t lacks, taken
        for c in range(DECK):
            if not self.seen >> c & 1:
                pool[plen] = <uint8_t>c
                plen += 1
        for j in range(t.n - 1):
            s, k, lacks = self.order[j], self.counts[j], self.lacks[j]
            src = pool
            alen = plen
            if lacks and DEFECT != 3:
                alen = 0
                for i in range(plen):
                    if not lacks >> pool[i] & 1:
                        allowed[alen] = pool[i]
                        alen += 1
                src = allowed
                if alen < k:
                    src, alen = pool, plen
            taken = 0
            for i in range(k):
                if alen == 0:
                    return -1
                c = <int>(draw(&self.g) * alen)
                taken |= bit(src[c])
                src[c] = src[alen - 1]
                alen -= 1
            if src == pool:
                plen = alen
            else:
                alen = 0
                for i in range(plen):
                    if not taken >> pool[i] & 1:
                        pool[alen] = pool[i]
                        alen += 1
                plen = alen
            t.hands[s] = taken
        t.stock_len = plen
        memcpy(t.stock, pool, plen)
        return 0

    def run(self, alive: list, spent: int, sims: int, done: int, deadline: float) -> tuple:
        """Worlds until ``done`` is a multiple of the batch, ``spent`` reaches ``sims`` or the deadline passes:
        (spent, done, whether the deadline passed). Each live candidate's value is appended to its list."""
        cdef Tab t, u
        cdef int live[MAX_PLAYS]
        cdef double scores[MAX_PLAYS]
        cdef int na = len(alive), i, j, need
        cdef bint timed = isfinite(deadline), late = False
        if not 0 < na <= self.nplays:
            raise ValueError("alive names the live candidates")
        for j in range(na):
            i = alive[j]
            if not 0 <= i < self.nplays:
                raise ValueError("alive names the live candidates")
            live[j] = i
        lists = [self.values[live[j]] for j in range(na)]
        while True:
            memcpy(&t, &self.base, sizeof(Tab))
            if self.nparticles:
                self.sample_particle(&t)
            elif self.sample_deal(&t) < 0:
                raise IndexError("the deal's pool ran out of cards")
            seed_u64_from(&self.seeded, &self.genrand, randbelow(&self.g, <uint64_t>1 << 62))
            twist(&self.seeded)  # once for all candidates: each playout then starts from a copy
            for j in range(na):
                memcpy(&u, &t, sizeof(Tab))
                if not apply_play(&u, self.cards[live[j]], self.suits[live[j]]):
                    memcpy(&self.work, &self.seeded, sizeof(Twister))
                    play(&u, &self.work)
                scores[j] = value_of(&u, &self.value)
            for j in range(na):
                lists[j].append(scores[j])
            spent += na
            done += 1
            if timed and self.perf() >= deadline:
                late = True
                break
            if done % self.batch == 0 or spent >= sims:
                break
        return spent, done, late

    def close(self) -> None:
        """Give the bot's ``rng`` the state the worlds left."""
        give_back(&self.g, self.rng)


include "_particles.pxi"
