# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Crazy Eights rules in C for the batched core: the second implementation of ``cardtable.games.crazy_eights``.

The Python engine is the reference; ``tests/vector`` plays both on the same seeds and requires the
same legal sets, states, encodings and outcomes. Every rule here names its place in
``games/crazy_eights/game.py``: the deal (``deal_round``), playing (``_play``), drawing with the stock
rebuilt from the discards (``_draw``), passing and the blocked round (``_pass``), the safety limit
(``_check_limit``) and the scoring (``_end_round``). Action ids and the observation bytes are those of
``games/crazy_eights/encoding.py``.
"""

from libc.stdint cimport int16_t, uint8_t, uint16_t, uint64_t
from libc.string cimport memset

from cardtable.vector._stream cimport (
    MAX_ITEMS, Bound, below_small, fill_bound, mix, shuffle, uniform,
)

cdef enum:
    NUM_ACTIONS = 70
    LEGAL_WORDS = 2
    MAX_PLAYERS = 6
    OBS_MAX = 166 + 4 * 6
    DECK = 52
    EIGHT_BASE = 52
    DRAW_ID = 68
    PASS_ID = 69
    NO_CARD = 255
    ROUND_ACTION_LIMIT = 2000   # game.ROUND_ACTION_LIMIT
    GATHER_SOURCE = 25          # the state's bytes from stock_len to the last halved total

cdef enum:
    END_NONE = 0
    END_OUT = 1
    END_BLOCKED = 2
    END_LIMIT = 3

#: The ends of a round as ``RoundScore.end`` names them (index: the state's ``last_end``).
END_NAMES = (None, "out", "blocked", "limit")
#: The built-in policies by index: uniform over the legal ids; ``HeuristicBot``'s choice, exactly.
POLICIES = ("random", "heuristic")


ctypedef struct Config:
    # gather[seat]: the observation's counts (cards held, stock, pile, drawn, passes, round, rounds, halved
    # totals) as bytes of the state from stock_len on (GATHER_SOURCE of them; 64: a zero), seats counted from
    # seat, lane j for byte 128 + j of the row; gather_add: what is added (1 to the pile, the rounds, which the
    # state does not hold)
    uint8_t gather[MAX_PLAYERS][64]
    uint8_t gather_add[64]
    uint8_t rel[MAX_PLAYERS][MAX_PLAYERS]  # rel[seat][other]: other counted from seat (0: seat itself)
    int players
    int cards_each
    int draw_until
    int rounds
    int obs_size
    int reward_round
    int round_limit
    int defect


ctypedef struct State:
    uint64_t hands[MAX_PLAYERS]
    uint64_t discards      # the pile under the top card, as a mask
    uint64_t rng           # the pinned stream's state (core.rng)
    uint64_t seed          # the seed this game was dealt from
    int16_t totals[MAX_PLAYERS]
    uint16_t round_actions
    uint8_t stock[DECK]    # stock[stock_len - 1] is drawn next (the Python tuple's last element)
    uint8_t stock_len
    uint8_t top
    uint8_t suit
    uint8_t turn
    uint8_t drawn
    uint8_t last_drawn     # NO_CARD for None
    uint8_t passes
    uint8_t round
    uint8_t dealer
    uint8_t over
    uint8_t last_end       # how the last round ended (END_*), for the score sheet
    uint8_t last_out       # who went out then (NO_CARD: nobody)
    uint8_t held[MAX_PLAYERS]  # cards in each hand (the hands' bit counts, kept for the encoding)
    uint8_t pile           # cards in the discards
    uint8_t half[MAX_PLAYERS]  # the totals as the encoding shows them (halved, 255 from 511 on)


# Tables, built once at import (rules.py).
cdef uint64_t MATCH[DECK * 4]     # game.MATCH: the cards playable on top (index top * 4 + suit in force)
cdef uint64_t EIGHTS = 0
cdef uint64_t PLAINS = 0
cdef uint8_t PENALTY[DECK]
cdef Bound FACTORIAL[MAX_ITEMS + 1]   # the bound of a draw below n! (a shuffle of n items)
cdef Bound SEATS[MAX_PLAYERS + 1]     # the bound of a draw below n (the first dealer)


cdef void _fill_tables():
    import math

    cdef int c, t, s
    cdef uint64_t suit_mask[4]
    cdef uint64_t rank_mask[13]
    memset(suit_mask, 0, sizeof(suit_mask))
    memset(rank_mask, 0, sizeof(rank_mask))
    for c in range(DECK):
        suit_mask[c // 13] |= (<uint64_t>1) << c
        rank_mask[c % 13] |= (<uint64_t>1) << c
    global EIGHTS, PLAINS
    EIGHTS = rank_mask[6]
    PLAINS = (((<uint64_t>1) << DECK) - 1) & ~EIGHTS
    for t in range(DECK):
        for s in range(4):
            MATCH[t * 4 + s] = suit_mask[s] | rank_mask[t % 13] | EIGHTS
    for c in range(DECK):
        r = c % 13
        PENALTY[c] = 50 if r == 6 else 1 if r == 12 else 10 if r >= 8 else r + 2
    for c in range(MAX_ITEMS + 1):
        fill_bound(&FACTORIAL[c], math.factorial(c))
    for c in range(1, MAX_PLAYERS + 1):
        fill_bound(&SEATS[c], c)


_fill_tables()


include "_bits.pxi"


cdef inline int next_seat(int seat, int players) noexcept nogil:
    seat += 1
    return 0 if seat == players else seat


# Dealing (game.deal_round, game.new).


cdef inline void deal(const Config* cfg, State* s) noexcept nogil:
    """Shuffle a full deck and deal the round: one card at a time from the dealer's left, then the starter."""
    cdef uint8_t order[DECK]
    cdef int k, n = cfg.players, dealt = cfg.players * cfg.cards_each
    cdef int leader = (s.dealer + 1) % n
    for k in range(DECK):
        order[k] = k
    shuffle(&s.rng, order, DECK, &FACTORIAL[DECK])
    for k in range(n):
        s.hands[k] = 0
    for k in range(dealt):
        s.hands[(leader + k % n) % n] |= (<uint64_t>1) << order[k]
    for k in range(n):
        s.held[k] = cfg.cards_each
    s.pile = 0
    s.top = order[dealt]
    s.suit = order[dealt] // 13  # a turned eight's own suit is in force
    s.stock_len = DECK - dealt - 1
    for k in range(s.stock_len):  # reversed(order[dealt + 1:]): order[dealt + 1] is drawn first
        s.stock[k] = order[DECK - 1 - k]
    s.discards = 0
    s.turn = leader
    s.drawn = 0
    s.passes = 0
    s.round_actions = 0
    s.last_drawn = NO_CARD


