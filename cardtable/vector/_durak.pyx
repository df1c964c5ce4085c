# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Durak rules in C for the batched core: the second implementation of ``cardtable.games.durak``.

The Python engine is the reference; ``tests/vector`` plays both on the same seeds and requires the
same legal sets, states, encodings and outcomes. Every rule here names its place in the Python
engine: the shuffle (``rules.shuffle``: ``random_to_top`` and the 2020 program's ``reference``
formula), the deal and the trump (``rules.deal``, ``rules.turn_trump``), the first attacker
(``game._lowest_trump_holder``), playing a card (``game.apply_unchecked``), the end of a bout with
the hand-over, the refill, leaving, the bout limit and the next bout (``game._end_bout``,
``_after_leaving``, ``_next_bout``). Action ids and observation bytes are ``games/durak/encoding.py``'s.

Hands are card-id masks (bit ``suit * 9 + rank``), as the encoding writes them; the hand order of
the players (non-trumps by rank, ties ♠ ♣ ♦ ♥, then trumps, ``rules.SORT_KEY``) comes from a
position mask built when a player needs it.
"""

from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.string cimport memset

from cardtable.vector._stream cimport mix, next_word, uniform

cdef enum:
    NUM_ACTIONS = 74
    LEGAL_WORDS = 2
    MAX_PLAYERS = 5
    OBS_MAX = 189 + 5 * 5
    DECK = 36
    HAND = 6
    MAX_STOCK = 36 - 2 * HAND
    BEAT_BASE = 36
    STOP_ID = 72
    TAKE_ID = 73
    NO_CARD = 255
    GATHER_SOURCE = 3 + MAX_PLAYERS  # the state's bytes from deck to the last of held
    SHUFFLE_MOVES = 1000      # rules.SHUFFLE_ITERATIONS
    DIGITS_PER_WORD = 11      # rng.digits_per_word(36)

#: The built-in policies by index: uniform over the legal ids; the game's ``heuristic`` player, the 2020
#: program's ``scripted`` player and the ``lowest`` baseline, each exactly (``games/durak/players``).
POLICIES = ("random", "heuristic", "scripted", "lowest")
#: The largest bout limit the core plays (its bout counter is 32 bits); larger ones are refused by name.
MAX_BOUT_LIMIT = 2 ** 31 - 1


ctypedef struct Config:
    uint8_t refill[MAX_PLAYERS][MAX_PLAYERS][MAX_PLAYERS]  # state.REFILL_ORDER[players][attacker][defender]
    int players
    int obs_size
    int reward_round
    int capped                # attack_cap == "defender_hand"
    int blocks                # deal == "blocks"
    int reference             # shuffle == "reference"
    int lowest_trump          # first_attacker == "lowest_trump"
    uint32_t bout_limit
    int defect
    # rules_encode's tables (after the rules' fields: placed first, they measured about 3% slower in the plain
    # loop). tail[seat][attacker][defender][odd bout + 2 * over]: the roles (attacker, defender, seat to act,
    # each counted from seat) or the game-over flag, and the attack cap, as bits (bit j: byte 184 + j);
    # playing[seat][gone]: who is still in the game, seats counted from seat (bit k: byte 184 + k), by the
    # State's gone mask; gather[seat]: the counts (the cards held per seat counted from seat) as bytes of
    # the state from deck on (GATHER_SOURCE of them; 64: a zero), lane j for the row's byte 170 + 4n + j
    # (the last write's first byte)
    uint32_t tail[MAX_PLAYERS][MAX_PLAYERS][MAX_PLAYERS][4]
    uint8_t playing[MAX_PLAYERS][1 << MAX_PLAYERS]
    uint8_t gather[MAX_PLAYERS][64]


ctypedef struct State:
    uint64_t hands[MAX_PLAYERS]   # card-id masks
    uint64_t attacks              # the bout's attack cards (bout[0::2]) …
    uint64_t beats                # … and beating cards (bout[1::2]), as card-id masks
    uint64_t known                # cards taken in view of all (DurakState.known, as card ids)
    uint32_t bout_number
    uint32_t left[MAX_PLAYERS]    # the bout after which the seat left the game (0: still playing)
    uint8_t stock[MAX_STOCK]      # setup.stock: top first, the trump card last
    uint8_t stock_len
    uint8_t drawn
    uint8_t bout_len
    uint8_t to_beat               # the last attack card (bout[-1] while the bout's length is odd)
    uint8_t attacker
    uint8_t defender
    uint8_t over
    uint8_t fool                  # NO_CARD: none
    uint8_t trump
    uint8_t trump_card
    uint8_t gone                  # bit p: seat p has left (left[p] != 0), kept for the encoding
    # The observation's counts side by side (the encoding gathers them): the cards in the deck (stock_len -
    # drawn) and the bout number as the encoding shows it (255 from 255 on), both kept for the encoding; the
    # discards; the cards in each hand (the hands' bit counts, kept for the encoding)
    uint8_t deck
    uint8_t bout_shown
    uint8_t discards
    uint8_t held[MAX_PLAYERS]


# Tables, built once at import (rules.py, masks.py).
cdef uint64_t BEATERS[4][DECK]          # rules.BEATERS[trump][attack], card-id masks
cdef uint64_t SUIT_MASK[4]
cdef uint32_t SPREAD3[512]              # rank bits r -> bits 3r: a non-trump suit's ranks as hand positions
cdef uint8_t TIE_AT[4][4]               # TIE_AT[trump][suit]: the suit's place among the non-trumps of a rank
cdef uint8_t ORDER[4][DECK]             # ORDER[trump][position]: the card at that place of a sorted deck
cdef uint8_t REFERENCE[DECK][DECK]      # rules._reference_deck(residue), top first
cdef uint64_t LIMIT_36                  # rng draws: words at or above are skipped (36**11 digits a word)
cdef uint8_t ZEROS[64]                  # the gather adds nothing (write_bits_gather's addend)
cdef uint64_t RANK_SPREAD = (<uint64_t>1) | (<uint64_t>1) << 9 | (<uint64_t>1) << 18 | (<uint64_t>1) << 27


def _fill_tables() -> None:
    tie = (0, 3, 1, 2)  # rules._TIE_ORDER: equal non-trump ranks sort ♠ ♣ ♦ ♥
    cdef int t, a, c, s, o, r, p, i, residue
    for t in range(4):
        SUIT_MASK[t] = (<uint64_t>511) << (9 * t)
        for a in range(DECK):
            BEATERS[t][a] = 0
            for c in range(DECK):
                if (c // 9 == a // 9 and c % 9 > a % 9) or (c // 9 != a // 9 and c // 9 == t):
                    BEATERS[t][a] |= (<uint64_t>1) << c
        for s in range(4):
            TIE_AT[t][s] = 0
            for o in range(4):
                if o != t and tie[o] < tie[s]:
                    TIE_AT[t][s] += 1
        keyed = sorted(((100 if c // 9 == t else 0) + (c % 9) * 4 + tie[c // 9], c) for c in range(DECK))
        for p in range(DECK):
            ORDER[t][p] = keyed[p][1]
    for r in range(512):
        SPREAD3[r] = 0
        for p in range(9):
            if r >> p & 1:
                SPREAD3[r] |= (<uint32_t>1) << (3 * p)
    for residue in range(DECK):  # rules._moved_to_top: 1000 moves of the card at (number + 2 i) mod 36 to the top
        deck = list(range(DECK))
        for i in range(SHUFFLE_MOVES):
            deck.insert(0, deck.pop((residue + 2 * i) % DECK))
        for p in range(DECK):
            REFERENCE[residue][p] = deck[p]
    global LIMIT_36
    LIMIT_36 = <uint64_t>((1 << 64) - (1 << 64) % DECK ** DIGITS_PER_WORD)


_fill_tables()


include "_bits.pxi"


cdef inline uint64_t of_ranks(uint64_t cards) noexcept nogil:
    """Every card of a rank among ``cards`` (``masks.RANK_CARDS`` of the bout, as card ids)."""
    cdef uint64_t ranks = (cards | cards >> 9 | cards >> 18 | cards >> 27) & 511
    return ranks * RANK_SPREAD


# Dealing (rules.shuffle, rules.deal, rules.turn_trump, DurakGame.new).


cdef inline void random_deck(uint64_t seed, uint8_t* deck) noexcept nogil:
    """``rules.random_to_top``: 1000 moves of a drawn card to the top, drawn from the last move back.

    Each word below LIMIT_36 gives 11 moves, its base-36 digits lowest first (``rng.draws``); a card's
    first sighting is its last move, so the cards come out in that order, most recent on top, and the
    drawing stops once every card is seen; unseen cards follow in their initial order.
    """
    cdef uint64_t rng = mix(seed), z, seen = 0
    cdef int left = SHUFFLE_MOVES, count = 0, take, k, card
    while left and count < DECK:
        z = next_word(&rng)
        if z >= LIMIT_36:
            continue
        take = DIGITS_PER_WORD if DIGITS_PER_WORD < left else left
        left -= take
        for k in range(take):
            card = <int>(z % DECK)
            z //= DECK
            if not (seen >> card) & 1:
                seen |= (<uint64_t>1) << card
                deck[count] = card
                count += 1
    for card in range(DECK):
        if not (seen >> card) & 1:
            deck[count] = card
            count += 1


cdef inline void rules_reset(const Config* cfg, State* s, uint64_t seed) noexcept nogil:
    """``DurakGame.new(options, seed)``: shuffle by the deck's number, deal six each, turn the trump."""
    cdef uint8_t deck[DECK]
    cdef int n = cfg.players, k, p, dealt = HAND * cfg.players
    cdef uint64_t trumps, best = 0
    if cfg.reference:
        for k in range(DECK):
            deck[k] = REFERENCE[seed % DECK][k]
    else:
        random_deck(seed, deck)
    for p in range(MAX_PLAYERS):
        s.hands[p] = 0
        s.left[p] = 0
        s.held[p] = HAND if p < n else 0
    for k in range(dealt):  # blocks: six in a row per player; round: one at a time round the table
        p = k // HAND if cfg.blocks else k % n
        s.hands[p] |= (<uint64_t>1) << deck[k]
    s.trump_card = deck[dealt]
    s.trump = deck[dealt] // 9
    s.stock_len = DECK - dealt
    for k in range(s.stock_len - 1):  # turn_trump: the top card, turned, goes to the bottom
        s.stock[k] = deck[dealt + 1 + k]
    s.stock[s.stock_len - 1] = deck[dealt]
    s.drawn = 0
    s.deck = s.stock_len
    s.attacks = s.beats = s.known = 0
    s.bout_len = 0
    s.to_beat = NO_CARD
    s.bout_number = 1
    s.bout_shown = 1
    s.discards = 0
    s.gone = 0
    s.over = 0
    s.fool = NO_CARD
    s.attacker = 0
    if cfg.lowest_trump:  # _lowest_trump_holder; nobody holds a trump: the first player
        for p in range(n):
            trumps = (s.hands[p] >> (9 * s.trump)) & 511
            if trumps and (best == 0 or (trumps & (~trumps + 1)) < best):
                best = trumps & (~trumps + 1)
                s.attacker = p
    s.defender = (s.attacker + 1) % n


