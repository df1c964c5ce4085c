# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Kaiser rules in C for the batched core: the second implementation of ``cardtable.games.kaiser``.

The Python engine is the reference; ``tests/vector`` plays both on the same seeds and requires the
same legal sets, states, encodings and outcomes. Every rule here names its place in
``games/kaiser/game.py``: the deal (``_start_hand``, ``set_deal``), the bidding (``_legal_calls``,
``_call``), naming trump (``apply_unchecked``), the play and the trick (``_play``,
``rules.trick_winner``, ``rules.trick_points``), the scoring (``_score_hand``, ``rules.hand_score``)
and the end of the game (``game_verdict`` with its 200-hand cap). Action ids and the observation
bytes are ``games/kaiser/encoding.py``'s.
"""

import builtins

from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memset

from cardtable.vector._stream cimport Bound, fill_bound, mix, shuffle, uniform

cdef enum:
    NUM_ACTIONS = 49
    LEGAL_WORDS = 1
    MAX_PLAYERS = 4
    OBS_MAX = 348
    OBS_SIZE = 348
    DECK = 32
    PASS_ID = 32
    BID_BASE = 33
    TRUMP_BASE = 45
    NO_TRUMP = 4
    FIVE = 8                  # rules.FIVE_OF_HEARTS
    THREE = 0                 # rules.THREE_OF_SPADES
    NO_CARD = 255
    HAND_CAP = 200            # game.HAND_CAP (rules.HAND_CAP on later trees)
    FIRST_DEALER = 3          # game.FIRST_DEALER
    GATHER_SOURCE = 38        # the state's bytes from hand_no to the last shown total

cdef enum:
    BIDDING = 0
    TRUMP = 1
    PLAY = 2
    OVER = 3

cdef enum:
    ALL_WIN = 2               # State.winners: side 0, side 1, or every seat (the 200-hand cap, level)

#: The built-in policies by index: uniform over the legal ids; the game's ``heuristic`` bot and ``lowest``
#: baseline, each exactly (``games/kaiser/players``, ``bots.py`` on older trees).
POLICIES = ("random", "heuristic", "lowest")


ctypedef struct Config:
    # gather[seat]: the observation's counts (bid points, the highest bid, tricks, points and shown totals
    # per side, cards held, the hand number) as bytes of the state from hand_no on (GATHER_SOURCE of them;
    # 64: a zero), seats and sides counted from seat, lane j for byte 320 + j of the row; gather_add: what is
    # added (1 to the highest bid, 16 to the points; the options, which the state does not hold)
    uint8_t gather[4][64]
    uint8_t gather_add[64]
    # rel_bit[seat][x]: the bit of seat x counted from seat (0 for x >= 4: NO_CARD, -1 as a byte, nobody);
    # phase_flags[phase]: the flags of bytes 288–328 that phase shows (the leader in play, the bidder after
    # the bidding)
    uint8_t rel_bit[4][256]
    uint64_t phase_flags[4]
    int players
    int obs_size
    int reward_round
    int floor
    int no_trump
    int target
    uint32_t bids              # bit k: the bid of id BID_BASE + k (value 10 + k) is allowed by the options
    int hand_cap
    int defect


ctypedef struct State:
    uint64_t rng               # the pinned stream's state (core.rng)
    uint32_t hands[4]
    int16_t totals[2]
    uint16_t hand_no
    uint8_t dealer
    uint8_t phase
    uint8_t turn               # NO_CARD once over
    uint8_t leader             # NO_CARD before play
    int8_t high                # bid_value of the highest bid, -1 if none yet
    int8_t high_bidder
    int8_t trump               # 0–3 a suit, 4 no trump, -1 not yet known
    int8_t last_winner
    uint8_t trick[4]           # by seat: the card it played to the trick in progress (NO_CARD: none yet)
    uint8_t trick_len
    uint8_t last_trick[4]      # by seat: the last completed trick of this hand (all NO_CARD: none)
    uint8_t last_leader
    uint8_t bid_points[4]      # by seat: its bid's points (0: a pass or no call yet)
    uint8_t called             # bit s: seat s has called
    uint8_t passed             # bit s: seat s has passed (kept for the encoding)
    uint8_t no_trumps          # bit s: seat s bid no trump
    int8_t tricks[2]           # per side this hand
    int8_t points[2]
    uint8_t winners            # once over: the winning side, or ALL_WIN
    uint8_t held[4]            # cards in each hand (the hands' bit counts, kept for the encoding)
    uint8_t shown[2]           # the totals as the encoding shows them (+ 128, clipped to 0–255)


# Tables, built once at import.
cdef Bound FACTORIAL_32
cdef double TRUMP_VALUE[256]     # rating.trump_suit_value of a suit's ranks (bit r: rank r held)
cdef double SIDE_VALUE[2][256]   # rating.side_suit_value: [0] in a suit contract, [1] in no trump


def _fill_tables() -> None:
    import math

    fill_bound(&FACTORIAL_32, math.factorial(DECK))
    cdef int b
    for b in range(256):  # the ranks of one suit in a sorted hand: ascending
        ranks = [r for r in range(8) if b >> r & 1]
        # builtins.sum of a list: the very summation of the heuristic's generator (Neumaier's from Python 3.12 on)
        TRUMP_VALUE[b] = builtins.sum([{7: 1.0, 6: 0.8, 5: 0.5}.get(r, 0.25) for r in ranks]) + 0.6 * max(
            0, len(ranks) - 3)
        for nt in range(2):
            value = 0.0
            if 7 in ranks:
                value += 0.9
            if 6 in ranks and len(ranks) >= 2:
                value += 0.6 if nt else 0.5
            if nt and len(ranks) >= 5 and 7 in ranks:
                value += 0.5 * (len(ranks) - 4)  # a long suit runs in no trump
            SIDE_VALUE[nt][b] = value


_fill_tables()


include "_bits.pxi"


# Dealing (game._start_hand, set_deal, KaiserGame.new).


cdef inline void start_hand(State* s, int dealer) noexcept nogil:
    """``_start_hand``: shuffle with the state's RNG, 8 cards each from the dealer's left; open the bidding."""
    cdef uint8_t deck[DECK]
    cdef int k
    for k in range(DECK):
        deck[k] = k
    shuffle(&s.rng, deck, DECK, &FACTORIAL_32)
    for k in range(4):
        s.hands[k] = 0
        s.held[k] = 8
        s.trick[k] = s.last_trick[k] = NO_CARD
        s.bid_points[k] = 0
    for k in range(DECK):
        s.hands[(dealer + 1 + k // 8) % 4] |= (<uint32_t>1) << deck[k]
    s.hand_no += 1
    s.dealer = dealer
    s.phase = BIDDING
    s.turn = (dealer + 1) % 4
    s.high = -1
    s.high_bidder = -1
    s.trump = -1
    s.leader = NO_CARD
    s.trick_len = 0
    s.last_leader = NO_CARD
    s.last_winner = -1
    s.called = s.passed = s.no_trumps = 0
    s.tricks[0] = s.tricks[1] = 0
    s.points[0] = s.points[1] = 0


cdef inline void rules_reset(const Config* cfg, State* s, uint64_t seed) noexcept nogil:
    """``KaiserGame.new(options, seed)``: seat 3 deals the first hand."""
    s.rng = mix(seed)
    s.totals[0] = s.totals[1] = 0
    s.shown[0] = s.shown[1] = 128
    s.hand_no = 0
    s.winners = 0
    start_hand(s, FIRST_DEALER)


# Flow.


cdef inline int rules_num_actions(const Config* cfg) noexcept nogil:
    return NUM_ACTIONS  # the same 49 ids for every option set


cdef inline int rules_to_act(const State* s) noexcept nogil:
    return -1 if s.phase == OVER else s.turn


cdef inline uint64_t legal_bids(const Config* cfg, const State* s) noexcept nogil:
    """``_legal_calls`` as bits 0–11 (the bid ids less BID_BASE): every allowed bid above the highest."""
    cdef int above = s.high - 9   # bid k has the value 10 + k: it beats ``high`` from k = high - 9 on
    if above <= 0:
        return cfg.bids
    return cfg.bids & ~((<uint64_t>1 << above) - 1)


cdef inline void rules_legal(const Config* cfg, const State* s, uint64_t* legal) noexcept nogil:
    """``legal_bits``: follow suit if possible; the four suits; pass (unless the dealer is forced) and the bids."""
    cdef uint64_t hand, follow
    legal[0] = 0
    if s.phase == PLAY:
        hand = s.hands[s.turn]
        if s.trick_len:
            follow = hand & ((<uint64_t>0xFF) << (8 * (s.trick[s.leader] >> 3)))
            if follow:
                legal[0] = follow
                return
        legal[0] = hand
    elif s.phase == TRUMP:
        legal[0] = (<uint64_t>0xF) << TRUMP_BASE
    elif s.phase == BIDDING:
        legal[0] = legal_bids(cfg, s) << BID_BASE
        if not (s.turn == s.dealer and s.high < 0):
            legal[0] |= (<uint64_t>1) << PASS_ID


cdef inline int power(int card, int led, int trump) noexcept nogil:
    """``rules.card_power``: trumps beat the led suit; other suits never win."""
    if card >> 3 == trump:
        return 16 + (card & 7)
    if card >> 3 == led:
        return 8 + (card & 7)
    return 0


cdef inline void finish(const Config* cfg, State* s, int winners, float* rewards) noexcept nogil:
    """The game is over: ``rewards.final_rewards`` in the "game" mode (0 for all when every seat wins)."""
    cdef int seat
    s.phase = OVER
    s.turn = NO_CARD
    s.winners = winners
    if not cfg.reward_round and winners != ALL_WIN:
        for seat in range(4):
            rewards[seat] += 1.0 if seat & 1 == winners else -1.0


cdef inline int clip(int total) noexcept nogil:
    """A total as ``features`` shows it: + 128, clipped to 0–255."""
    total += 128
    return 0 if total < 0 else 255 if total > 255 else total


cdef inline void score_hand(const Config* cfg, State* s, float* rewards) noexcept nogil:
    """``_score_hand``: the bidders' change (``hand_score``), the defenders keep what they took; then
    ``game_verdict`` (first a side at the target, both: the bidders; then a side at minus the target loses;
    then the hand cap) ends the game or the next hand is dealt."""
    cdef int side = s.high_bidder & 1, bid = s.high >> 1, taken = s.points[side], change, seat
    cdef int target = cfg.target
    change = taken if taken >= bid else -bid
    if s.high & 1:
        change *= 2
    if cfg.defect == 1:  # planted defect 1 (tests only): a no-trump contract is not doubled
        change = taken if taken >= bid else -bid
    s.totals[side] += change
    s.totals[1 - side] += s.points[1 - side]
    s.shown[0] = clip(s.totals[0])
    s.shown[1] = clip(s.totals[1])
    if cfg.reward_round:  # rewards.round_rewards: each seat's side's change
        for seat in range(4):
            rewards[seat] += change if seat & 1 == side else s.points[1 - side]
    if s.totals[0] >= target and s.totals[1] >= target:
        finish(cfg, s, side, rewards)
    elif s.totals[0] >= target:
        finish(cfg, s, 0, rewards)
    elif s.totals[1] >= target:
        finish(cfg, s, 1, rewards)
    elif s.totals[0] <= -target:
        finish(cfg, s, 1, rewards)
    elif s.totals[1] <= -target:
        finish(cfg, s, 0, rewards)
    elif s.hand_no >= cfg.hand_cap:
        finish(cfg, s, ALL_WIN if s.totals[0] == s.totals[1] else (0 if s.totals[0] > s.totals[1] else 1), rewards)
    else:
        start_hand(s, (s.dealer + 1) % 4)


cdef inline void play(const Config* cfg, State* s, int card, float* rewards) noexcept nogil:
    """``_play``: a fourth card closes the trick (``trick_winner``, ``trick_points``); the eighth closes the hand."""
    cdef int seat = s.turn, k, who, best = -1, winner = 0, led, worth = 1, c
    s.hands[seat] &= ~((<uint32_t>1) << card)
    s.held[seat] -= 1
    s.trick[seat] = card
    s.trick_len += 1
    if s.trick_len < 4:
        s.turn = (seat + 1) % 4
        return
    led = s.trick[s.leader] >> 3
    for k in range(4):  # in playing order from the leader: the first of the highest power wins
        who = (s.leader + k) % 4
        c = s.trick[who]
        if power(c, led, s.trump) > best:
            best = power(c, led, s.trump)
            winner = who
        if c == FIVE:
            worth += 5
        elif c == THREE:
            worth -= 3 if cfg.defect != 2 else 0  # planted defect 2 (tests only): the 3♠ costs nothing
    s.tricks[winner & 1] += 1
    s.points[winner & 1] += worth
    for k in range(4):
        s.last_trick[k] = s.trick[k]
        s.trick[k] = NO_CARD
    s.trick_len = 0
    s.last_leader = s.leader
    s.last_winner = winner
    s.leader = s.turn = winner
    if s.hands[winner] == 0:
        score_hand(cfg, s, rewards)


cdef inline void call(State* s, int action) noexcept nogil:
    """``_call``: a bid or a pass; after the dealer's call the highest bidder takes the contract."""
    cdef int seat = s.turn, k
    s.called |= 1 << seat
    if action != PASS_ID:
        k = action - BID_BASE
        s.bid_points[seat] = 5 + k // 2
        s.no_trumps |= (k & 1) << seat
        s.high = 10 + k
        s.high_bidder = seat
    else:
        s.passed |= 1 << seat
    if seat != s.dealer:
        s.turn = (seat + 1) % 4
        return
    s.turn = s.high_bidder
    if s.high & 1:  # no trump: play begins at once, the bidder leading
        s.trump = NO_TRUMP
        s.phase = PLAY
        s.leader = s.high_bidder
    else:
        s.phase = TRUMP


