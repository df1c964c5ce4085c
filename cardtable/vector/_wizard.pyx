# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Wizard rules in C for the batched core: the second implementation of ``cardtable.games.wizard``.

The Python engine is the reference; ``tests/vector`` plays both on the same seeds and requires the
same legal sets, states, encodings and outcomes for every option. Every rule here names its place in
``games/wizard/game.py``: the first dealer and the deal (``_fresh``, ``_start_round``), the turned
trump card (``_turn_trump``), naming trump (``_move``), bidding with the sum rule (``_bid``,
``forbidden_bid``), following suit (``rules.legal_mask``), the trick's winner (``_end_trick``) and the
scoring (``_end_round``, ``rules.round_score``). Action ids and the observation bytes are those of
``games/wizard/encoding.py``; the ``heuristic`` policy is the game's ``heuristic`` bot.
"""

from libc.math cimport fabs, isfinite, pow
from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t, uint64_t
from libc.string cimport memcpy, memset

from cardtable.vector._stream cimport Bound, below_small, fill_bound, mix, shuffle, uniform

cdef enum:
    NUM_ACTIONS = 85
    LEGAL_WORDS = 2
    MAX_PLAYERS = 6
    MIN_PLAYERS = 3
    OBS_MAX = 196 + 68 * 6
    DECK = 60
    FIRST_WIZARD = 52
    FIRST_JESTER = 56
    BID_BASE = 60       # encoding.BID_BASE: Bid(k) is 60 + k
    MAX_BID = 20        # the largest hand (3 players, round 20)
    TRUMP_BASE = 81     # encoding.TRUMP_BASE: ChooseTrump(suit) is 81 + suit
    NO_CARD = 255
    NO_LEAD = -1        # rules.NO_LEAD_YET
    WIZARD_LED = 4      # rules.WIZARD_LED
    CATEGORIES = 41     # bid_model.CATEGORIES; PRESSURE is the next column
    PRESSURE = 41
    GATHER_SOURCE = 56  # the State's bytes from bids to forbidden (rules_encode gathers its counts from them)

# Phases, numbered as encoding.PHASES (the phase's one-hot byte).
cdef enum:
    CHOOSING = 0
    BIDDING = 1
    PLAYING = 2
    FINISHED = 3

#: The phases as the Python state names them (index: the core's phase).
PHASE_NAMES = ("choosing_trump", "bidding", "playing", "finished")
#: The built-in policies by index: uniform over the legal ids; the game's ``heuristic`` bot, exactly.
POLICIES = ("random", "heuristic")


ctypedef struct Config:
    # gather[shown][seat]: the observation's "has bid" flags and counts (bids + 1, tricks won, cards held, round,
    # rounds, forbidden bid + 1, totals) as lanes of the State's bytes from bids on (64: a zero), per seat, with
    # the bids shown (0), hidden (1), or hidden with seat the dealer (2: the forbidden bid shown), lane j for
    # byte base + 64 + j of the row; gather_add[shown]: what is added (1 to the bids shown, the rounds to a zero).
    uint8_t gather[3][MAX_PLAYERS][64]
    uint8_t gather_add[3][64]
    uint8_t rotation[MAX_PLAYERS][MAX_PLAYERS]  # rotation[seat][k]: the k-th seat counted from seat
    uint8_t rel[MAX_PLAYERS][MAX_PLAYERS]       # rel[seat][x]: seat x counted from seat ((x - seat) % n)
    int players
    int rounds          # options.game_rounds()
    int first_dealer    # -1: drawn from the seed
    int dealer_chooses  # wizard_trump == "dealer_chooses"
    int sum_rule        # bids_may_not_equal_tricks
    int hidden          # hidden_bids
    int obs_size
    int reward_round
    int defect
    int compensated     # the running Python's sum() of floats is compensated (3.12 on): the heuristic sums so
    uint64_t seat_bytes  # 2**(8 players) - 1: the bytes of a per-seat word that are seats
    int base            # the trump card's flags in the encoding (then the trump suit, ..., seats, counts)


ctypedef struct State:
    uint64_t hands[MAX_PLAYERS]
    uint64_t played        # the cards of this round's finished tricks (the Python tuple as a mask)
    uint64_t rng           # the pinned stream's state (core.rng)
    int16_t totals[MAX_PLAYERS]
    # From bids to forbidden: the bytes rules_encode gathers (GATHER_SOURCE). Per seat, eight bytes each (seats
    # beyond the players: 0), so that forbidden_bid sums the bids as one word.
    int8_t bids[8]         # -1: not bid yet
    uint8_t tricks[8]
    uint8_t held[8]        # cards in each hand (the hands' bit counts, kept for the encoding)
    uint8_t shown[8]       # the totals as the encoding shows them (total // 10 + 100, clipped to 0–255)
    uint8_t made[8]        # 1: the seat has bid this round (kept for the encoding)
    uint8_t trick[MAX_PLAYERS]  # the trick in progress, in playing order from the leader
    uint8_t trick_len
    uint8_t leader
    int8_t lead            # rules' lead state: a suit, WIZARD_LED or NO_LEAD
    int8_t trump           # a suit or -1
    uint8_t trump_card     # NO_CARD: none (the last round deals every card)
    uint8_t dealer
    int8_t to_act          # -1 once the game is over
    uint8_t phase
    uint8_t round
    uint8_t forbidden      # forbidden_bid + 1 (0: none), kept by rules_step for the legal set and the encoding


# Tables, built once at import (rules.py, bid_table.py).
cdef uint64_t SUIT_MASK[4]
cdef uint64_t FOLLOW[4]           # game._FOLLOW: the suit led, wizards and jesters
cdef uint64_t WIZARDS = 0
cdef uint64_t ABOVE[DECK]         # the cards of the same suit ranked above card c (none for wizards, jesters)
cdef int16_t STRENGTH[5][6][DECK]  # rules.STRENGTH[trump + 1][lead + 1][card]
cdef double VALUE[MAX_PLAYERS - MIN_PLAYERS + 1][MAX_BID + 1][CATEGORIES + 1]  # bid_table.value(p, n, category)
cdef Bound FACTORIAL_DECK         # the bound of a draw below 60! (a shuffle of the deck)
cdef Bound SEATS[MAX_PLAYERS + 1]  # the bound of a draw below n (the first dealer)


cdef void _fill_tables():
    import math

    from cardtable.games.wizard import bid_table

    cdef int c, s, t, lead, p, n, k
    global WIZARDS
    for s in range(4):
        SUIT_MASK[s] = ((<uint64_t>1 << 13) - 1) << (13 * s)
    WIZARDS = ((<uint64_t>1 << 4) - 1) << FIRST_WIZARD
    for s in range(4):
        FOLLOW[s] = SUIT_MASK[s] | (((<uint64_t>1 << 8) - 1) << FIRST_WIZARD)
    for c in range(DECK):
        ABOVE[c] = 0
        if c < FIRST_WIZARD:
            ABOVE[c] = SUIT_MASK[c // 13] & ~((<uint64_t>2 << c) - 1)
    for t in range(-1, 4):
        for lead in range(-1, 5):
            for c in range(DECK):
                if FIRST_WIZARD <= c < FIRST_JESTER:
                    k = 1000
                elif c >= FIRST_JESTER:
                    k = 0
                elif c // 13 == t:
                    k = 200 + c % 13 + 1
                elif c // 13 == lead:
                    k = 100 + c % 13 + 1
                else:
                    k = 0
                STRENGTH[t + 1][lead + 1][c] = k
    for p in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        for n in range(1, MAX_BID + 1):
            for k in range(CATEGORIES + 1):
                VALUE[p - MIN_PLAYERS][n][k] = bid_table.value(p, n, k)
    fill_bound(&FACTORIAL_DECK, math.factorial(DECK))
    for c in range(1, MAX_PLAYERS + 1):
        fill_bound(&SEATS[c], c)


_fill_tables()


include "_bits.pxi"


cdef inline int next_seat(int seat, int players) noexcept nogil:
    seat += 1
    return 0 if seat == players else seat


cdef inline int shown_total(int total) noexcept nogil:
    """``min(255, max(0, total // 10 + 100))`` with Python's floor division."""
    cdef int q = total // 10 if total >= 0 else -((-total + 9) // 10)
    q += 100
    return 0 if q < 0 else 255 if q > 255 else q


# Dealing (game._fresh, game._start_round, game._turn_trump).


cdef inline void start_round(const Config* cfg, State* s) noexcept nogil:
    """Move the deal one seat left, shuffle, deal one card at a time from the dealer's left, turn trump."""
    cdef uint8_t deck[DECK]
    cdef int k, n = cfg.players, deal, card
    s.round += 1
    s.dealer = next_seat(s.dealer, n)
    for k in range(DECK):
        deck[k] = k
    shuffle(&s.rng, deck, DECK, &FACTORIAL_DECK)
    deal = s.round * n
    for k in range(n):
        s.hands[k] = 0
        s.held[k] = s.round
        s.bids[k] = -1
        s.made[k] = 0
        s.tricks[k] = 0
    for k in range(deal):  # the k-th card to the (k % n)-th seat left of the dealer
        s.hands[(s.dealer + 1 + k % n) % n] |= (<uint64_t>1) << deck[k]
    card = deck[deal] if deal < DECK else NO_CARD
    s.trump_card = card
    s.trump = card // 13 if card < FIRST_WIZARD else -1  # a wizard, a jester or no card: no suit
    if FIRST_WIZARD <= card < FIRST_JESTER and cfg.dealer_chooses:
        s.phase = CHOOSING
        s.to_act = s.dealer
    else:
        s.phase = BIDDING
        s.to_act = next_seat(s.dealer, n)
    s.leader = next_seat(s.dealer, n)
    s.lead = NO_LEAD
    s.trick_len = 0
    s.played = 0
    s.forbidden = 0  # (the dealer never bids first)


cdef inline void rules_reset(const Config* cfg, State* s, uint64_t seed) noexcept nogil:
    """``WizardGame.new(options, seed)``: the first dealer (fixed, or drawn from the seed), then round 1."""
    cdef int k, dealer
    memset(s, 0, sizeof(State))  # (round 0; seats beyond the players stay 0)
    s.rng = mix(seed)
    dealer = cfg.first_dealer
    if dealer < 0:
        dealer = below_small(&s.rng, cfg.players, &SEATS[cfg.players])
    s.dealer = dealer - 1 if dealer > 0 else cfg.players - 1  # start_round moves it back to ``dealer``
    for k in range(cfg.players):
        s.shown[k] = 100
    start_round(cfg, s)


# Flow.


cdef inline int rules_num_actions(const Config* cfg) noexcept nogil:
    return NUM_ACTIONS  # the same 85 ids for every option set


cdef inline int rules_to_act(const State* s) noexcept nogil:
    return s.to_act


cdef inline uint64_t load8(const void* p) noexcept nogil:
    cdef uint64_t w
    memcpy(&w, p, 8)
    return w


cdef inline int forbidden_bid(const Config* cfg, const State* s) noexcept nogil:
    """``game.forbidden_bid``: under the sum rule, the dealer's (last) bid that would make the bids add up; -1: none.

    rules_step keeps it in ``State.forbidden`` after every bid; the bids made (a bid of -1 has its top bit
    set) are summed as one word.
    """
    cdef uint64_t bids = load8(s.bids)
    cdef int total, exists
    bids &= ~(((bids >> 7) & 0x0101010101010101ULL) * 0xFF)
    total = s.round - <int>((bids * 0x0101010101010101ULL) >> 56)  # (at most 60: no byte overflows)
    total += cfg.defect == 3  # planted defect 3 (tests only): the forbidden bid is one too high
    exists = (s.phase == BIDDING) & (cfg.sum_rule != 0) & (s.to_act == s.dealer) & (total >= 0) & (total <= s.round)
    return -1 ^ ((-1 ^ total) & -exists)


cdef inline void rules_legal(const Config* cfg, const State* s, uint64_t* legal) noexcept nogil:
    """``encoding.legal_bits``: playable cards (``rules.legal_mask``), allowed bids, or the four suits."""
    cdef uint64_t hand, bids
    cdef int forbidden
    legal[0] = 0
    legal[1] = 0
    if s.phase == PLAYING:
        hand = s.hands[s.to_act]
        if 0 <= s.lead < 4 and hand & SUIT_MASK[s.lead]:
            hand &= FOLLOW[s.lead]
        legal[0] = hand
    elif s.phase == BIDDING:
        bids = ((<uint64_t>2) << s.round) - 1  # 0 … round
        forbidden = s.forbidden - 1
        if forbidden >= 0:
            bids &= ~((<uint64_t>1) << forbidden)
        legal[0] = bids << BID_BASE
        legal[1] = bids >> (64 - BID_BASE)
    elif s.phase == CHOOSING:
        legal[1] = (<uint64_t>0xF) << (TRUMP_BASE - 64)


cdef inline void end_round(const Config* cfg, State* s, float* rewards) noexcept nogil:
    """``_end_round``: score the bids (``round_score``), then deal the next round or end the game."""
    cdef int seat, points, best, winners, off
    for seat in range(cfg.players):
        off = s.tricks[seat] - s.bids[seat]
        if off == 0:
            points = 20 + 10 * s.tricks[seat]
            if cfg.defect == 1:  # planted defect 1 (tests only): an exact bid scores no 20
                points -= 20
        else:
            points = -10 * (off if off > 0 else -off)
        s.totals[seat] += points
        s.shown[seat] = shown_total(s.totals[seat])
        if cfg.reward_round:
            rewards[seat] += points
    if s.round < cfg.rounds:
        start_round(cfg, s)
        return
    s.phase = FINISHED
    s.to_act = -1
    if not cfg.reward_round:  # rewards.final_rewards: +1 each winner (the highest total), -1 the others
        best = s.totals[0]
        for seat in range(cfg.players):
            if s.totals[seat] > best:
                best = s.totals[seat]
        winners = 0
        for seat in range(cfg.players):
            winners += s.totals[seat] == best
        if winners < cfg.players:
            for seat in range(cfg.players):
                rewards[seat] += 1.0 if s.totals[seat] == best else -1.0


cdef inline int winning_position(const int16_t* table, const uint8_t* trick, int count) noexcept nogil:
    """``rules.winning_position``: the first card of the highest strength (the first wizard wins at once)."""
    cdef int k, pos = 0, best = -1, value
    for k in range(count):
        value = table[trick[k]]
        if value > best:
            if value == 1000:
                return k
            pos = k
            best = value
    return pos


cdef inline void end_trick(const Config* cfg, State* s, float* rewards) noexcept nogil:
    """``_end_trick``: the winner takes the trick and leads next; the round ends with its last trick."""
    cdef int k, winner
    winner = (s.leader + winning_position(STRENGTH[s.trump + 1][s.lead + 1], s.trick, s.trick_len)) % cfg.players
    s.tricks[winner] += 1
    for k in range(s.trick_len):
        s.played |= (<uint64_t>1) << s.trick[k]
    s.trick_len = 0
    s.lead = NO_LEAD
    s.leader = winner
    s.to_act = winner
    if s.hands[winner] == 0:
        end_round(cfg, s, rewards)


cdef inline void play(const Config* cfg, State* s, int card, float* rewards) noexcept nogil:
    """``_play``: the card joins the trick (the first card that is not a jester sets the lead)."""
    cdef int seat = s.to_act
    s.hands[seat] ^= (<uint64_t>1) << card
    s.held[seat] -= 1
    if s.lead == NO_LEAD and card < FIRST_JESTER and not (cfg.defect == 2 and s.trick_len):
        # (planted defect 2, tests only: a card after a led jester sets no suit to follow)
        s.lead = WIZARD_LED if card >= FIRST_WIZARD else card // 13
    s.trick[s.trick_len] = card
    s.trick_len += 1
    if s.trick_len < cfg.players:
        s.to_act = next_seat(seat, cfg.players)
    else:
        end_trick(cfg, s, rewards)


cdef inline void rules_step(const Config* cfg, State* s, int action, float* rewards) noexcept nogil:
    """Play a legal action id: a card, a bid (``_bid``) or the suit the dealer names (``_move``)."""
    cdef int seat = s.to_act
    if action < BID_BASE:
        play(cfg, s, action, rewards)
    elif action < TRUMP_BASE:
        s.bids[seat] = action - BID_BASE
        s.made[seat] = 1
        if seat == s.dealer:  # the last bid: play starts left of the dealer
            s.phase = PLAYING
            s.to_act = s.leader
        else:
            s.to_act = next_seat(seat, cfg.players)
        s.forbidden = forbidden_bid(cfg, s) + 1  # (0 again once the dealer has bid)
    else:
        s.trump = action - TRUMP_BASE
        s.phase = BIDDING
        s.to_act = next_seat(s.dealer, cfg.players)


cdef inline void rules_forfeit(State* s) noexcept nogil:
    s.phase = FINISHED
    s.to_act = -1
    s.forbidden = 0


# What a seat sees (encoding.WizardEncoding.features).


ctypedef struct Memo:
    # What rules_encode last wrote into one env's observation row where it changes slowly or in few bytes: the
    # finished tricks' cards (once a trick), the trump card and suit flags (once a round) and the positions of
    # the trick in progress's bytes, so the next call writes those only when they changed, and moves the few
    # trick bytes rather than rewriting the 60n bytes of the trick by seat.
    uint64_t played
    uint64_t trump
    uint16_t trick_on[MAX_PLAYERS]  # (0 for a seat without a card: byte 0 of the hand, written after the trick)
    uint8_t valid


cdef inline void store8(void* p, uint64_t w) noexcept nogil:
    memcpy(p, &w, 8)


cdef inline uint64_t rotated(uint64_t w, uint64_t keep, int seat, int players) noexcept nogil:
    """The per-seat bytes of ``w`` counted from ``seat`` (byte k: seat ``(seat + k) % players``); bytes beyond: any."""
    w &= keep
    return (w >> (8 * seat)) | (w << (8 * (players - seat)))


cdef inline void write_counts(const Config* cfg, const State* s, int seat, uint8_t* out, uint64_t flags,
                              int shown) noexcept nogil:
    """The portable build's write of what the wide one gathers (``Config.gather``): the flags' bits, has bid
    and the counts, from byte base + 64 to the row's end. The per-seat bytes are rotated as words and stored
    eight at a time, each store's excess overwritten by the next (little-endian, as ``write_bits``); the last
    bytes are composed in ``tail`` and stored as its first and its last eight bytes."""
    cdef int n = cfg.players
    cdef uint64_t keep = cfg.seat_bytes, bids
    cdef uint8_t* counts = out + 9 + 4 * n
    cdef uint8_t tail[24]
    write_bits(out, flags, 9 + 3 * n)
    store8(out + 9 + 3 * n, rotated(load8(s.made), keep, seat, n))
    bids = rotated(load8(s.bids), keep, seat, n)  # bid + 1: -1 + 1 without a carry into the next byte
    bids = ((bids & 0x7F7F7F7F7F7F7F7FULL) + 0x0101010101010101ULL) & ~(bids & 0x8080808080808080ULL)
    store8(counts, bids & 0xFF if shown else bids)  # while hidden, only seat's own
    store8(counts + n, rotated(load8(s.tricks), keep, seat, n))
    store8(tail, rotated(load8(s.held), keep, seat, n))
    tail[n] = s.round
    tail[n + 1] = cfg.rounds
    tail[n + 2] = s.forbidden & -(shown != 1)
    store8(tail + n + 3, rotated(load8(s.shown), keep, seat, n))
    store8(counts + 2 * n, load8(tail))
    store8(counts + 4 * n - 5, load8(tail + 2 * n - 5))  # ends at the row's end (2n + 3 bytes from counts + 2n)


cdef inline void rules_encode(const Config* cfg, const State* s, int seat, uint8_t* out, Memo* memo) noexcept nogil:
    """The ``196 + 68n`` bytes of ``features(state, seat)``: flags (hand, tricks, trump, lead, phase, seats), counts.

    From byte base + 64 to the row's end, the flags from "trump to be named" to "leader" (9 + 3n bits,
    written as bytes) and then "has bid" and the counts, state bytes gathered in one permutation
    (``Config.gather``; the portable build: write_counts). Then the finished tricks and the trump card and
    suit, each only when it changed (``memo``: once a trick, once a round), the trick in progress one byte
    per seat (where ``memo`` set the last ones: cleared) and the hand, 60 bytes. Every position is computed
    without branches (the phase, the lead, the seats change from one decision to the next). Without
    ``memo``, or with one forgotten, the whole row is written.
    """
    cdef int n = cfg.players, r, k, at, shown, base = cfg.base
    cdef int phase = s.phase, to_act = s.to_act, lead = s.lead, trump = s.trump, trump_card = s.trump_card
    cdef int trick_len = s.trick_len
    cdef int hidden = (cfg.hidden != 0) & (phase <= BIDDING)  # bids hidden while bidding (and before: naming trump)
    cdef const uint8_t* rel = cfg.rel[seat]
    cdef const uint8_t* from_leader = cfg.rotation[cfg.rel[s.leader][seat]]  # seat + r's place in the trick
    cdef uint64_t flags
    cdef uint64_t trump_flags = ((<uint64_t>(trump_card != NO_CARD)) << (trump_card & 63)
                                 | (<uint64_t>(trump >= 0)) << (DECK + (trump & 3)))
    cdef Memo scratch
    if memo == NULL or not memo.valid:
        memset(out, 0, cfg.obs_size)
        if memo == NULL:
            memo = &scratch
        memo.valid = 1
        memo.played = 0
        memo.trump = 0
        memset(memo.trick_on, 0, sizeof(memo.trick_on))
    # From byte base + 64: trump to be named (1), suit led (4), phase (4), dealer, to act, leader (n each); then
    # has bid (n, State.made) and the counts, gathered.
    flags = ((<uint64_t>(phase == CHOOSING)) | (<uint64_t>(<unsigned>lead < 4)) << (1 + (lead & 3))
             | (<uint64_t>1) << (5 + phase) | (<uint64_t>1) << (9 + rel[s.dealer])
             | (<uint64_t>(to_act >= 0)) << (9 + n + rel[to_act & ~(to_act >> 31)])  # (to_act -1: over, no seat)
             | (<uint64_t>(phase == PLAYING)) << (9 + 2 * n + rel[s.leader]))
    shown = hidden + (hidden & (seat == s.dealer))  # while hidden, the forbidden bid is the dealer's to see
    if CT_WIDE:
        write_bits_gather(out + base + 64, flags, 9 + 3 * n, <const uint8_t*>s.bids, GATHER_SOURCE,
                          cfg.gather[shown][seat], cfg.gather_add[shown], 5 * n + 3)
    else:  # the portable gather is a byte loop: the per-seat bytes as rotated words instead
        write_counts(cfg, s, seat, out + base + 64, flags, shown)
    if s.played != memo.played:
        write_bits(out + DECK, s.played, DECK)
        memo.played = s.played
    if trump_flags != memo.trump:
        write_bits(out + base, trump_flags, 64)
        memo.trump = trump_flags
    for r in range(n):
        out[memo.trick_on[r]] = 0
    for r in range(n):  # the card of seat + r in the trick in progress (stale cards beyond trick_len: none)
        k = from_leader[r]
        at = (2 * DECK + DECK * r + s.trick[k]) & -(k < trick_len)
        out[at] = 1
        memo.trick_on[r] = at
    write_bits(out, s.hands[seat], DECK)  # (after the trick: its byte 0 is where seats without a card wrote)


# The built-in policies.


# The heuristic (the game's ``heuristic`` bot, players/heuristic.py; floating point in the same order).


cdef inline int category(int card, int trump) noexcept nogil:
    """``bid_model.category``: 0 wizard, 1 jester, 2–14 trump, 15–27 side card, 28–40 card in a no-trump round."""
    if card >= FIRST_JESTER:
        return 1
    if card >= FIRST_WIZARD:
        return 0
    if trump < 0:
        return 28 + card % 13
    return (2 if card // 13 == trump else 15) + card % 13


cdef inline double expected_tricks(const Config* cfg, uint64_t hand, int trump) noexcept nogil:
    """``expected_tricks``: the fitted values of the hand's cards summed in id order, as Python's ``sum`` does."""
    cdef const double* values = VALUE[cfg.players - MIN_PLAYERS][popcount(hand)]
    cdef double total = 0.0, x, t, c = 0.0
    while hand:
        x = values[category(lowest(hand), trump)]
        if cfg.compensated:  # Neumaier's compensated sum (CPython 3.12 and later)
            t = total + x
            if fabs(total) >= fabs(x):
                c += (total - t) + x
            else:
                c += (x - t) + total
            total = t
        else:
            total += x
        hand &= hand - 1
    if c != 0.0 and isfinite(c):
        total += c
    return total


cdef inline int heuristic_bid(const Config* cfg, const State* s, const uint64_t* legal) noexcept nogil:
    """``HeuristicBot._bid``: the allowed bid nearest the estimate (``estimate``), the lower one on a tie."""
    cdef int seat = s.to_act, k, heard = 0, heard_sum = 0, best = -1
    cdef double estimate, pressure = 0.0, off, best_off = 0.0
    estimate = expected_tricks(cfg, s.hands[seat], s.trump)
    if not cfg.hidden:  # bid_pressure: nothing is heard while bids are hidden
        for k in range(cfg.players):
            if k != seat and s.bids[k] >= 0:
                heard += 1
                heard_sum += s.bids[k]
        if heard:
            pressure = <double>heard_sum - <double>(heard * s.round) / <double>cfg.players
    estimate += VALUE[cfg.players - MIN_PLAYERS][s.round][PRESSURE] * pressure
    estimate = estimate - 0.15 * <double>s.round / 10.0  # BID_SHADE * round / 10
    for k in range(s.round + 1):
        if (legal[(BID_BASE + k) >> 6] >> ((BID_BASE + k) & 63)) & 1:
            off = fabs(<double>k - estimate)
            if best < 0 or off < best_off:
                best = k
                best_off = off
    return BID_BASE + best


cdef inline int heuristic_trump(const Config* cfg, const State* s) noexcept nogil:
    """``HeuristicBot._choose_trump``: the suit with the largest expected tricks, the first on a tie."""
    cdef int suit, best = 0
    cdef double value, best_value = expected_tricks(cfg, s.hands[s.to_act], 0)
    for suit in range(1, 4):
        value = expected_tricks(cfg, s.hands[s.to_act], suit)
        if value > best_value:
            best = suit
            best_value = value
    return TRUMP_BASE + best


cdef inline int cost(int card, int trump) noexcept nogil:
    """``cost``: wizards most, then trumps, then by rank; jesters nothing."""
    if card >= FIRST_JESTER:
        return 0
    if card >= FIRST_WIZARD:
        return 100
    return card % 13 + 1 + (40 if card // 13 == trump else 0)


cdef inline double survival(const Config* cfg, const State* s, int card, uint64_t unseen) noexcept nogil:
    """``_survival``: the chance a card that wins now still wins after the seats still to play."""
    cdef int n = cfg.players, me = s.to_act, later = n - s.trick_len - 1, k, seat, pool, lead, suit, ruffers = 0
    cdef double share = 0.0
    cdef uint64_t strong
    if later <= 0 or (FIRST_WIZARD <= card < FIRST_JESTER):
        return 1.0
    pool = popcount(unseen)
    if pool < 1:
        pool = 1
    for k in range(1, later + 1):
        seat = (me + k) % n
        # keen (bid None or tricks < bid): overtakes readily; else DUCKING_OVERTAKE
        share += <double>s.held[seat] / <double>pool * (1.0 if s.tricks[seat] < s.bids[seat] else 0.1)
    if share > 1.0:
        share = 1.0
    lead = s.lead
    if lead == NO_LEAD and card < FIRST_JESTER:
        lead = WIZARD_LED if card >= FIRST_WIZARD else card // 13
    strong = unseen & WIZARDS
    suit = card // 13 if card < FIRST_WIZARD else -1
    if s.trump >= 0 and suit == s.trump:
        strong |= unseen & ABOVE[card]
    elif s.trump >= 0:
        ruffers = popcount(unseen & SUIT_MASK[s.trump])
    if 0 <= lead < 4 and suit == lead:
        strong |= unseen & ABOVE[card]
    return pow(1.0 - share, <double>popcount(strong)) * pow(1.0 - share * 0.1, <double>ruffers)  # VOID_CHANCE


cdef inline void binomial_step(const double* dist, int length, double p, double* out) noexcept nogil:
    """One more event of chance ``p`` (``_poisson_binomial``'s inner loop): ``out`` has ``length + 1`` entries."""
    cdef int k
    out[0] = dist[0] * (1 - p)
    for k in range(1, length):
        out[k] = dist[k - 1] * p + dist[k] * (1 - p)
    out[length] = dist[length - 1] * p


cdef inline int heuristic_play(const Config* cfg, const State* s, const uint64_t* legal) noexcept nogil:
    """``HeuristicBot._play``: the legal card with the best chance of an exact bid (``_lookahead``)."""
    cdef int seat = s.to_act, trump = s.trump, size, k, j, card, need, winning, chosen = -1
    cdef uint64_t hand = s.hands[seat], unseen, rest, cards
    cdef int order[MAX_BID]
    cdef double values[MAX_BID]
    cdef double prefix[MAX_BID + 1][MAX_BID + 1]  # prefix[j]: the distribution of the first j cards' values
    cdef double dist[2][MAX_BID + 1]
    cdef double hits[DECK]
    cdef double now, hit, best
    cdef int legal_cards[DECK]
    cdef int count = 0, at, length
    cdef uint8_t trick[MAX_PLAYERS]
    # _unseen_mask: neither in the hand, nor played this round, nor in the trick, nor turned for trump.
    unseen = hand | s.played
    for k in range(s.trick_len):
        unseen |= (<uint64_t>1) << s.trick[k]
        trick[k] = s.trick[k]
    if s.trump_card != NO_CARD:
        unseen |= (<uint64_t>1) << s.trump_card
    unseen = (((<uint64_t>1) << DECK) - 1) & ~unseen
    # _future_value of each card in the hand, in id order.
    size = 0
    cards = hand
    while cards:
        card = lowest(cards)
        order[size] = card
        if FIRST_WIZARD <= card < FIRST_JESTER:
            values[size] = 1.0
        elif card >= FIRST_JESTER:
            values[size] = 0.0
        elif card // 13 == trump and not (unseen & (WIZARDS | ABOVE[card])):
            values[size] = 1.0
        else:
            values[size] = VALUE[cfg.players - MIN_PLAYERS][popcount(hand)][category(card, trump)]
        size += 1
        cards &= cards - 1
    prefix[0][0] = 1.0
    for j in range(size):
        binomial_step(prefix[j], j + 1, values[j], prefix[j + 1])
    need = s.bids[seat] - s.tricks[seat]
    cards = legal[0]
    j = 0
    while cards:  # _exact_chances, each legal card in id order
        card = lowest(cards)
        while order[j] != card:
            j += 1
        now = 0.0
        trick[s.trick_len] = card
        winning = winning_position(STRENGTH[trump + 1][(s.lead if s.lead != NO_LEAD or card >= FIRST_JESTER else
                                                        (WIZARD_LED if card >= FIRST_WIZARD else card // 13)) + 1],
                                   trick, s.trick_len + 1) == s.trick_len
        if winning and not (card >= FIRST_JESTER and s.trick_len == 0):
            now = survival(cfg, s, card, unseen)
        # The distribution of the other cards' values: the prefix before the card, then the cards after it.
        at = 0
        length = j + 1
        for k in range(length):
            dist[0][k] = prefix[j][k]
        for k in range(j + 1, size):
            binomial_step(dist[at], length, values[k], dist[1 - at])
            at = 1 - at
            length += 1
        hit = now * dist[at][need - 1] if 1 <= need <= length else 0.0
        hit += (1 - now) * dist[at][need] if 0 <= need < length else 0.0
        hits[count] = hit
        legal_cards[count] = card
        count += 1
        cards &= cards - 1
    best = hits[0]
    for k in range(1, count):
        if hits[k] > best:
            best = hits[k]
    for k in range(count):  # the cheapest of the cards within 1e-9 of the best
        if hits[k] >= best - 1e-9 and (chosen < 0 or cost(legal_cards[k], trump) < cost(chosen, trump)):
            chosen = legal_cards[k]
    return chosen


cdef inline int rules_policy(const Config* cfg, const State* s, int policy, const uint64_t* legal,
                             uint64_t* prng) noexcept nogil:
    if policy == 1:
        if s.phase == PLAYING:
            return heuristic_play(cfg, s, legal)
        if s.phase == BIDDING:
            return heuristic_bid(cfg, s, legal)
        return heuristic_trump(cfg, s)
    return nth_bit2(legal, uniform(prng, popcount(legal[0]) + popcount(legal[1])))


# Python level.

#: What the core supports of ``WizardOptions``: every field, every value.
SUPPORTED = {"players": (3, 4, 5, 6), "rounds": ("all", 5, 10), "wizard_trump": ("dealer_chooses", "no_trump"),
             "bids_may_not_equal_tricks": (True, False), "hidden_bids": (True, False),
             "first_dealer": (-1, 0, 1, 2, 3, 4, 5)}


cdef int _fill_gather(Config* cfg) except -1:
    """Config.gather: where "has bid" and each count of rules_encode are among the state's bytes from bids on."""
    cdef State probe
    cdef const uint8_t* base = <const uint8_t*>probe.bids
    cdef int n = cfg.players, shown, seat, k, other, at = 9 + 4 * n  # the counts' first lane
    cdef uint8_t* lanes
    if &probe.forbidden - base + 1 != GATHER_SOURCE:
        raise AssertionError("the State's count bytes moved: GATHER_SOURCE is stale")
    memset(cfg.gather, 64, sizeof(cfg.gather))
    memset(cfg.gather_add, 0, sizeof(cfg.gather_add))
    for shown in range(3):
        for seat in range(n):
            lanes = cfg.gather[shown][seat]
            for k in range(n):
                other = (seat + k) % n
                lanes[at - n + k] = <uint8_t>(&probe.made[other] - base)
                if k == 0 or shown == 0:  # bid + 1 (-1 + 1 = 0: not made); while hidden, only seat's own
                    lanes[at + k] = <uint8_t>(<const uint8_t*>&probe.bids[other] - base)
                lanes[at + n + k] = <uint8_t>(&probe.tricks[other] - base)
                lanes[at + 2 * n + k] = <uint8_t>(&probe.held[other] - base)
                lanes[at + 3 * n + 3 + k] = <uint8_t>(&probe.shown[other] - base)
            lanes[at + 3 * n] = <uint8_t>(&probe.round - base)
            if shown != 1:
                lanes[at + 3 * n + 2] = <uint8_t>(&probe.forbidden - base)
        for k in range(n):
            cfg.gather_add[shown][at + k] = 1 if k == 0 or shown == 0 else 0
        cfg.gather_add[shown][at + 3 * n + 1] = cfg.rounds  # from a zero (64)
    return 0


cdef Config rules_config(object options, dict flags) except *:
    """The Config of ``options`` with the core's flags: ``rewards`` ("game" or "round"); for tests only,
    ``defect`` (a planted rule defect: 1 an exact bid scores no 20, 2 a card after a led jester sets no suit
    to follow, 3 the sum rule forbids the wrong bid)."""
    cdef Config cfg
    cdef int n, seat, k
    rewards = flags.pop("rewards", "game")
    defect = flags.pop("defect", 0)
    if flags:
        raise ValueError(f"the wizard core has no flag {', '.join(sorted(flags))}")
    n = options.players
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise ValueError(f"the core plays 3–6 players, not {n}")
    memset(&cfg, 0, sizeof(Config))
    cfg.players = n
    cfg.rounds = options.game_rounds()
    cfg.first_dealer = options.first_dealer
    if not -1 <= cfg.first_dealer < n:
        raise ValueError(f"first_dealer must be -1 or a seat 0–{n - 1}, not {cfg.first_dealer}")
    cfg.dealer_chooses = options.wizard_trump == "dealer_chooses"
    cfg.sum_rule = bool(options.bids_may_not_equal_tricks)
    cfg.hidden = bool(options.hidden_bids)
    for seat in range(MAX_PLAYERS):
        for k in range(MAX_PLAYERS):
            cfg.rotation[seat][k] = (seat + k) % n if seat < n else 0
            cfg.rel[seat][k] = (k - seat + n) % n if seat < n and k < n else 0  # C ints: no negative remainder
    cfg.obs_size = 196 + 68 * n
    cfg.seat_bytes = ((<uint64_t>1) << (8 * n)) - 1
    cfg.base = 2 * DECK + DECK * n
    _fill_gather(&cfg)
    if rewards not in ("game", "round"):
        raise ValueError(f"rewards must be 'game' or 'round', not {rewards!r}")
    cfg.reward_round = rewards == "round"
    cfg.defect = defect
    # Whether this Python's sum() of floats is compensated (3.12 on): ten 0.1s sum to 1.0 only then.
    cfg.compensated = sum([0.1] * 10) == 1.0
    return cfg


cdef object rules_dump(const Config* cfg, const State* s):
    n = cfg.players
    return {
        "round": s.round,
        "dealer": s.dealer,
        "phase": PHASE_NAMES[s.phase],
        "to_act": None if s.to_act < 0 else s.to_act,
        "hands": tuple(s.hands[k] for k in range(n)),
        "trump_card": None if s.trump_card == NO_CARD else s.trump_card,
        "trump": s.trump,
        "bids": tuple(s.bids[k] for k in range(n)),
        "tricks": tuple(s.tricks[k] for k in range(n)),
        "leader": s.leader,
        "lead": s.lead,
        "trick": tuple(s.trick[k] for k in range(s.trick_len)),
        "played": s.played,
        "totals": tuple(s.totals[k] for k in range(n)),
        "rng": s.rng,
        "held": tuple(s.held[k] for k in range(n)),
        "shown": tuple(s.shown[k] for k in range(n)),
    }


include "_batch.pxi"