# Flow.


cdef inline int rules_num_actions(const Config* cfg) noexcept nogil:
    return NUM_ACTIONS  # the same 74 ids for every option set


cdef inline int rules_to_act(const State* s) noexcept nogil:
    if s.over:
        return -1
    return s.defender if s.bout_len & 1 else s.attacker


cdef inline void rules_legal(const Config* cfg, const State* s, uint64_t* legal) noexcept nogil:
    """``legal_bits``: the defender beats or takes; the attacker leads any card, then one of the bout's ranks or stops."""
    cdef uint64_t cards
    legal[0] = 0
    legal[1] = 0
    if s.over:
        return
    if s.bout_len & 1:
        cards = s.hands[s.defender] & BEATERS[s.trump][s.to_beat]
        legal[0] = cards << BEAT_BASE
        legal[1] = cards >> (64 - BEAT_BASE) | (<uint64_t>1) << (TAKE_ID - 64)
    elif s.bout_len == 0:
        legal[0] = s.hands[s.attacker]
    elif cfg.capped and s.hands[s.defender] == 0:
        legal[1] = (<uint64_t>1) << (STOP_ID - 64)
    else:
        legal[0] = s.hands[s.attacker] & of_ranks(s.attacks | s.beats)
        legal[1] = (<uint64_t>1) << (STOP_ID - 64)