cdef inline void rules_step(const Config* cfg, State* s, int action, float* rewards) noexcept nogil:
    """Play a legal action id (``apply_unchecked``)."""
    if action < PASS_ID:
        play(cfg, s, action, rewards)
    elif action < TRUMP_BASE:
        call(s, action)
    else:  # the winning bidder names trump and leads
        s.trump = action - TRUMP_BASE
        s.phase = PLAY
        s.leader = s.turn


cdef inline void rules_forfeit(State* s) noexcept nogil:
    s.phase = OVER
    s.turn = NO_CARD


# What a seat sees (encoding.KaiserEncoding.features).


ctypedef struct Memo:
    # Unused: every call of rules_encode writes the whole row.
    uint8_t valid


cdef inline uint64_t card_bit(int card) noexcept nogil:
    """The bit of ``card`` in the low half of a word; 0 for NO_CARD (its bit 63 is masked off)."""
    return <uint32_t>((<uint64_t>1) << (card & 63))


cdef inline uint64_t card_bit_high(int card) noexcept nogil:
    """The bit of ``card`` in the high half of a word; 0 for NO_CARD (its bit 63 is shifted out)."""
    return ((<uint64_t>1) << (card & 63)) << 32


cdef inline int card_spot(int card, int base) noexcept nogil:
    """The byte of ``card`` in the 32 from ``base``; for NO_CARD byte 288, which the flags overwrite after."""
    return 288 ^ ((288 ^ (base + card)) & -(card < DECK))