cdef inline void rules_reset(const Config* cfg, State* s, uint64_t seed) noexcept nogil:
    """``CrazyEightsGame.new(options, seed)``: the first dealer at random, then round 1."""
    cdef int k
    s.seed = seed
    s.rng = mix(seed)
    s.dealer = below_small(&s.rng, cfg.players, &SEATS[cfg.players])
    s.round = 1
    s.over = 0
    s.last_end = END_NONE
    s.last_out = NO_CARD
    for k in range(MAX_PLAYERS):
        s.totals[k] = 0
        s.half[k] = 0
    deal(cfg, s)


# Flow.


cdef inline int rules_num_actions(const Config* cfg) noexcept nogil:
    return NUM_ACTIONS  # the same 70 ids for every option set


cdef inline int rules_to_act(const State* s) noexcept nogil:
    return -1 if s.over else s.turn


cdef inline void rules_legal(const Config* cfg, const State* s, uint64_t* legal) noexcept nogil:
    """``legal_bits``: playable cards (an eight once per suit it may name); else Draw if allowed; else Pass."""
    cdef uint64_t playable, eights
    cdef int suit
    legal[0] = 0
    legal[1] = 0
    if s.over:
        return
    playable = s.hands[s.turn] & MATCH[s.top * 4 + s.suit]
    if playable:
        legal[0] = playable & PLAINS
        eights = playable & EIGHTS
        while eights:
            suit = lowest(eights) // 13
            if suit < 3:
                legal[0] |= (<uint64_t>0xF) << (EIGHT_BASE + 4 * suit)
            else:
                legal[1] |= 0xF
            eights &= eights - 1
    elif (s.stock_len or s.discards) and (cfg.draw_until or s.drawn == 0):
        legal[1] = (<uint64_t>1) << (DRAW_ID - 64)
    else:
        legal[1] = (<uint64_t>1) << (PASS_ID - 64)