cdef inline int next_in_game(const Config* cfg, const State* s, int seat) noexcept nogil:
    """``game._next_seat``: the next seat after ``seat``, cyclically, still in the game (``seat`` if none)."""
    cdef int k, other
    for k in range(1, cfg.players + 1):
        other = (seat + k) % cfg.players
        if not s.left[other]:
            return other
    return seat


cdef inline void finish(const Config* cfg, State* s, int fool, float* rewards) noexcept nogil:
    """``_finish`` and ``rewards.final_rewards``: +1 each first leaver, -1 the others, 0 if all left together."""
    cdef int p, winners = 0
    cdef uint32_t first = 0
    s.over = 1
    s.fool = fool
    for p in range(cfg.players):  # first_leavers: the earliest nonzero ``left``
        if s.left[p] and (first == 0 or s.left[p] < first):
            first = s.left[p]
    if cfg.defect == 3:  # planted defect 3 (tests only): the last to leave wins
        for p in range(cfg.players):
            if s.left[p] > first:
                first = s.left[p]
    for p in range(cfg.players):
        winners += first != 0 and s.left[p] == first
    if winners < cfg.players:
        for p in range(cfg.players):
            rewards[p] += 1.0 if first != 0 and s.left[p] == first else -1.0


cdef inline void next_bout(const Config* cfg, State* s, bint taken) noexcept nogil:
    """``_next_bout``: the taker misses his turn; a successful defender attacks (if still playing)."""
    cdef int attacker
    if (taken and cfg.defect != 2) or s.left[s.defender]:  # planted defect 2 (tests only): the taker attacks
        attacker = next_in_game(cfg, s, s.defender)
    else:
        attacker = s.defender
    s.attacker = attacker
    s.defender = (attacker + 1) % cfg.players
    if s.left[s.defender]:
        s.defender = next_in_game(cfg, s, attacker)
    s.bout_number += 1
    s.bout_shown = s.bout_number if s.bout_number < 255 else 255