cdef inline void rules_encode(const Config* cfg, const State* s, int seat, uint8_t* out, Memo* memo) noexcept nogil:
    """The 348 bytes of ``features(state, seat)`` (``games/kaiser/encoding.py``): 329 flags, then 19 counts.

    The whole row every call, without branches (which would be mispredicted: the one-hot bytes move between
    decisions). Bytes 288–328 (phase, seats, trump, calls) are bits of one word, the seats by table. The
    wide build writes the rest as bits too, 64 bytes at a time (the hand and the eight trick fields, by seat
    counted from ``seat``, are 32-bit fields), and gathers the counts from the state in one permutation
    (``Config.gather``). The portable build, where bits cost a table load per 8 bytes, clears the trick
    fields and sets one byte in each, and copies the counts.
    """
    cdef const uint8_t* trick = s.trick
    cdef const uint8_t* last = s.last_trick
    cdef const uint8_t* rel = cfg.rel_bit[seat]
    cdef int r, side = seat & 1
    cdef uint32_t calls = s.called | s.passed << 4 | s.no_trumps << 8
    cdef uint32_t low = 0x111 * (15 >> seat)   # in each nibble, the bits the rotation moves down
    cdef uint64_t flags
    # has called, passed, bid no trump (bytes 313–324): each nibble rotated, bit r for seat ``seat + r``
    calls = ((calls >> seat) & low) | ((calls << (4 - seat)) & (0xFFF ^ low))
    # bytes 288–328 from bit 0: phase, dealer, seat to act, leader, bidder, trump, the calls, last winner; the
    # seats by table (none is NO_CARD or -1 there: no seat to act once over, no winner before a trick)
    flags = ((<uint64_t>1) << s.phase
             | (<uint64_t>rel[s.dealer]) << 4
             | (<uint64_t>rel[s.turn]) << 8
             | (<uint64_t>rel[s.leader]) << 12
             | (<uint64_t>rel[<uint8_t>s.high_bidder]) << 16
             | (((<uint64_t>1) << (s.trump & 63)) & 0x1F) << 20   # -1: bit 63, masked off
             | (<uint64_t>calls) << 25
             | (<uint64_t>rel[<uint8_t>s.last_winner]) << 37) & cfg.phase_flags[s.phase]
    if CT_WIDE:
        write_bits(out, s.hands[seat] | card_bit_high(trick[seat]), 64)
        write_bits(out + 64, card_bit(trick[(seat + 1) & 3]) | card_bit_high(trick[(seat + 2) & 3]), 64)
        write_bits(out + 128, card_bit(trick[(seat + 3) & 3]) | card_bit_high(last[seat]), 64)
        write_bits(out + 192, card_bit(last[(seat + 1) & 3]) | card_bit_high(last[(seat + 2) & 3]), 64)
        write_bits(out + 256, card_bit(last[(seat + 3) & 3]) | flags << 32, 64)
        write_bits_gather(out + 320, flags >> 32, 9, <const uint8_t*>&s.hand_no, GATHER_SOURCE, cfg.gather[seat],
                          cfg.gather_add, 19)
        return
    write_bits(out, s.hands[seat], 32)
    for r in range(4):  # bytes 32–287, 32 per seat: cleared 32 at a time (GCC makes larger memsets rep stos)
        memset(out + 32 + 32 * r, 0, 32)
        out[card_spot(trick[(seat + r) & 3], 32 + 32 * r)] = 1
        memset(out + 160 + 32 * r, 0, 32)
        out[card_spot(last[(seat + r) & 3], 160 + 32 * r)] = 1
        out[329 + r] = s.bid_points[(seat + r) & 3]
        out[340 + r] = s.held[(seat + r) & 3]
    write_bits(out + 288, flags, 41)
    out[333] = s.high + 1
    out[334] = s.tricks[side]
    out[335] = s.tricks[1 - side]
    out[336] = s.points[side] + 16
    out[337] = s.points[1 - side] + 16
    out[338] = s.shown[side]
    out[339] = s.shown[1 - side]
    out[344] = <uint8_t>s.hand_no
    out[345] = cfg.floor
    out[346] = cfg.target
    out[347] = cfg.no_trump