cdef inline void end_round(const Config* cfg, State* s, int end, int went_out, float* rewards) noexcept nogil:
    """``_end_round``: score the hands held, then end the game or rotate the deal and deal the next round."""
    cdef int seat, penalty, low, winners
    cdef uint64_t hand
    for seat in range(cfg.players):
        hand = s.hands[seat]
        penalty = 0
        while hand:
            penalty += PENALTY[lowest(hand)]
            if cfg.defect == 1 and lowest(hand) % 13 == 12:  # planted defect (tests only): an ace scores 11
                penalty += 10
            hand &= hand - 1
        s.totals[seat] += penalty
        s.half[seat] = (s.totals[seat] >> 1) if s.totals[seat] < 511 else 255
        if cfg.reward_round:
            rewards[seat] -= penalty
    s.last_end = end
    s.last_out = went_out
    if s.round >= cfg.rounds:
        s.over = 1
        if not cfg.reward_round:  # rewards.final_rewards: +1 each winner, -1 the others, 0 if all win
            low = s.totals[0]
            for seat in range(cfg.players):
                if s.totals[seat] < low:
                    low = s.totals[seat]
            winners = 0
            for seat in range(cfg.players):
                winners += s.totals[seat] == low
            if winners < cfg.players:
                for seat in range(cfg.players):
                    rewards[seat] += 1.0 if s.totals[seat] == low else -1.0
        return
    s.round += 1
    s.dealer = (s.dealer + 1) % cfg.players
    deal(cfg, s)


cdef inline void play(const Config* cfg, State* s, int card, int suit, float* rewards) noexcept nogil:
    """``_play``: the card goes on the pile with ``suit`` in force; the last card ends the round."""
    cdef int seat = s.turn
    s.hands[seat] ^= (<uint64_t>1) << card
    s.held[seat] -= 1
    s.discards |= (<uint64_t>1) << s.top
    s.pile += 1
    s.top = card
    s.suit = suit
    s.drawn = 0
    s.passes = 0
    s.last_drawn = NO_CARD
    if s.hands[seat] == 0:
        end_round(cfg, s, END_OUT, seat, rewards)
    else:
        s.turn = next_seat(seat, cfg.players)


cdef inline void draw(const Config* cfg, State* s) noexcept nogil:
    """``_draw``: the stock's top card; an empty stock is first rebuilt from the discards, shuffled."""
    cdef uint64_t pile
    cdef int n, card
    if s.stock_len == 0:
        pile = s.discards
        n = 0
        while pile:  # cards_of(discards): ascending, then shuffled
            s.stock[n] = lowest(pile)
            n += 1
            pile &= pile - 1
        if cfg.defect != 2:  # planted defect 2 (tests only): the rebuilt stock is not shuffled
            shuffle(&s.rng, s.stock, n, &FACTORIAL[n])
        s.stock_len = n
        s.discards = 0
        s.pile = 0
    s.stock_len -= 1
    card = s.stock[s.stock_len]
    s.hands[s.turn] |= (<uint64_t>1) << card
    s.held[s.turn] += 1
    s.drawn += 1
    s.last_drawn = card
    s.passes = 0


cdef inline void pass_turn(const Config* cfg, State* s, float* rewards) noexcept nogil:
    """``_pass``: the n-th pass in a row blocks the round."""
    s.passes += 1
    s.drawn = 0
    s.last_drawn = NO_CARD
    if s.passes >= cfg.players:
        end_round(cfg, s, END_BLOCKED, NO_CARD, rewards)
    else:
        s.turn = next_seat(s.turn, cfg.players)