cdef inline void end_bout(const Config* cfg, State* s, bint taken, float* rewards) noexcept nogil:
    """``_end_bout``: take (with the hand-over) or beat off, refill, who leaves, the end or the next bout."""
    cdef int a = s.attacker, d = s.defender, k, other, need, upto, j, p, playing, last_playing
    cdef uint64_t cards = s.attacks | s.beats, handed, keep
    cdef bint someone = False
    if taken:  # the attacker hands over his non-trumps of the bout's ranks; the defender takes it all
        keep = SUIT_MASK[s.trump] if cfg.defect != 1 else 0  # planted defect 1 (tests only): trumps handed over
        handed = s.hands[a] & of_ranks(cards) & ~keep
        s.hands[a] ^= handed
        cards |= handed
        s.hands[d] |= cards
        s.known |= cards
        s.held[a] = popcount(s.hands[a])
        s.held[d] = popcount(s.hands[d])
    else:
        s.discards += s.bout_len
    s.attacks = s.beats = 0
    s.bout_len = 0
    s.to_beat = NO_CARD
    if s.drawn < s.stock_len:  # refill up to six from the top: attacker, defender, then the others after him
        for k in range(cfg.players):
            other = cfg.refill[a][d][k]
            need = HAND - s.held[other]
            if need <= 0 or s.left[other]:
                continue
            upto = s.drawn + need
            if upto > s.stock_len:
                upto = s.stock_len
            for j in range(s.drawn, upto):
                s.hands[other] |= (<uint64_t>1) << s.stock[j]
                if s.stock[j] == s.trump_card:  # the turned-up trump, drawn last, is seen by all
                    s.known |= (<uint64_t>1) << s.trump_card
            s.held[other] += upto - s.drawn
            s.drawn = upto
            s.deck = s.stock_len - upto
            if s.drawn == s.stock_len:
                break
    if s.drawn == s.stock_len:  # leaving: only once the deck is empty, after the refill
        for p in range(cfg.players):
            if not s.left[p] and s.hands[p] == 0:
                s.left[p] = s.bout_number
                s.gone |= 1 << p
                someone = True
        if someone:
            playing = 0
            last_playing = NO_CARD
            for p in range(cfg.players):
                if not s.left[p]:
                    playing += 1
                    last_playing = p
            if playing <= 1:
                finish(cfg, s, last_playing, rewards)
                return
    if s.bout_number >= cfg.bout_limit:  # the safety stop: a draw
        finish(cfg, s, NO_CARD, rewards)
        return
    next_bout(cfg, s, taken)