# The built-in policies (games/kaiser/players: heuristic.py, baselines.py; rating.py).


cdef inline int ranks_of(uint32_t hand, int suit) noexcept nogil:
    return (hand >> (8 * suit)) & 0xFF


cdef inline double trump_rating(uint32_t hand, int trump) noexcept nogil:
    """``rating.trump_rating``: the suits in order, then the 5♥ and the 3♠, in the same double arithmetic."""
    cdef double points = 0.0
    cdef int suit
    for suit in range(4):
        points += TRUMP_VALUE[ranks_of(hand, suit)] if suit == trump else SIDE_VALUE[trump == 4][ranks_of(hand, suit)]
    if hand >> FIVE & 1:
        points += 3.0 if trump == 1 or popcount(ranks_of(hand, 1)) >= 3 else 2.0
    if hand >> THREE & 1:
        points -= 1.0 if trump == 0 and popcount(ranks_of(hand, 0)) >= 3 else 2.0
    return points


cdef inline int best_trump(uint32_t hand, double* rating) noexcept nogil:
    """``rating.best_trump``: the first suit of the highest rating."""
    cdef int suit, best = 0
    cdef double value
    rating[0] = trump_rating(hand, 0)
    for suit in range(1, 4):
        value = trump_rating(hand, suit)
        if value > rating[0]:
            rating[0] = value
            best = suit
    return best