cdef inline void rules_step(const Config* cfg, State* s, int action, float* rewards) noexcept nogil:
    """Play a legal action id; a round ending deals the next one; ``_check_limit`` after every action."""
    cdef int round_before = s.round
    s.round_actions += 1
    if action < EIGHT_BASE:
        play(cfg, s, action, action // 13, rewards)
    elif action < DRAW_ID:
        play(cfg, s, 6 + 13 * ((action - EIGHT_BASE) // 4), (action - EIGHT_BASE) % 4, rewards)
    elif action == DRAW_ID:
        draw(cfg, s)
    else:
        pass_turn(cfg, s, rewards)
    if s.round == round_before and not s.over and s.round_actions >= cfg.round_limit:
        end_round(cfg, s, END_LIMIT, NO_CARD, rewards)


cdef inline void rules_forfeit(State* s) noexcept nogil:
    s.over = 1


# What a seat sees (encoding.CrazyEightsEncoding.features).


ctypedef struct Memo:
    # Unused: every call of rules_encode writes the whole row.
    uint8_t valid


cdef inline void rules_encode(const Config* cfg, const State* s, int seat, uint8_t* out, Memo* memo) noexcept nogil:
    """The ``166 + 4n`` bytes of ``features(state, seat)``: flags, then counts, then halved totals.

    The flags (the hand, top card, suit, card just drawn, seat to act and dealer) are 160 + 2n bits
    written as bytes 64 at a time; the counts are state bytes gathered in one permutation
    (``Config.gather``: the seats counted from ``seat``).
    """
    cdef int n = cfg.players
    cdef int top = 52 + s.top
    # Bytes 128 on, as bits of one word: the card just drawn (below), the seat to act (none once over) and
    # the dealer, counted from seat
    cdef uint64_t seats = ((<uint64_t>(s.over == 0)) << (32 + cfg.rel[seat][s.turn])
                           | (<uint64_t>1) << (32 + n + cfg.rel[seat][s.dealer]))
    # The card just drawn, shown to the seat to act after drawing it: at 108 + the card, else past byte 191
    # (nowhere; NO_CARD lands there too). Without branches, which would be mispredicted (whether the seat
    # drew is a coin toss under random play).
    cdef int drawn = 108 + s.last_drawn + ((((s.over == 0) & (seat == s.turn)) ^ 1) << 8)
    write_bits(out, s.hands[seat] | bit_at(top, 0), 64)
    write_bits(out + 64, bit_at(top, 64) | (<uint64_t>1) << (40 + s.suit) | bit_at(drawn, 64), 64)
    write_bits_gather(out + 128, bit_at(drawn, 128) | seats, 32 + 2 * n,
                      &s.stock_len, GATHER_SOURCE, cfg.gather[seat], cfg.gather_add, 6 + 2 * n)

# The built-in policies.


cdef inline int heuristic(const Config* cfg, const State* s) noexcept nogil:
    """``bots.HeuristicBot.act``: the costliest plain card; eights kept for the endgame; names its longest suit."""
    cdef int seat = s.turn, other, c, best, suit, k
    cdef uint64_t hand = s.hands[seat], playable, plain, eights, rest
    cdef int held[4]
    cdef int points[4]
    cdef bint endgame = False
    playable = hand & MATCH[s.top * 4 + s.suit]
    if not playable:
        return DRAW_ID if (s.stock_len or s.discards) and (cfg.draw_until or s.drawn == 0) else PASS_ID
    plain = playable & PLAINS
    eights = playable & EIGHTS
    for other in range(cfg.players):  # is_endgame: some opponent holds ENDGAME_CARDS (1) or fewer
        if other != seat and popcount(s.hands[other]) <= 1:
            endgame = True
    for k in range(4):
        held[k] = 0
        points[k] = 0
    rest = hand & PLAINS
    while rest:
        c = lowest(rest)
        held[c // 13] += 1
        points[c // 13] += PENALTY[c]
        rest &= rest - 1
    if plain and not (eights and endgame):  # _best_plain: max (penalty, held in its suit, -card)
        best = -1
        while plain:
            c = lowest(plain)
            if best < 0 or PENALTY[c] > PENALTY[best] or (
                    PENALTY[c] == PENALTY[best] and held[c // 13] > held[best // 13]):
                best = c
            plain &= plain - 1
        return best
    c = lowest(eights)  # best_suit: max (count, points, -suit)
    suit = 0
    for k in range(1, 4):
        if held[k] > held[suit] or (held[k] == held[suit] and points[k] > points[suit]):
            suit = k
    return EIGHT_BASE + 4 * (c // 13) + suit


cdef inline int rules_policy(const Config* cfg, const State* s, int policy, const uint64_t* legal,
                             uint64_t* prng) noexcept nogil:
    if policy == 1:
        return heuristic(cfg, s)
    return nth_bit2(legal, uniform(prng, popcount(legal[0]) + popcount(legal[1])))


# Python level.

#: What the core supports of ``CrazyEightsOptions``: every field, every value.
SUPPORTED = {"players": (2, 3, 4, 5, 6), "hand_size": ("auto", 5, 7, 9), "draw_until_playable": (True, False),
             "rounds": (1, 3, 5)}


cdef int _fill_gather(Config* cfg) except -1:
    """Config.rel (each seat counted from each seat) and Config.gather: where each count of rules_encode is
    among the state's bytes from stock_len on."""
    cdef State probe
    cdef const uint8_t* base = &probe.stock_len
    cdef const uint8_t* fields[5]
    cdef int n = cfg.players, seat, k, at
    if &probe.half[MAX_PLAYERS - 1] - base + 1 != GATHER_SOURCE:
        raise AssertionError("the State's count bytes moved: GATHER_SOURCE is stale")
    memset(cfg.gather, 64, sizeof(cfg.gather))
    memset(cfg.gather_add, 0, sizeof(cfg.gather_add))
    fields[0], fields[1], fields[2], fields[3], fields[4] = (&probe.stock_len, &probe.pile, &probe.drawn,
                                                              &probe.passes, &probe.round)
    at = 32 + 2 * n  # the counts' first lane: byte 160 + 2n of the row
    for seat in range(MAX_PLAYERS):
        for k in range(MAX_PLAYERS):
            cfg.rel[seat][k] = (k - seat + n) % n if seat < n and k < n else 0
        for k in range(n):
            cfg.gather[seat][at + k] = <uint8_t>(&probe.held[(seat + k) % n] - base)
            cfg.gather[seat][at + n + 6 + k] = <uint8_t>(&probe.half[(seat + k) % n] - base)
        for k in range(5):
            cfg.gather[seat][at + n + k] = <uint8_t>(fields[k] - base)
    cfg.gather_add[at + n + 1] = 1            # the pile and the top card
    cfg.gather_add[at + n + 5] = cfg.rounds   # from a zero (64)
    return 0


cdef Config rules_config(object options, dict flags) except *:
    """The Config of ``options`` with the core's flags: ``rewards`` ("game" or "round"); for tests only,
    ``round_limit`` (the safety limit, as a monkeypatched ``game.ROUND_ACTION_LIMIT``) and ``defect`` (a
    planted rule defect: 1 an ace scores 11, 2 the stock rebuilt from the discards is not shuffled)."""
    cdef Config cfg
    rewards = flags.pop("rewards", "game")
    round_limit = flags.pop("round_limit", ROUND_ACTION_LIMIT)
    defect = flags.pop("defect", 0)
    if flags:
        raise ValueError(f"the crazy_eights core has no flag {', '.join(sorted(flags))}")
    cfg.players = options.players
    cfg.cards_each = options.cards_each
    cfg.draw_until = bool(options.draw_until_playable)
    cfg.rounds = options.rounds
    cfg.obs_size = 166 + 4 * cfg.players
    _fill_gather(&cfg)
    if rewards not in ("game", "round"):
        raise ValueError(f"rewards must be 'game' or 'round', not {rewards!r}")
    cfg.reward_round = rewards == "round"
    if not 1 <= round_limit <= ROUND_ACTION_LIMIT:
        raise ValueError(f"round_limit must be within 1–{ROUND_ACTION_LIMIT}, not {round_limit}")
    cfg.round_limit = round_limit
    cfg.defect = defect
    if not 2 <= cfg.players <= MAX_PLAYERS or cfg.players * cfg.cards_each + 1 > DECK:
        raise ValueError(f"the core cannot deal {cfg.cards_each} cards to {cfg.players} players")
    return cfg


cdef object rules_dump(const Config* cfg, const State* s):
    n = cfg.players
    return {
        "hands": tuple(s.hands[k] for k in range(n)),
        "stock": tuple(s.stock[k] for k in range(s.stock_len)),
        "discards": s.discards,
        "top": s.top,
        "suit": s.suit,
        "turn": s.turn,
        "drawn": s.drawn,
        "last_drawn": None if s.last_drawn == NO_CARD else s.last_drawn,
        "passes": s.passes,
        "round": s.round,
        "dealer": s.dealer,
        "round_actions": s.round_actions,
        "totals": tuple(s.totals[k] for k in range(n)),
        "rng": s.rng,
        "over": bool(s.over),
        "seed": s.seed,
        "last_end": END_NAMES[s.last_end],
        "last_out": None if s.last_out == NO_CARD else s.last_out,
        "held": tuple(s.held[k] for k in range(n)),
        "pile": s.pile,
    }


include "_batch.pxi"