cdef inline void rules_step(const Config* cfg, State* s, int action, float* rewards) noexcept nogil:
    """Play a legal action id (``apply_unchecked``): a card to the bout, or the bout's end."""
    cdef uint64_t bit
    if action < BEAT_BASE:
        bit = (<uint64_t>1) << action
        s.hands[s.attacker] ^= bit
        s.held[s.attacker] -= 1
        s.attacks |= bit
        s.to_beat = action
        s.bout_len += 1
    elif action < STOP_ID:
        bit = (<uint64_t>1) << (action - BEAT_BASE)
        s.hands[s.defender] ^= bit
        s.held[s.defender] -= 1
        s.beats |= bit
        s.bout_len += 1
    else:
        end_bout(cfg, s, action == TAKE_ID, rewards)


cdef inline void rules_forfeit(State* s) noexcept nogil:
    s.over = 1


# What a seat sees (encoding.DurakEncoding.features).


ctypedef struct Memo:
    # Unused: every call of rules_encode writes the whole row.
    uint8_t valid


cdef inline void rules_encode(const Config* cfg, const State* s, int seat, uint8_t* out, Memo* memo) noexcept nogil:
    """The ``189 + 5n`` bytes of ``features(state, seat)`` (``games/durak/encoding.py``): flags, then counts.

    The flags (the hand, the bout's cards, the card to beat, the trump card and suit, who is still in the
    game, the roles or the game's end, the attack cap) are 186 + 4n bits written as bytes 64 at a time; the
    last write starts 16 flags before the counts (rewriting some bytes of the third), as many for every
    number of players (so the portable build's byte writer has no variable tail), and the counts follow
    them, gathered from the state's bytes in one permutation (``Config.gather``: the seats counted from
    ``seat``). The whole row every call, no memo, and no branches on the state: whether a card waits to
    be beaten, and so who acts, changes at every decision.
    """
    cdef int n = cfg.players, counts = 186 + 4 * n
    # The card to beat (byte 108 + to_beat while the bout is odd) as bit to_beat: shifted up by 44 in the
    # second 64 bytes (to_beat below 20), down by 20 in the third; to_beat is NO_CARD only in an empty bout
    cdef uint64_t odd = s.bout_len & 1
    cdef uint64_t beat = odd << (s.to_beat & 63)
    # Bytes 184 … 185 + 4n as bits, from two table loads instead of the roles' arithmetic and a loop over seats
    cdef uint64_t tail = cfg.tail[seat][s.attacker][s.defender][odd + 2 * s.over] | cfg.playing[seat][s.gone]
    cdef uint64_t third = (beat >> 20 | (<uint64_t>1) << (16 + s.trump_card) | (<uint64_t>1) << (52 + s.trump)
                           | tail << 56)
    write_bits(out, s.hands[seat] | s.attacks << 36, 64)
    write_bits(out + 64, s.attacks >> 28 | s.beats << 8 | beat << 44, 64)
    write_bits(out + 128, third, 64)
    # the last write's 16 flags (bytes 170 + 4n on): the third's up to byte 191, the tail's from 192
    write_bits_gather(out + counts - 16, third >> (42 + 4 * n) | (tail >> 8) << (22 - 4 * n), 16,
                      &s.deck, GATHER_SOURCE, cfg.gather[seat], ZEROS, 3 + n)