cdef inline int heuristic_call(const Config* cfg, const State* s) noexcept nogil:
    """``choose_call``: pass over the partner's bid; else the lowest bid the rating covers (forced: the lowest)."""
    cdef uint64_t bids = legal_bids(cfg, s)
    cdef bint forced = s.turn == s.dealer and s.high < 0
    cdef double suit_value, nt_value, value
    cdef int k
    if not forced and s.high >= 0 and s.high_bidder == (s.turn + 2) % 4:
        return PASS_ID
    best_trump(s.hands[s.turn], &suit_value)
    nt_value = trump_rating(s.hands[s.turn], 4)
    for k in range(12):  # lowest first
        if bids >> k & 1:
            value = nt_value - 1.0 if k & 1 else suit_value
            if value + 2.5 >= 5 + k // 2:  # PARTNER_SHARE
                return BID_BASE + k
    return BID_BASE + lowest(bids) if forced else PASS_ID


cdef inline int cheapest(uint64_t cards, int trump) noexcept nogil:
    """``_cheapest``: the least useful card, min of (is the 5♥, is a trump, rank), the lowest id first."""
    cdef int best = -1, key, best_key = 0, c
    while cards:
        c = lowest(cards)
        key = (c == FIVE) * 32 + (c >> 3 == trump) * 16 + (c & 7)
        if best < 0 or key < best_key:
            best, best_key = c, key
        cards &= cards - 1
    return best


cdef inline int lead(const State* s, uint64_t cards, int trump) noexcept nogil:
    """``_lead``: bidders draw trumps from the top; else cash a side ace; else low from the longest side suit."""
    cdef uint64_t trumps = cards & ((<uint64_t>0xFF) << (8 * trump)) if trump < 4 else 0
    cdef uint64_t aces = cards & <uint64_t>0x80808080 & ~trumps, side, plain = cards & ~((<uint64_t>1) << FIVE | 1)
    cdef int top, suit, longest = 0, count, most = -1
    if (s.high_bidder & 1) == (s.turn & 1) and popcount(trumps) >= 2:
        top = 63 - __builtin_clzll(trumps)
        if top & 7 >= 6:
            return top
    if aces:
        return lowest(aces)
    side = plain & ~trumps
    if not side:
        side = plain if plain else cards
    for suit in range(4):
        count = popcount(side & ((<uint64_t>0xFF) << (8 * suit)))
        if count > most:
            most, longest = count, suit
    return lowest(side & ((<uint64_t>0xFF) << (8 * longest)))


cdef inline int follow(const State* s, uint64_t cards, int trump) noexcept nogil:
    """``_follow``: feed a winning partner; duck a trick holding the 3♠; win cheaply; else discard."""
    cdef int seat = s.turn, led = s.trick[s.leader] >> 3, k, who, c, best = -1, winner = 0, p, pick = -1
    cdef uint64_t on_table = 0, winners = 0, losers = 0, pool, rest
    for k in range(s.trick_len):
        who = (s.leader + k) % 4
        c = s.trick[who]
        on_table |= (<uint64_t>1) << c
        if power(c, led, trump) > best:
            best, winner = power(c, led, trump), who
    rest = cards
    while rest:
        c = lowest(rest)
        if power(c, led, trump) > best:
            winners |= (<uint64_t>1) << c
        else:
            losers |= (<uint64_t>1) << c
        rest &= rest - 1
    if winner == (seat + 2) % 4:  # _feed_partner
        if s.trick_len == 3 and losers >> FIVE & 1:
            return FIVE
        pool = losers & ~(<uint64_t>1 << THREE)
        return cheapest(pool if pool else (losers if losers else cards), 4)
    if on_table >> THREE & 1 and not on_table >> FIVE & 1 and losers:
        return cheapest(losers, trump)
    if winners:  # _win
        if s.trick_len == 3 and winners >> FIVE & 1:
            return FIVE
        pool = winners & ~((<uint64_t>1) << FIVE | (<uint64_t>1) << THREE)
        if not pool:
            pool = winners
        best = 99
        while pool:
            c = lowest(pool)
            p = power(c, led, trump)
            if p < best:
                best, pick = p, c
            pool &= pool - 1
        return pick
    if cards >> THREE & 1:  # _discard
        return THREE
    pool = cards & ~((<uint64_t>1) << FIVE)
    return cheapest(pool if pool else cards, trump)


cdef inline int heuristic(const Config* cfg, const State* s, uint64_t legal) noexcept nogil:
    """``HeuristicBot.act``: bid, name its best-rated suit, or play."""
    cdef double rating
    if s.phase == BIDDING:
        return heuristic_call(cfg, s)
    if s.phase == TRUMP:
        return TRUMP_BASE + best_trump(s.hands[s.turn], &rating)
    if s.trick_len == 0:
        return lead(s, legal, s.trump)
    return follow(s, legal, s.trump)