# The built-in policies (games/durak/players: scripted.py, baselines.py).


cdef inline int first_in_hand(uint64_t cards, int trump) noexcept nogil:
    """The first of ``cards`` in hand order (``rules.SORT_KEY``): their position mask's lowest bit."""
    cdef uint64_t positions = ((cards >> (9 * trump)) & 511) << 27
    cdef int s
    for s in range(4):
        if s != trump:
            positions |= (<uint64_t>SPREAD3[(cards >> (9 * s)) & 511]) << TIE_AT[trump][s]
    return ORDER[trump][lowest(positions)]


cdef inline int player(const Config* cfg, const State* s, int policy) noexcept nogil:
    """``ScriptedBot`` (policy 2), ``HeuristicBot`` (1) and ``LowestBot`` (3): the first suitable card in hand order.

    Defend: the first card that beats, else take. Lead: the first card. Continue: the first card of
    a bout rank (scripted and heuristic skip the highest trump while holding more than one card), else
    stop; the heuristic also stops rather than continue with a trump while the deck has cards.
    """
    cdef uint64_t hand, cards, trumps
    cdef int card
    if s.bout_len & 1:
        cards = s.hands[s.defender] & BEATERS[s.trump][s.to_beat]
        return BEAT_BASE + first_in_hand(cards, s.trump) if cards else TAKE_ID
    hand = s.hands[s.attacker]
    if s.bout_len == 0:
        return first_in_hand(hand, s.trump)
    if cfg.capped and s.hands[s.defender] == 0:
        return STOP_ID
    cards = hand & of_ranks(s.attacks | s.beats)
    trumps = (hand >> (9 * s.trump)) & 511
    if policy != 3 and trumps and s.held[s.attacker] > 1:  # _kept_trump: the highest trump stays in hand
        cards &= ~((<uint64_t>1) << (9 * s.trump + 63 - __builtin_clzll(trumps)))
    if not cards:
        return STOP_ID
    card = first_in_hand(cards, s.trump)
    if policy == 1 and card // 9 == s.trump and s.drawn < s.stock_len:  # keep trumps while the deck has cards
        return STOP_ID
    return card


cdef inline int rules_policy(const Config* cfg, const State* s, int policy, const uint64_t* legal,
                             uint64_t* prng) noexcept nogil:
    if policy:
        return player(cfg, s, policy)
    return nth_bit2(legal, uniform(prng, popcount(legal[0]) + popcount(legal[1])))


# Python level.

#: What the core supports of ``DurakOptions``: every field, every value (the bout limit up to 2**31 - 1).
SUPPORTED = {"players": (2, 3, 4, 5), "shuffle": ("random", "reference"), "deal": ("round", "blocks"),
             "first_attacker": ("lowest_trump", "first_player"), "attack_cap": ("none", "defender_hand"),
             "player_limit": (4, 5), "bout_limit": range(1, MAX_BOUT_LIMIT + 1)}