cdef inline double count_points(uint32_t hand) noexcept nogil:
    """``baselines.count_points``: aces 1, kings ½, the 5♥ 2, the 3♠ −1, a card beyond four in a suit 1."""
    cdef int suit, longest = 0, n
    cdef double value
    for suit in range(4):
        n = popcount(ranks_of(hand, suit))
        if n > longest:
            longest = n
    value = popcount(hand & <uint32_t>0x80808080) + 0.5 * popcount(hand & <uint32_t>0x40404040)
    value = value + 2.0 * (hand >> FIVE & 1)
    value = value - (hand >> THREE & 1)
    return value + (longest - 4 if longest > 4 else 0)


cdef inline int lowest_player(const Config* cfg, const State* s, uint64_t legal) noexcept nogil:
    """``LowestBot.act``: the lowest suit bid a plain count covers; its longest suit; the lowest card."""
    cdef uint64_t bids, cards
    cdef int k, suit, best = 0, key, best_key = -1, c
    cdef bint forced
    if s.phase == BIDDING:
        bids = legal_bids(cfg, s)
        forced = s.turn == s.dealer and s.high < 0
        if not bids:
            return PASS_ID
        k = lowest(bids & 0x555) if bids & 0x555 else lowest(bids)  # suit bids first
        if forced or count_points(s.hands[s.turn]) + 2.5 >= 5 + k // 2:
            return BID_BASE + k
        return PASS_ID
    if s.phase == TRUMP:  # longest_suit: most cards, then the higher rank sum, then the lower suit
        for suit in range(4):
            cards = ranks_of(s.hands[s.turn], suit)
            key = popcount(cards) * 64
            while cards:
                key += lowest(cards)
                cards &= cards - 1
            if key > best_key:
                best, best_key = suit, key
        return TRUMP_BASE + best
    cards = legal
    best_key = 99
    while cards:  # min of (rank, is a trump, card)
        c = lowest(cards)
        key = (c & 7) * 2 + (c >> 3 == s.trump)
        if key < best_key:
            best, best_key = c, key
        cards &= cards - 1
    return best


cdef inline int nth_legal(const uint64_t* legal, int k) noexcept nogil:
    """The k-th legal id (0-based, ascending)."""
    cdef uint64_t w = legal[0]
    while k:
        w &= w - 1
        k -= 1
    return lowest(w)


cdef inline int rules_policy(const Config* cfg, const State* s, int policy, const uint64_t* legal,
                             uint64_t* prng) noexcept nogil:
    if policy == 1:
        return heuristic(cfg, s, legal[0])
    if policy == 2:
        return lowest_player(cfg, s, legal[0])
    return nth_legal(legal, uniform(prng, popcount(legal[0])))


# Python level.

#: What the core supports of ``KaiserOptions``: every field, every value.
SUPPORTED = {"players": (4,), "floor": (5, 6, 7, 8), "no_trump": (True, False), "target": (32, 52, 62)}


cdef int _fill_encoding(Config* cfg) except -1:
    """Config.rel_bit and phase_flags; Config.gather: where each count of rules_encode is among the state's
    bytes from hand_no on (its low byte: the hand number stops at hand_cap <= 200, so it is the clipped one
    ``features`` shows)."""
    cdef State probe
    cdef const uint8_t* base = <const uint8_t*>&probe.hand_no
    cdef const uint8_t* counts[7]
    cdef int seat, k, side, at = 9   # the counts' first lane: byte 329 of the row
    if &probe.shown[1] - base + 1 != GATHER_SOURCE:
        raise AssertionError("the State's count bytes moved: GATHER_SOURCE is stale")
    memset(cfg.rel_bit, 0, sizeof(cfg.rel_bit))
    for seat in range(4):
        for k in range(4):
            cfg.rel_bit[seat][k] = 1 << ((k - seat) & 3)
    for k in range(4):  # every flag, less the leader (bits 12–15) but in play, the bidder (16–19) in the bidding
        cfg.phase_flags[k] = ~((<uint64_t>0xF) << 12 if k != PLAY else 0) & ~((<uint64_t>0xF) << 16 if k == BIDDING
                                                                            else 0)
    memset(cfg.gather, 64, sizeof(cfg.gather))
    memset(cfg.gather_add, 0, sizeof(cfg.gather_add))
    for seat in range(4):
        side = seat & 1
        # bytes 333–339: the highest bid, then tricks, points and shown totals, this side first
        counts[0], counts[1], counts[2] = (<const uint8_t*>&probe.high, <const uint8_t*>&probe.tricks[side],
                                           <const uint8_t*>&probe.tricks[1 - side])
        counts[3], counts[4] = <const uint8_t*>&probe.points[side], <const uint8_t*>&probe.points[1 - side]
        counts[5], counts[6] = &probe.shown[side], &probe.shown[1 - side]
        for k in range(4):
            cfg.gather[seat][at + k] = <uint8_t>(&probe.bid_points[(seat + k) & 3] - base)
            cfg.gather[seat][at + 11 + k] = <uint8_t>(&probe.held[(seat + k) & 3] - base)
        for k in range(7):
            cfg.gather[seat][at + 4 + k] = <uint8_t>(counts[k] - base)
        cfg.gather[seat][at + 15] = 0     # byte 344: hand_no's low byte
    cfg.gather_add[at + 4] = 1            # the highest bid's rank + 1 (-1: none)
    cfg.gather_add[at + 7] = 16           # the points per side + 16
    cfg.gather_add[at + 8] = 16
    cfg.gather_add[at + 16] = cfg.floor   # bytes 345–347: the options, from a zero (64)
    cfg.gather_add[at + 17] = cfg.target
    cfg.gather_add[at + 18] = cfg.no_trump
    return 0


cdef Config rules_config(object options, dict flags) except *:
    """The Config of ``options`` with the core's flags: ``rewards`` ("game" or "round"); for tests only,
    ``hand_cap`` (the game's hand cap, as a monkeypatched ``HAND_CAP``) and ``defect`` (a planted rule defect:
    1 a no-trump contract is not doubled, 2 the 3♠ costs nothing)."""
    from cardtable.rl.rewards import check_mode

    cdef Config cfg
    rewards = flags.pop("rewards", "game")
    defect = flags.pop("defect", 0)
    hand_cap = flags.pop("hand_cap", HAND_CAP)
    if flags:
        raise ValueError(f"the kaiser core has no flag {', '.join(sorted(flags))}")
    memset(&cfg, 0, sizeof(Config))
    cfg.players = 4
    cfg.obs_size = OBS_SIZE
    cfg.reward_round = check_mode("kaiser", rewards) == "round"
    cfg.floor = options.floor
    cfg.no_trump = bool(options.no_trump)
    cfg.target = options.target
    cfg.bids = 0
    for k in range(12):  # bid k: 5 + k // 2 points, no trump if k is odd
        if 5 + k // 2 >= cfg.floor and (cfg.no_trump or not k & 1):
            cfg.bids |= 1 << k
    if not 1 <= hand_cap <= HAND_CAP:
        raise ValueError(f"hand_cap must be within 1–{HAND_CAP}, not {hand_cap}")
    cfg.hand_cap = hand_cap
    cfg.defect = defect
    _fill_encoding(&cfg)
    return cfg


def _trick(cards: list[int], leader: int) -> tuple[tuple[int, int], ...]:
    """A trick as the Python state holds it: (seat, card) in playing order from the leader."""
    return tuple((who, cards[who]) for who in ((leader + k) % 4 for k in range(4)) if cards[who] != NO_CARD)


_ALL_SEATS = (0, 1, 2, 3)


cdef object rules_dump(const Config* cfg, const State* s):
    over = s.phase == OVER
    return {
        "hands": tuple(s.hands[k] for k in range(4)),
        "rng": s.rng,
        "dealer": s.dealer,
        "hand_no": s.hand_no,
        "phase": s.phase,
        "turn": -1 if over else s.turn,
        "bids": tuple((seat, s.bid_points[seat], bool(s.no_trumps >> seat & 1))
                      for seat in ((s.dealer + k) % 4 for k in range(1, 5)) if s.called >> seat & 1),
        "high": s.high,
        "high_bidder": s.high_bidder,
        "trump": s.trump,
        "leader": -1 if s.leader == NO_CARD else s.leader,
        "trick": _trick([s.trick[k] for k in range(4)], s.leader) if s.trick_len else (),
        "last_trick": _trick([s.last_trick[k] for k in range(4)], s.last_leader) if s.last_leader != NO_CARD else (),
        "last_winner": s.last_winner,
        "tricks": (s.tricks[0], s.tricks[1]),
        "points": (s.points[0], s.points[1]),
        "totals": (s.totals[0], s.totals[1]),
        "winners": None if not over else _ALL_SEATS if s.winners == ALL_WIN else (s.winners, s.winners + 2),
        "held": tuple(s.held[k] for k in range(4)),
    }


include "_batch.pxi"