cdef int _fill_encoding(Config* cfg) except -1:
    """Config.tail, .playing and .gather (see Config): rules_encode's tables for these options."""
    cdef State probe
    cdef const uint8_t* base = &probe.deck
    cdef int n = cfg.players, seat, a, d, phase, gone, k, acts
    cdef uint32_t roles
    if &probe.held[MAX_PLAYERS - 1] - base + 1 != GATHER_SOURCE:
        raise AssertionError("the State's count bytes moved: GATHER_SOURCE is stale")
    memset(cfg.tail, 0, sizeof(cfg.tail))
    memset(cfg.playing, 0, sizeof(cfg.playing))
    memset(cfg.gather, 64, sizeof(cfg.gather))
    for seat in range(n):
        for a in range(n):
            for d in range(n):
                for phase in range(4):
                    acts = d if phase & 1 else a  # the defender while a card waits to be beaten
                    if phase & 2:  # the game is over: its flag instead of the roles
                        roles = (<uint32_t>1) << (4 * n)
                    else:  # (cdivision: the differences made positive before the modulo)
                        roles = ((<uint32_t>1) << (n + (a - seat + n) % n)
                                 | (<uint32_t>1) << (2 * n + (d - seat + n) % n)
                                 | (<uint32_t>1) << (3 * n + (acts - seat + n) % n))
                    cfg.tail[seat][a][d][phase] = roles | (<uint32_t>cfg.capped) << (4 * n + 1)
        for gone in range(1 << n):
            for k in range(n):
                if not gone >> ((seat + k) % n) & 1:
                    cfg.playing[seat][gone] |= 1 << k
        cfg.gather[seat][16] = <uint8_t>(&probe.deck - base)
        cfg.gather[seat][17] = <uint8_t>(&probe.bout_shown - base)
        cfg.gather[seat][18] = <uint8_t>(&probe.discards - base)
        for k in range(n):
            cfg.gather[seat][19 + k] = <uint8_t>(&probe.held[(seat + k) % n] - base)
    return 0


cdef Config rules_config(object options, dict flags) except *:
    """The Config of ``options`` with the core's flags: ``rewards`` (only "game": Durak scores no rounds);
    for tests only, ``defect`` (a planted rule defect: 1 the hand-over includes trumps, 2 the taker does not
    miss his turn, 3 the last to leave wins)."""
    from cardtable.rl.rewards import check_mode

    cdef Config cfg
    rewards = flags.pop("rewards", "game")
    defect = flags.pop("defect", 0)
    if flags:
        raise ValueError(f"the durak core has no flag {', '.join(sorted(flags))}")
    check_mode("durak", rewards)
    memset(&cfg, 0, sizeof(Config))
    cfg.players = options.players
    if not 2 <= cfg.players <= MAX_PLAYERS:
        raise ValueError(f"the core cannot deal to {cfg.players} players")
    if not 1 <= options.bout_limit <= MAX_BOUT_LIMIT:
        raise ValueError(f"the core plays bout limits 1–{MAX_BOUT_LIMIT}, not {options.bout_limit}")
    for a in range(cfg.players):  # state.refill_order: the attacker, the defender, then the others after him
        for d in range(cfg.players):
            order = [a, d] + [(d + k) % cfg.players for k in range(1, cfg.players) if (d + k) % cfg.players != a]
            for k in range(cfg.players):
                cfg.refill[a][d][k] = order[k]
    cfg.obs_size = 189 + 5 * cfg.players
    cfg.reward_round = 0
    cfg.capped = options.attack_cap == "defender_hand"
    cfg.blocks = options.deal == "blocks"
    cfg.reference = options.shuffle == "reference"
    cfg.lowest_trump = options.first_attacker == "lowest_trump"
    cfg.bout_limit = options.bout_limit
    cfg.defect = defect
    _fill_encoding(&cfg)
    return cfg


cdef object rules_dump(const Config* cfg, const State* s):
    n = cfg.players
    return {
        "hands": tuple(s.hands[k] for k in range(n)),
        "stock": tuple(s.stock[k] for k in range(s.stock_len)),
        "drawn": s.drawn,
        "trump_card": s.trump_card,
        "attacks": s.attacks,
        "beats": s.beats,
        "bout_len": s.bout_len,
        "to_beat": s.to_beat if s.bout_len & 1 else None,
        "attacker": s.attacker,
        "defender": s.defender,
        "bout_number": s.bout_number,
        "discards": s.discards,
        "left": tuple(s.left[k] for k in range(n)),
        "over": bool(s.over),
        "fool": None if s.fool == NO_CARD else s.fool,
        "known": s.known,
        "held": tuple(s.held[k] for k in range(n)),
    }


include "_batch.pxi"
