# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Mus (FEM) rules in C for the batched core: the second implementation of ``cardtable.games.mus``.

The Python engine is the reference; ``tests/vector`` plays both on the same seeds and requires the
same legal sets, states, encodings and outcomes, for every option. The sections below follow the
Python engine and name their place in it:

1. Hand values (``mus/rules.py``: ``evaluate``, ``best_seat``, ``percentile``; ``mus/signals.py``:
   ``signal_fits``, ``signal_phase_ok``), computed here independently into tables at import.
2. The state (``mus/state.py``: ``MusState``, ``Betting``, ``LanceResult``).
3. Dealing (``MusGame.new``, ``dealing.deal``).
4. Legal actions (``MusGame.legal_actions`` and its helpers; ids as ``mus/encoding.py``'s ``legal_bits``).
5. Mus and discards (``_on_mus``, ``_on_discard``, ``dealing.replace_cards``).
6. Señas (``signals.on_signal``).
7. Lances and envites (``_start_lance``, ``_on_lance``, ``_on_pass``, ``_on_envite``, ``_on_reject``,
   ``_close``, ``_after_lance``, ``_declare``).
8. Showdown and tanteo (``_showdown``, ``_ordago_showdown``, ``_check_end``; ``tanteo.hand_entries``,
   ``bonus``, ``score``, ``update_team_in``).
9. A step (``apply_unchecked``) and its rewards (``cardtable.rl.rewards``).
10. What a seat sees (``mus/encoding.py``: ``MusEncoding.features``).
11. The built-in policies (``players/simple.py``: ``SimpleBot``; ``mus/world.py``: ``cuts_mus``, ``keep_discard``).
12. Python level: the options the core plays, its Config, the state as a dict.

Phases, lances, betting statuses, envite kinds and lance results are numbered in the Python engine's
order (``fsm.Phase``, ``rules.LANCES``, ``fsm.BetStatus``, ``encoding.KINDS``, ``encoding.RESULTS``).
Seats grow counter-clockwise; the mano is ``dealer + 1``; pair A is seats 0 and 2.
"""

from libc.stdint cimport int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

from cardtable.vector._stream cimport Bound, below_small, fill_bound, mix, next_word, shuffle, uniform

cdef enum:
    LEGAL_WORDS = 16            # at most 1024 action ids: an amount cap of up to CAP_MAX
    CAP_MAX = 494               # (64 * LEGAL_WORDS - 36) // 2
    MAX_PLAYERS = 4
    OBS_SIZE = 585              # encoding.SHAPE
    OBS_MAX = OBS_SIZE
    DECK = 40
    STOCK = 24                  # cards outside the hands between two decisions: the deck and the discards
    NONE = 255                  # None in a seat, lance or card field
    HANDS = 715                 # multisets of four rank indexes

# Action ids (encoding.py).
cdef enum:
    MUS_ID = 0
    CUT_ID = 1
    DISCARD_BASE = 1            # + positions in the hand (bit k: the k-th card, ascending ids)
    PASS_ID = 17
    ACCEPT_ID = 18
    ACCEPT_NO_LOSE_ID = 19
    REJECT_ID = 20
    ORDAGO_ID = 21
    SIGNAL_BASE = 22
    SIGNALS = 14
    AMOUNT_BASE = 35            # Bet(a) is AMOUNT_BASE + a, Raise(a) AMOUNT_BASE + cap + a

# fsm.Phase, in its order.
cdef enum:
    PH_DEALING = 0
    PH_MUS = 1
    PH_DISCARD = 2
    PH_GRANDE = 3
    PH_CHICA = 4
    PH_PARES_DECLARATION = 5
    PH_PARES = 6
    PH_JUEGO_DECLARATION = 7
    PH_JUEGO = 8
    PH_PUNTO = 9
    PH_SHOWDOWN = 10
    PH_ORDAGO_SHOWDOWN = 11
    PH_SCORING = 12
    PH_CHECK_GAME_END = 13
    PH_GAME_OVER = 14

# rules.LANCES.
cdef enum:
    GRANDE = 0
    CHICA = 1
    PARES = 2
    JUEGO = 3
    PUNTO = 4

# fsm.BetStatus.
cdef enum:
    BS_OPEN = 0
    BS_PENDING = 1
    BS_CLOSED_PASSED = 2
    BS_CLOSED_ACCEPTED = 3
    BS_CLOSED_REJECTED = 4
    BS_ORDAGO_SHOWDOWN = 5

# encoding.KINDS (what a seat said in a lance) and encoding.RESULTS (how a lance closed).
cdef enum:
    K_PASS = 0
    K_BET = 1
    K_RAISE = 2
    K_ORDAGO = 3
    K_ACCEPT = 4
    K_ACCEPT_NO_LOSE = 5
    K_REJECT = 6

cdef enum:
    R_ACCEPTED = 0
    R_PASSED = 1
    R_REJECTED = 2
    R_SKIPPED = 3
    R_NONE = 4
    R_ORDAGO = 5

# The reasons a tanteo entry names (game_over_reason: "... (negada a grande)"): REASONS[r].
cdef enum:
    WHY_NEGADA = 0
    WHY_DEJE = 1
    WHY_ENVITE = 2
    WHY_EN_PASO = 3
    WHY_ORDAGO = 4
    WHY_BONUS = 5               # + lance: the pares, juego or punto themselves

# rules.PARES_NONE … DUPLES and the señas of actions.SIGNALS that name a rank.
cdef enum:
    PAR = 1
    MEDIAS = 2
    DUPLES = 3

#: Names, in the Python engine's orders (the state as a dict uses them).
PHASE_NAMES = ("dealing", "mus_decision", "discard", "grande", "chica", "pares_declaration", "pares",
               "juego_declaration", "juego", "punto", "showdown", "ordago_showdown", "scoring", "check_game_end",
               "game_over")
LANCE_NAMES = ("grande", "chica", "pares", "juego", "punto")
STATUS_NAMES = ("open", "pending", "closed_passed", "closed_accepted", "closed_rejected", "ordago_showdown")
KIND_NAMES = ("pass", "bet", "raise", "ordago", "accept", "accept_no_lose", "reject")
RESULT_NAMES = ("accepted", "passed", "rejected", "skipped", "none", "ordago")
REASONS = ("negada", "deje", "envite", "en paso", "órdago", "grande", "chica", "pares", "juego", "punto")
SIGNAL_NAMES = ("dos_reyes", "dos_ases", "pares", "medias_de_reyes", "medias_de_ases", "medias", "duples",
                "juego", "treinta_y_una", "treinta", "veintinueve", "ciego", "cortar_mus", "envidar_mas")
#: The built-in policies by index: uniform over the legal ids; ``players.simple.SimpleBot``'s choice, exactly.
POLICIES = ("random", "simple")


# 1. Hand values (rules.py, signals.py), as tables: a hand's value depends only on its four ranks.


ctypedef struct HandValue:
    int32_t strength[5]     # per lance, larger wins (HandValue.strength): grande, chica, pares, juego, punto
    uint8_t kind            # pares_kind
    uint8_t total           # the juego / punto total
    uint8_t cuts            # world.cuts_mus: a hand the players cut the mus with
    uint16_t signals        # the señas true of the hand (signal_fits), bit k for SIGNAL_NAMES[k]


cdef uint16_t KEY[10000]            # the four ranks (in any order, base 10) -> the multiset's index
cdef HandValue VALUES[2][HANDS]     # per modalidad (0: 8R8A, 1: 4R)
cdef double PERCENTILE[2][HANDS][5]  # rules.percentile per modalidad, hand and lance
cdef uint16_t PHASE_SIGNALS[15]     # signal_phase_ok: the señas allowed in each phase
cdef Bound FACTORIAL[DECK + 1]      # the bound of a draw below n! (a shuffle of n cards)
cdef Bound SEATS4                   # the bound of a draw below 4 (the first dealer)
cdef uint8_t ROT4[16][4]            # ROT4[m][seat]: the seat mask m counted from seat (bit k: seat + k)
cdef uint8_t LANCE_PHASE[5]         # fsm.LANCE_PHASES
cdef uint16_t NIBBLE_LOW[4]         # in each of four nibbles, the bits below 4 - seat (the nibble rotated by seat)
cdef int GRANDE_VALUE[2][10]        # the grande value of each rank index per modalidad
cdef uint32_t SPREAD7[128]          # bit k of the index at bit 4 k (the señas seen, by sender)

#: The values of the ranks (1, 2, 3, 4, 5, 6, 7, sota, caballo, rey) per modalidad: in 8R8A the 3 is a rey
#: and the 2 an as (FEM II.3); figures count 10 for juego and punto, ases 1 [CONVENCIÓN].
_GRANDE = ((1, 1, 12, 4, 5, 6, 7, 10, 11, 12), (1, 2, 3, 4, 5, 6, 7, 10, 11, 12))
_POINTS = ((1, 1, 10, 4, 5, 6, 7, 10, 10, 10), (1, 2, 3, 4, 5, 6, 7, 10, 10, 10))
#: 31 > 32 > 40 > 37 > 36 > 35 > 34 > 33 (FEM VI.7-8 / CONVENCIÓN); 0: no juego.
_JUEGO = {31: 8, 32: 7, 40: 6, 37: 5, 36: 4, 35: 3, 34: 2, 33: 1}


def _value(ranks, int mod):
    """(strengths per lance, pares kind, total, cuts, señas) of four rank indexes."""
    values = sorted((_GRANDE[mod][r] for r in ranks), reverse=True)
    total = sum(_POINTS[mod][r] for r in ranks)
    counts = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    pairs = sorted((v for v, n in counts.items() if n == 2), reverse=True)
    triple = [v for v, n in counts.items() if n == 3]
    four = [v for v, n in counts.items() if n == 4]
    if four:
        kind, pares = DUPLES, 3000 + 14 * four[0]
    elif triple:
        kind, pares = MEDIAS, 2000 + 13 * triple[0]
    elif len(pairs) == 2:
        kind, pares = DUPLES, 3000 + 13 * pairs[0] + pairs[1]
    elif pairs:
        kind, pares = PAR, 1000 + 13 * pairs[0]
    else:
        kind, pares = 0, 0
    grande = ((values[0] * 13 + values[1]) * 13 + values[2]) * 13 + values[3]
    chica = -(((values[3] * 13 + values[2]) * 13 + values[1]) * 13 + values[0])
    juego = _JUEGO.get(total, 0)
    reyes, ases = values.count(12), values.count(1)
    medias = triple[0] if triple else None
    fits = (reyes == 2, ases == 2, kind == PAR, medias == 12, medias == 1, medias not in (None, 12, 1),
            kind == DUPLES, total >= 31 and total != 31, total == 31, total == 30, total == 29,
            kind == 0 and total < 31, True, True)
    cuts = kind >= MEDIAS or total == 31 or reyes >= 3 or (kind == PAR and total >= 31)
    return (grande, chica, pares, juego, total), kind, total, cuts, sum(1 << k for k, ok in enumerate(fits) if ok)


def _fill_tables():
    import itertools
    import math

    cdef int mod, k, lance, a, b, c, d
    cdef HandValue* v
    hands = list(itertools.combinations_with_replacement(range(10), 4))
    assert len(hands) == HANDS
    index = {ranks: k for k, ranks in enumerate(hands)}
    for a in range(10):
        for b in range(10):
            for c in range(10):
                for d in range(10):
                    KEY[((a * 10 + b) * 10 + c) * 10 + d] = index[tuple(sorted((a, b, c, d)))]
    for mod in range(2):
        weights = [{} for _ in range(5)]  # per lance: strength -> hands (holders only in pares and juego)
        found = []
        for k, ranks in enumerate(hands):
            strengths, kind, total, cuts, signals = _value(ranks, mod)
            found.append(strengths)
            v = &VALUES[mod][k]
            for lance in range(5):
                v.strength[lance] = strengths[lance]
            v.kind, v.total, v.cuts, v.signals = kind, total, cuts, signals
            copies = 1  # the hands of 40 cards with these ranks: C(4, n) per rank held n times
            for r in set(ranks):
                copies *= math.comb(4, ranks.count(r))
            for lance in range(5):
                if (lance != PARES or kind) and (lance != JUEGO or total >= 31):
                    weights[lance][strengths[lance]] = weights[lance].get(strengths[lance], 0) + copies
        for lance in range(5):  # the share of hands a hand beats or ties: cumulative over sorted strengths
            everyone = sum(weights[lance].values())
            share, running = {}, 0
            for strength in sorted(weights[lance]):
                running += weights[lance][strength]
                share[strength] = running / everyone
            for k in range(HANDS):
                PERCENTILE[mod][k][lance] = share.get(found[k][lance], 0.0)
    lances = (PH_GRANDE, PH_CHICA, PH_PARES, PH_JUEGO, PH_PUNTO)
    for k in range(15):  # cortar_mus only in the mus decision; the rest in the lances, medias after the grande
        PHASE_SIGNALS[k] = (1 << 12) if k == PH_MUS else 0
        if k in lances:
            PHASE_SIGNALS[k] = ((1 << SIGNALS) - 1) & ~(1 << 12) & ~((1 << 5) if k == PH_GRANDE else 0)
    for k in range(DECK + 1):
        fill_bound(&FACTORIAL[k], math.factorial(k))
    fill_bound(&SEATS4, 4)
    for k in range(16):
        for a in range(4):
            ROT4[k][a] = ((k >> a) | (k << (4 - a))) & 15
    for k in range(5):
        LANCE_PHASE[k] = lances[k]
    for k in range(4):
        NIBBLE_LOW[k] = (0xF >> k) * 0x1111
    for mod in range(2):
        for a in range(10):
            GRANDE_VALUE[mod][a] = _GRANDE[mod][a]
    for k in range(128):
        SPREAD7[k] = sum(1 << (4 * a) for a in range(7) if k >> a & 1)


_fill_tables()


include "_bits.pxi"


# 2. The state (state.py).


ctypedef struct Config:
    int players
    int obs_size
    int reward_round
    int num_actions         # encoding.num_actions: 36 + 2 * space_cap
    int legal_words
    int space_cap           # encoding.amount_cap: the largest amount in the action space
    int modalidad           # 0: 8R8A, 1: 4R
    int target
    int negada
    int en_paso[2]          # grande_en_paso, chica_en_paso
    int pares_value[4]      # 0, par, medias, duples
    int juego_31
    int juego_otro
    int punto
    int negada_ends_game
    int deje_en_el_acto
    int ordago_cancels
    int margin              # team_is_in_margin
    int min_bet
    int max_bet
    int double_raise        # raise_rule == "double"
    int min_discard
    int cut_anytime_a_falta
    int max_rounds
    int games_to_win
    int signals
    double interception_p
    uint64_t discard_bits   # the ids of every discard of min_discard to 4 cards
    int defect


ctypedef struct State:
    uint64_t rng                # the pinned stream's state (core.rng)
    uint64_t signals_used       # bit 14 * seat + k: seat made seña k this hand
    uint64_t intercepted[2]     # bit 14 * sender + k: the sender's rival sender + 1 + 2 j saw it (j = 0, 1)
    uint32_t hand_no
    uint16_t tanteo[2]
    uint16_t games[2]
    uint16_t game_no
    uint16_t mus_rounds
    uint16_t bet_total          # Betting.total
    uint16_t bet_before         # Betting.before
    uint16_t lance_amount[5]    # LanceResult.total if accepted, LanceResult.deje if rejected
    uint16_t pending            # 4 bits per seat: the positions of the discard announced (0: None)
    uint16_t declared           # pares yes (bits 0-3 by seat), pares no (4-7), juego yes (8-11), juego no (12-15)
    uint8_t hands[4][4]         # ascending ids (the Python tuples)
    uint8_t stock[STOCK]        # the discards (stock[:pile_len], in order), then the deck (drawn from its front)
    uint8_t pile_len
    uint8_t phase
    uint8_t dealer
    uint8_t turn                # NONE for None
    uint8_t mus_count
    uint8_t discard_counts[4]
    uint8_t bet_lance           # NONE: no betting (state.betting is None)
    uint8_t bet_status
    uint8_t bet_speakers        # a seat mask; the speakers are in order from the mano
    uint8_t bet_position
    uint8_t bet_bettor
    uint8_t bet_responders      # how many of bet_resp answer still
    uint8_t bet_resp[2]
    uint8_t bet_ordago
    uint8_t lance_result[5]     # 0: no result yet; else (status + 1) | (pair + 1) << 4 (pair 0 for None)
    uint8_t kinds[5][4]         # per lance and seat, bit K_*: what the seat said (envites, for the encoding)
    uint8_t named[5][4]         # the largest amount the seat named in the lance, clipped at 255
    uint8_t shown
    uint8_t team_in             # bit p: pair p is in (FEM VII.7)
    uint8_t winner              # NONE until the match is won
    uint8_t game_winner
    uint8_t reason              # game_over_reason: REASONS[reason // 5] a LANCE_NAMES[reason % 5]; NONE: ""
    uint8_t reason_pair


cdef inline int mano(const State* s) noexcept nogil:
    return (s.dealer + 1) & 3


cdef inline const HandValue* value_of(const Config* cfg, const State* s, int seat) noexcept nogil:
    """``evaluate(state.hands[seat], modalidad)``."""
    cdef const uint8_t* h = s.hands[seat]
    return &VALUES[cfg.modalidad][KEY[(((h[0] % 10) * 10 + h[1] % 10) * 10 + h[2] % 10) * 10 + h[3] % 10]]


cdef inline uint64_t hand_mask(const State* s, int seat) noexcept nogil:
    cdef const uint8_t* h = s.hands[seat]
    return ((<uint64_t>1) << h[0]) | ((<uint64_t>1) << h[1]) | ((<uint64_t>1) << h[2]) | ((<uint64_t>1) << h[3])


cdef inline bint holds(const HandValue* v, int lance) noexcept nogil:
    """rules.holds: pares and juego need holders."""
    if lance == PARES:
        return v.kind != 0
    if lance == JUEGO:
        return v.total >= 31
    return True


cdef inline int best_seat(const Config* cfg, const State* s, int lance, int seats) noexcept nogil:
    """rules.best_seat among the seats of the mask ``seats``, from the mano: ties go to the earliest."""
    cdef int k, seat, best = -1
    cdef int32_t top = 0, strength
    for k in range(4):
        seat = (mano(s) + k) & 3
        if seats >> seat & 1:
            strength = value_of(cfg, s, seat).strength[lance]
            if best < 0 or strength > top:
                best, top = seat, strength
    return best


cdef inline int holders(const Config* cfg, const State* s, int lance) noexcept nogil:
    """The seats (a mask) that hold ``lance``."""
    cdef int seat, out = 0
    for seat in range(4):
        if holds(value_of(cfg, s, seat), lance):
            out |= 1 << seat
    return out


# 3. Dealing (MusGame.new, dealing.deal).


cdef inline void sort4(uint8_t* h) noexcept nogil:
    cdef int i, j
    cdef uint8_t x
    for i in range(1, 4):
        x = h[i]
        j = i - 1
        while j >= 0 and h[j] > x:
            h[j + 1] = h[j]
            j -= 1
        h[j + 1] = x


cdef inline void update_team_in(const Config* cfg, State* s) noexcept nogil:
    """``tanteo.update_team_in``: a pair within the margin of the target is in, once per game (FEM VII.7)."""
    cdef int p, left
    for p in range(2):
        left = cfg.target - s.tanteo[p]
        if 0 < left <= cfg.margin:
            s.team_in |= 1 << p


cdef inline void deal(const Config* cfg, State* s) noexcept nogil:
    """``dealing.deal``: shuffle, four cards each one at a time from the mano (FEM III.2), a fresh jugada."""
    cdef uint8_t cards[DECK]
    cdef int k, m = mano(s)
    for k in range(DECK):
        cards[k] = k
    shuffle(&s.rng, cards, DECK, &FACTORIAL[DECK])
    for k in range(16):
        s.hands[(m + k) & 3][k >> 2] = cards[k]
    for k in range(4):
        sort4(s.hands[k])
    memcpy(s.stock, cards + 16, STOCK)  # the deck: cards[16] is drawn first
    s.pile_len = 0
    s.hand_no += 1
    s.mus_rounds = 0
    s.mus_count = 0
    s.pending = 0
    memset(s.discard_counts, 0, 4)
    s.bet_lance = NONE
    s.bet_status = BS_OPEN
    s.bet_speakers = s.bet_position = s.bet_responders = s.bet_ordago = 0
    s.bet_bettor = NONE
    s.bet_total = s.bet_before = 0
    memset(s.lance_result, 0, 5)
    memset(s.lance_amount, 0, sizeof(s.lance_amount))
    memset(s.kinds, 0, sizeof(s.kinds))
    memset(s.named, 0, sizeof(s.named))
    s.shown = 0
    s.declared = 0
    s.signals_used = 0
    s.intercepted[0] = s.intercepted[1] = 0
    s.phase = PH_MUS
    s.turn = m


cdef inline void rules_reset(const Config* cfg, State* s, uint64_t seed) noexcept nogil:
    """``MusGame.new(options, seed)``: the first dealer by lot (FEM III.1), then the first hand."""
    memset(s, 0, sizeof(State))
    s.rng = mix(seed)
    s.dealer = below_small(&s.rng, 4, &SEATS4)
    s.game_no = 1
    s.winner = s.game_winner = s.reason = NONE
    update_team_in(cfg, s)
    deal(cfg, s)


# 4. Legal actions (legal_actions; legal.discard_actions, betting_actions, signal_actions; encoding.legal_bits).


cdef inline int rules_num_actions(const Config* cfg) noexcept nogil:
    return cfg.num_actions


cdef inline int rules_to_act(const State* s) noexcept nogil:
    return -1 if s.phase == PH_GAME_OVER else s.turn


cdef inline void set_run(uint64_t* legal, int first, int last) noexcept nogil:
    """Set the ids first…last (inclusive), a word at a time."""
    cdef int w, top
    while first <= last:
        w = first >> 6
        top = last if last < 64 * w + 63 else 64 * w + 63
        legal[w] |= (~(<uint64_t>0) >> (63 - (top & 63))) & (~(<uint64_t>0) << (first & 63))
        first = 64 * w + 64


cdef inline int matter(const Config* cfg, const State* s) noexcept nogil:
    """``tantos_that_matter``: the most tantos either pair still needs."""
    return cfg.target - (s.tanteo[0] if s.tanteo[0] < s.tanteo[1] else s.tanteo[1])


cdef inline bint must_accept_no_lose(const Config* cfg, const State* s, int seat) noexcept nogil:
    """FEM VI.9: the postre holding 33 answering an órdago a juego may only say "quiero y no pierdo"."""
    return (s.bet_ordago and s.bet_lance == JUEGO and seat == s.dealer and value_of(cfg, s, seat).total == 33
            and cfg.defect != 3)


cdef inline void betting_bits(const Config* cfg, const State* s, uint64_t* legal) noexcept nogil:
    """``legal.betting_actions``: pass, bets and órdago when open; the answers, raises and órdago when pending."""
    cdef int low = cfg.min_bet, left = matter(cfg, s), cap
    cap = cfg.max_bet if cfg.max_bet < left else left
    if cap < low:
        cap = low
    if s.bet_status == BS_OPEN:
        legal[0] |= ((<uint64_t>1) << PASS_ID) | ((<uint64_t>1) << ORDAGO_ID)
        set_run(legal, AMOUNT_BASE + low, AMOUNT_BASE + cap)
        return
    legal[0] |= ((<uint64_t>1) << (ACCEPT_NO_LOSE_ID if must_accept_no_lose(cfg, s, s.turn) else ACCEPT_ID)
                 | (<uint64_t>1) << REJECT_ID)
    if not s.bet_ordago:
        if s.bet_total < left:
            if cfg.double_raise:
                set_run(legal, AMOUNT_BASE + cfg.space_cap + s.bet_total, AMOUNT_BASE + cfg.space_cap + s.bet_total)
            else:
                set_run(legal, AMOUNT_BASE + cfg.space_cap + low, AMOUNT_BASE + cfg.space_cap + cap)
        legal[0] |= (<uint64_t>1) << ORDAGO_ID


cdef inline int signal_bits(const Config* cfg, const State* s) noexcept nogil:
    """``legal.signal_actions``: the señas not made yet this hand, allowed now and true of the hand."""
    cdef int seat = s.turn
    return (PHASE_SIGNALS[s.phase] & value_of(cfg, s, seat).signals
            & ~<int>((s.signals_used >> (SIGNALS * seat)) & ((1 << SIGNALS) - 1)))


cdef inline void rules_legal(const Config* cfg, const State* s, uint64_t* legal) noexcept nogil:
    cdef int w
    for w in range(cfg.legal_words):
        legal[w] = 0
    if s.phase == PH_GAME_OVER:
        return
    if s.phase == PH_MUS:
        legal[0] = 0b11 if s.mus_rounds < cfg.max_rounds else 0b10
    elif s.phase == PH_DISCARD:
        legal[0] = cfg.discard_bits
        if cfg.cut_anytime_a_falta and s.team_in:
            legal[0] |= (<uint64_t>1) << CUT_ID
    else:
        betting_bits(cfg, s, legal)
    if cfg.signals:
        legal[0] |= (<uint64_t>signal_bits(cfg, s)) << SIGNAL_BASE


# 5. Mus and discards (_on_mus, _on_discard, dealing.replace_cards).


cdef inline void replace_cards(const Config* cfg, State* s) noexcept nogil:
    """``dealing.replace_cards``: the discards go on the pile, then each seat from the mano draws from the deck's front;
    an empty deck is first rebuilt from the whole pile, shuffled (FEM III.15)."""
    cdef uint8_t pile[DECK]
    cdef uint8_t deck[DECK]
    cdef uint8_t kept[4]
    cdef int plen = s.pile_len, dlen = STOCK - s.pile_len, dpos = 0
    cdef int k, j, seat, positions, n, m = mano(s)
    memcpy(pile, s.stock, plen)
    memcpy(deck, s.stock + plen, dlen)
    for k in range(4):
        seat = (m + k) & 3
        positions = (s.pending >> (4 * seat)) & 15
        for j in range(4):
            if positions >> j & 1:
                pile[plen] = s.hands[seat][j]
                plen += 1
    for k in range(4):
        seat = (m + k) & 3
        positions = (s.pending >> (4 * seat)) & 15
        n = 0
        for j in range(4):
            if not positions >> j & 1:
                kept[n] = s.hands[seat][j]
                n += 1
        s.discard_counts[seat] = 4 - n
        while n < 4:
            if dpos == dlen:
                memcpy(deck, pile, plen)
                if cfg.defect != 2:  # planted defect 2 (tests only): the rebuilt deck is not shuffled
                    shuffle(&s.rng, deck, plen, &FACTORIAL[plen])
                dlen, dpos, plen = plen, 0, 0
            kept[n] = deck[dpos]
            dpos += 1
            n += 1
        memcpy(s.hands[seat], kept, 4)
        sort4(s.hands[seat])
    memcpy(s.stock, pile, plen)
    memcpy(s.stock + plen, deck + dpos, dlen - dpos)
    s.pile_len = plen
    s.pending = 0
    s.mus_rounds += 1
    s.mus_count = 0
    s.phase = PH_MUS
    s.turn = m


cdef inline void on_mus(const Config* cfg, State* s, int seat, int action) noexcept nogil:
    """``_on_mus``: a cut starts the grande; the fourth mus starts the discards from the mano."""
    if action == CUT_ID:
        start_lance(cfg, s, GRANDE)
        return
    s.mus_count += 1
    if s.mus_count < 4:
        s.turn = (seat + 1) & 3
        return
    s.phase = PH_DISCARD
    s.pending = 0
    s.turn = mano(s)


cdef inline void on_discard(const Config* cfg, State* s, int seat, int action) noexcept nogil:
    """``_on_discard``: a cut a falta de tanto cancels the discards (FEM IV.7); the fourth discard replaces."""
    if action == CUT_ID:
        s.pending = 0
        start_lance(cfg, s, GRANDE)
        return
    s.pending |= (action - DISCARD_BASE) << (4 * seat)
    if ((s.pending & 0x000F) and (s.pending & 0x00F0) and (s.pending & 0x0F00) and (s.pending & 0xF000)):
        replace_cards(cfg, s)
    else:
        s.turn = (seat + 1) & 3


# 6. Señas (signals.on_signal).


cdef inline void on_signal(const Config* cfg, State* s, int seat, int k) noexcept nogil:
    """``signals.on_signal``: the partner sees it; each rival, from the seat's right, with ``interception_p``
    (``rng.chance``: a draw below 2**53, two words whose second gives the 53 low bits)."""
    cdef int j
    cdef uint64_t x
    s.signals_used |= (<uint64_t>1) << (SIGNALS * seat + k)
    for j in range(2):
        next_word(&s.rng)
        x = next_word(&s.rng) & (((<uint64_t>1) << 53) - 1)
        if <double>x < cfg.interception_p * 9007199254740992.0:
            s.intercepted[j] |= (<uint64_t>1) << (SIGNALS * seat + k)


# 7. Lances and envites (_start_lance, _on_lance, _on_pass, _on_envite, _on_reject, _close, _after_lance, _declare).


cdef inline int nth_speaker(const State* s, int position) noexcept nogil:
    """Betting.speakers[position]: the speakers are the seats of the mask in order from the mano."""
    cdef int k, seat
    for k in range(4):
        seat = (mano(s) + k) & 3
        if s.bet_speakers >> seat & 1:
            if position == 0:
                return seat
            position -= 1
    return NONE


cdef inline void start_lance(const Config* cfg, State* s, int lance) noexcept nogil:
    """``_start_lance``: in pares and juego only the holders speak; the first from the mano opens (FEM VIII.8)."""
    s.phase = LANCE_PHASE[lance]
    s.bet_lance = lance
    s.bet_status = BS_OPEN
    s.bet_speakers = holders(cfg, s, lance) if lance == PARES or lance == JUEGO else 15
    s.bet_position = 0
    s.bet_bettor = NONE
    s.bet_responders = 0
    s.bet_total = s.bet_before = 0
    s.bet_ordago = 0
    s.turn = nth_speaker(s, 0)


cdef inline void said(State* s, int seat, int kind, int amount) noexcept nogil:
    """``state.envites += (Envite(lance, seat, kind, amount),)``, as the encoding reads it."""
    s.kinds[s.bet_lance][seat] |= 1 << kind
    if amount > s.named[s.bet_lance][seat]:
        s.named[s.bet_lance][seat] = amount if amount < 255 else 255


cdef inline void record(State* s, int lance, int status, int pair, int amount) noexcept nogil:
    """``state.results += (LanceResult(...),)``."""
    s.lance_result[lance] = (status + 1) | ((pair + 1) << 4)
    s.lance_amount[lance] = amount


cdef inline int result_status(const State* s, int lance) noexcept nogil:
    return (s.lance_result[lance] & 15) - 1


cdef inline int result_pair(const State* s, int lance) noexcept nogil:
    return (s.lance_result[lance] >> 4) - 1


cdef inline void on_pass(const Config* cfg, State* s, int seat) noexcept nogil:
    """``_on_pass``: the next speaker, or the lance closes en paso."""
    cdef int lance = s.bet_lance
    said(s, seat, K_PASS, 0)
    if s.bet_position + 1 < popcount(s.bet_speakers):
        s.bet_position += 1
        s.turn = nth_speaker(s, s.bet_position)
        return
    s.bet_status = BS_CLOSED_PASSED
    record(s, lance, R_PASSED, -1, 0)
    close(cfg, s, lance)


cdef inline void on_envite(const Config* cfg, State* s, int seat, int kind, int amount) noexcept nogil:
    """``_on_envite``: a bet, raise or órdago; the rivals that speak answer, the one to the right first (FEM VI.2)."""
    cdef int rival, k
    if kind == K_BET:
        s.bet_before, s.bet_total = 0, amount
    elif kind == K_RAISE:
        s.bet_before, s.bet_total = s.bet_total, s.bet_total + amount
    else:
        s.bet_before = s.bet_total
    s.bet_status = BS_PENDING
    s.bet_bettor = seat
    s.bet_responders = 0
    for k in range(1, 4, 2):  # the seat to the right first, then the other rival
        rival = (seat + k) & 3
        if s.bet_speakers >> rival & 1:
            s.bet_resp[s.bet_responders] = rival
            s.bet_responders += 1
    s.bet_ordago = kind == K_ORDAGO
    said(s, seat, kind, amount)
    s.turn = s.bet_resp[0]


cdef inline void on_reject(const Config* cfg, State* s, int seat) noexcept nogil:
    """``_on_reject``: the partner still answers (FEM VI.4); both refusing give the deje to the bettors."""
    cdef int lance = s.bet_lance
    said(s, seat, K_REJECT, 0)
    if s.bet_responders == 2 and cfg.defect != 4:  # planted defect 4 (tests only): the partner is not asked
        s.bet_resp[0] = s.bet_resp[1]
        s.bet_responders = 1
        s.turn = s.bet_resp[0]
        return
    s.bet_status = BS_CLOSED_REJECTED
    record(s, lance, R_REJECTED, s.bet_bettor & 1, cfg.negada if s.bet_before == 0 else s.bet_before)
    close(cfg, s, lance)


cdef inline void on_accept(const Config* cfg, State* s, int seat, int kind) noexcept nogil:
    """The accepting branch of ``_on_lance``: an órdago goes to the showdown, an envite closes the lance."""
    cdef int lance = s.bet_lance
    said(s, seat, kind, 0)
    if s.bet_ordago:
        ordago_showdown(cfg, s)
        return
    s.bet_status = BS_CLOSED_ACCEPTED
    record(s, lance, R_ACCEPTED, -1, s.bet_total)
    close(cfg, s, lance)


cdef inline void close(const Config* cfg, State* s, int lance) noexcept nogil:
    """``_close``: a refusal is scored in the act (FEM VI.6); reaching the target then ends the game (P8)."""
    if result_status(s, lance) == R_REJECTED and cfg.deje_en_el_acto:
        score(cfg, s, result_pair(s, lance), s.lance_amount[lance],
              WHY_NEGADA if s.bet_before == 0 else WHY_DEJE, lance)
        if s.game_winner != NONE and cfg.negada_ends_game:
            check_end(cfg, s)
            return
    if lance == GRANDE:
        start_lance(cfg, s, CHICA)
    elif lance == CHICA:
        declare(cfg, s, PARES)
    elif lance == PARES:
        declare(cfg, s, JUEGO)
    else:
        showdown(cfg, s)


cdef inline void declare(const Config* cfg, State* s, int lance) noexcept nogil:
    """``_declare``: every seat's truthful sí/no (FEM VI.5, IX.1); betting only if both pairs hold."""
    cdef int seats = holders(cfg, s, lance), pairs
    s.phase = PH_PARES_DECLARATION if lance == PARES else PH_JUEGO_DECLARATION
    s.declared |= (seats | (~seats & 15) << 4) << (0 if lance == PARES else 8)
    pairs = (1 if seats & 0b0101 else 0) | (2 if seats & 0b1010 else 0)
    if pairs == 3:
        start_lance(cfg, s, lance)
    elif lance == JUEGO and not pairs:
        start_lance(cfg, s, PUNTO)
    else:
        record(s, lance, R_SKIPPED if pairs else R_NONE, -1 if not pairs else (0 if pairs == 1 else 1), 0)
        if lance == PARES:
            declare(cfg, s, JUEGO)
        else:
            showdown(cfg, s)


# 8. Showdown and tanteo (_showdown, _ordago_showdown, _check_end; tanteo.hand_entries, bonus, score, update_team_in).


cdef inline void score(const Config* cfg, State* s, int pair, int tantos, int why, int lance) noexcept nogil:
    """``tanteo.score``: the first pair to reach the target wins the game; then "estamos dentro" (FEM VII.7)."""
    if tantos <= 0:
        return
    s.tanteo[pair] += tantos
    if s.game_winner == NONE and s.tanteo[pair] >= cfg.target:
        s.game_winner = pair
        s.reason = 5 * why + lance
        s.reason_pair = pair
    update_team_in(cfg, s)


cdef inline int bonus(const Config* cfg, const State* s, int lance, int pair) noexcept nogil:
    """``tanteo.bonus``: pares and juego per holder of the pair (CONVENCIÓN), the punto once."""
    cdef int seat, out = 0
    cdef const HandValue* v
    if lance == PARES:
        for seat in range(pair, 4, 2):
            out += cfg.pares_value[value_of(cfg, s, seat).kind]
            if cfg.defect == 5 and value_of(cfg, s, seat).kind == PAR:  # planted defect 5 (tests only): a par is 2
                out += 1
    elif lance == JUEGO:
        for seat in range(pair, 4, 2):
            v = value_of(cfg, s, seat)
            if v.total >= 31:
                out += cfg.juego_31 if v.total == 31 else cfg.juego_otro
    elif lance == PUNTO:
        out = cfg.punto
    return out


cdef inline bint count_hand(const Config* cfg, State* s, bint bets_only) noexcept nogil:
    """``tanteo.hand_entries`` scored in counting order (FEM VII.2) until a pair reaches the target; True then.

    With ``bets_only`` only the accepted envites (an órdago that cancels nothing, FEM VII.12)."""
    cdef int lance, status, seats, w, tantos
    for lance in range(5):
        status = result_status(s, lance)
        if status < 0 or status == R_ORDAGO:
            continue
        seats = holders(cfg, s, lance)
        if not seats:
            continue
        w = result_pair(s, lance)
        if not ((status == R_REJECTED or status == R_SKIPPED) and w >= 0):
            w = best_seat(cfg, s, lance, seats) & 1
        if status == R_ACCEPTED:
            if s.game_winner == NONE:
                score(cfg, s, w, s.lance_amount[lance], WHY_ENVITE, lance)
            if s.game_winner != NONE and not bets_only:
                return True
        if bets_only:
            continue
        if status == R_REJECTED and not cfg.deje_en_el_acto:
            score(cfg, s, w, s.lance_amount[lance], WHY_DEJE, lance)
            if s.game_winner != NONE:
                return True
        if status == R_PASSED and (lance == GRANDE or lance == CHICA):
            score(cfg, s, w, cfg.en_paso[lance], WHY_EN_PASO, lance)
            if s.game_winner != NONE:
                return True
        tantos = bonus(cfg, s, lance, w)
        if tantos:
            score(cfg, s, w, tantos, WHY_BONUS + lance, lance)
            if s.game_winner != NONE:
                return True
    return s.game_winner != NONE


cdef inline void showdown(const Config* cfg, State* s) noexcept nogil:
    """``_showdown``: the four hands are shown (FEM VII.9), then counted in lance order."""
    s.phase = PH_SCORING
    s.shown = 1
    s.turn = NONE
    if s.game_winner == NONE:
        count_hand(cfg, s, False)
    check_end(cfg, s)


cdef inline void ordago_showdown(const Config* cfg, State* s) noexcept nogil:
    """``_ordago_showdown``: cards shown, the lance's winner wins the game; earlier bets per FEM VII.12."""
    cdef int lance = s.bet_lance, winner
    s.bet_status = BS_ORDAGO_SHOWDOWN
    winner = best_seat(cfg, s, lance, s.bet_speakers) & 1
    record(s, lance, R_ORDAGO, winner, 0)
    s.phase = PH_SCORING
    s.shown = 1
    s.turn = NONE
    if not cfg.ordago_cancels:
        count_hand(cfg, s, True)
    if s.game_winner == NONE:
        score(cfg, s, winner, cfg.target - s.tanteo[winner], WHY_ORDAGO, lance)
    check_end(cfg, s)


cdef inline void check_end(const Config* cfg, State* s) noexcept nogil:
    """``_check_end``: the next hand, the next game of the match (P4), or the end of the match."""
    cdef int pair
    s.turn = NONE
    if s.game_winner != NONE:
        pair = s.game_winner
        s.games[pair] += 1
        if s.games[pair] >= cfg.games_to_win:
            s.winner = pair
            s.phase = PH_GAME_OVER
            return
        s.game_no += 1
        s.tanteo[0] = s.tanteo[1] = 0
        s.team_in = 0
        s.game_winner = NONE
        update_team_in(cfg, s)
    s.dealer = (s.dealer + 1) & 3
    deal(cfg, s)


# 9. A step (apply_unchecked) and its rewards (cardtable.rl.rewards).


cdef inline void rules_step(const Config* cfg, State* s, int action, float* rewards) noexcept nogil:
    """Play a legal action id; rewards as ``final_rewards`` ("game") or ``round_rewards`` ("round")."""
    cdef int seat = s.turn, game_no = s.game_no, k
    cdef int before[2]
    before[0], before[1] = s.tanteo[0], s.tanteo[1]
    if SIGNAL_BASE <= action < SIGNAL_BASE + SIGNALS:
        on_signal(cfg, s, seat, action - SIGNAL_BASE)
    elif s.phase == PH_MUS:
        on_mus(cfg, s, seat, action)
    elif s.phase == PH_DISCARD:
        on_discard(cfg, s, seat, action)
    elif action == PASS_ID:
        on_pass(cfg, s, seat)
    elif action == ORDAGO_ID:
        on_envite(cfg, s, seat, K_ORDAGO, 0)
    elif action == ACCEPT_ID or action == ACCEPT_NO_LOSE_ID:
        on_accept(cfg, s, seat, K_ACCEPT if action == ACCEPT_ID else K_ACCEPT_NO_LOSE)
    elif action == REJECT_ID:
        on_reject(cfg, s, seat)
    elif action <= AMOUNT_BASE + cfg.space_cap:
        on_envite(cfg, s, seat, K_BET, action - AMOUNT_BASE)
    else:
        on_envite(cfg, s, seat, K_RAISE, action - AMOUNT_BASE - cfg.space_cap)
    if cfg.reward_round:  # each seat's pair's tantos scored; a new game of a match counts from 0-0
        if s.game_no != game_no:
            before[0] = before[1] = 0
        for k in range(4):
            rewards[k] += s.tanteo[k & 1] - before[k & 1]
    elif s.phase == PH_GAME_OVER:
        for k in range(4):
            rewards[k] += 1.0 if (k & 1) == s.winner else -1.0


cdef inline void rules_forfeit(State* s) noexcept nogil:
    s.phase = PH_GAME_OVER
    s.turn = NONE


# 10. What a seat sees (encoding.MusEncoding.features).


ctypedef struct Memo:
    # Whether the row was written by rules_encode, and which of its mostly-zero regions it left non-zero
    # (DIRTY_*): a clean one is skipped while it stays zero.
    uint8_t valid
    uint8_t dirty
    uint8_t lances   # the lances whose envites were written non-zero


cdef enum:
    DIRTY_SHOWN = 1
    DIRTY_SIGNALS = 4
    DIRTY_PENDING = 8
    DIRTY_RESULTS = 16


cdef inline uint64_t spread4(uint64_t bits14, int offset) noexcept nogil:
    """Bit k of ``bits14`` to bit 4 k + offset: two table looks (SPREAD7), no loop over the bits."""
    return ((<uint64_t>SPREAD7[bits14 & 127]) | (<uint64_t>SPREAD7[bits14 >> 7] << 28)) << offset


cdef inline void write_counts(const Config* cfg, const State* s, int me, uint8_t* out) noexcept nogil:
    """The counts (544–584), clipped at 255: envites, tanteo, games, discards, rounds, deck, hand and game
    numbers, accepted totals per lance (the target and games to win are written once, the named amounts with
    the envites)."""
    cdef int side = me & 1, lance
    cdef uint32_t k, betting = -(<uint32_t>(s.bet_lance != NONE))  # the envites are 0 outside a lance's betting
    cdef uint8_t* c = out + 544
    k = s.bet_before if s.bet_status == BS_PENDING else s.bet_total
    c[0] = (k if k < 255 else 255) & betting
    c[1] = (s.bet_total if s.bet_total < 255 else 255) & betting
    c[2] = s.tanteo[side] if s.tanteo[side] < 255 else 255
    c[3] = s.tanteo[1 - side] if s.tanteo[1 - side] < 255 else 255
    c[4] = s.games[side] if s.games[side] < 255 else 255
    c[5] = s.games[1 - side] if s.games[1 - side] < 255 else 255
    k = by_seat(s.discard_counts, me)
    memcpy(c + 8, &k, 4)
    c[12] = s.mus_rounds if s.mus_rounds < 255 else 255
    c[13] = STOCK - s.pile_len
    c[14] = s.hand_no if s.hand_no < 255 else 255
    c[15] = s.game_no if s.game_no < 255 else 255
    for lance in range(5):
        k = s.lance_amount[lance] if result_status(s, lance) == R_ACCEPTED else 0
        c[16 + lance] = k if k < 255 else 255


cdef inline uint64_t table_bits(const State* s, int me) noexcept nogil:
    """Bits 240–302 (from bit 0): phase, dealer, seat to act, the betting of the lance, the declarations.

    Without branches: each flag is a condition's 0/1 shifted to its place (shifts masked to 0–63, the
    condition 0 where the place would be outside), as whether a lance is bet and who bet vary between
    decisions."""
    cdef uint64_t betting = s.bet_lance != NONE
    cdef uint64_t flags = ((<uint64_t>1) << s.phase) | ((<uint64_t>1) << (15 + ((s.dealer - me) & 3)))
    flags |= (<uint64_t>((s.phase != PH_GAME_OVER) & (s.turn != NONE))) << (19 + ((s.turn - me) & 3))
    flags |= (betting << ((23 + s.bet_lance) & 63)) | (betting << ((28 + s.bet_status) & 63))
    flags |= (betting & (s.bet_ordago != 0)) << 34
    flags |= (betting & (s.bet_bettor != NONE)) << (35 + ((s.bet_bettor - me) & 3))
    flags |= (betting & (s.bet_responders > 0)) << (39 + ((s.bet_resp[0] - me) & 3))
    flags |= (betting & (s.bet_responders > 1)) << (39 + ((s.bet_resp[1] - me) & 3))
    flags |= (<uint64_t>ROT4[s.bet_speakers][me] & -betting) << 43
    # Pares yes, pares no, juego yes, juego no: each nibble rotated to count the seats from ``me``.
    flags |= (<uint64_t>(((s.declared >> me) & NIBBLE_LOW[me]) | ((s.declared << (4 - me)) & ~NIBBLE_LOW[me] & 0xFFFF))) << 47
    return flags


cdef inline uint64_t result_bits(const State* s, int me) noexcept nogil:
    """Bits 443–484 (from bit 0): how each lance closed, the pair it went to, the pairs that are in.

    A lance's code (``record``: status + 1, pair + 1 above) is 0 where it has no result: its flags are then
    0 shifted, without a branch."""
    cdef uint64_t flags = 0
    cdef int lance, status, pair
    for lance in range(5):
        status = s.lance_result[lance] & 15
        pair = s.lance_result[lance] >> 4
        flags |= (<uint64_t>(status != 0)) << ((6 * lance + status - 1) & 63)
        flags |= (<uint64_t>(pair != 0)) << (30 + 2 * lance + ((pair - 1 - me) & 1))
    flags |= (<uint64_t>((s.team_in >> (me & 1)) & 1)) << 40
    flags |= (<uint64_t>((s.team_in >> (1 - (me & 1))) & 1)) << 41
    return flags


cdef inline uint32_t by_seat(const uint8_t* four, int me) noexcept nogil:
    """Four bytes, one per seat, as a word whose byte k is seat ``me + k``'s (little-endian, as write_bits)."""
    cdef uint32_t x
    memcpy(&x, four, 4)
    # A rotation (the shift is 0 for me = 0): no branch on the seat, which changes at every decision
    return (x >> (8 * me)) | (x << ((32 - 8 * me) & 31))


cdef inline uint64_t kind_bits(const State* s, int lance, int me) noexcept nogil:
    """The 28 bits of a lance's envites: seven per seat (K_*) from ``me``."""
    cdef uint32_t x = by_seat(s.kinds[lance], me)
    return (x & 0x7F) | ((x >> 1) & 0x3F80) | ((x >> 2) & 0x1FC000) | ((x >> 3) & 0xFE00000)


cdef inline void write_envites(const State* s, int me, uint8_t* out, Memo* memo) noexcept nogil:
    """What each seat said in each lance (303–442: 28 bits a lance) and the largest amount it named (565–584).

    A lance nobody spoke in is skipped while its bytes are zero (``memo.lances``, bit per lance).
    """
    cdef uint32_t named, said
    cdef int lance
    for lance in range(5):
        memcpy(&said, s.kinds[lance], 4)
        if said or memo.lances >> lance & 1:
            write_bits(out + 303 + 28 * lance, kind_bits(s, lance, me), 28)
            named = by_seat(s.named[lance], me)
            memcpy(out + 565 + 4 * lance, &named, 4)
            memo.lances = (memo.lances | 1 << lance) if said else (memo.lances & ~(1 << lance))


cdef inline uint64_t signal_seen_bits(const State* s, int me) noexcept nogil:
    """Bits 485–540 (from bit 0): the señas ``me`` saw, by seña and sender (the partner's always, a rival's
    when intercepted)."""
    cdef uint64_t mask14 = (1 << SIGNALS) - 1
    cdef int partner = (me + 2) & 3, left = (me + 3) & 3, right = (me + 1) & 3
    return (spread4((s.signals_used >> (SIGNALS * partner)) & mask14, 2)
            | spread4((s.intercepted[0] >> (SIGNALS * left)) & mask14, 3)
            | spread4((s.intercepted[1] >> (SIGNALS * right)) & mask14, 1))


cdef inline void sparse(uint8_t* out, uint64_t bits, int count, Memo* memo, int region) noexcept nogil:
    """``write_bits`` for a region that is mostly zero: skipped while it is zero and was written zero."""
    if bits:
        write_bits(out, bits, count)
        memo.dirty |= region
    elif memo.dirty & region:
        memset(out, 0, count)
        memo.dirty &= ~region


cdef inline void rules_encode(const Config* cfg, const State* s, int me, uint8_t* out, Memo* memo) noexcept nogil:
    """The 585 bytes of ``features(state, me)``: 544 flags, then 41 counts (see ``mus/encoding.py``).

    With ``memo`` (the row's memory) the regions that are zero and were left zero are not rewritten.
    """
    cdef Memo scratch
    cdef int k
    cdef uint64_t tail
    if me < 0:  # a finished game kept (autoreset off): nobody to act, nothing to show
        memset(out, 0, OBS_SIZE)
        if memo != NULL:
            memo.valid = 0
        return
    if memo == NULL or not memo.valid:
        memset(out, 0, OBS_SIZE)
        if memo == NULL:
            memo = &scratch
        memo.valid = 1
        memo.dirty = 0
        memo.lances = 0
        out[543] = cfg.modalidad == 1  # the bytes that never change
        out[550] = cfg.target if cfg.target < 255 else 255
        out[551] = cfg.games_to_win if cfg.games_to_win < 255 else 255
    write_bits(out, hand_mask(s, me), 40)
    tail = 0
    for k in range(4):
        if (s.pending >> (4 * me)) >> k & 1:
            tail |= (<uint64_t>1) << s.hands[me][k]
    sparse(out + 40, tail, 40, memo, DIRTY_PENDING)
    if s.shown:
        for k in range(4):
            write_bits(out + 80 + 40 * k, hand_mask(s, (me + k) & 3), 40)
        memo.dirty |= DIRTY_SHOWN
    elif memo.dirty & DIRTY_SHOWN:
        memset(out + 80, 0, 160)
        memo.dirty &= ~DIRTY_SHOWN
    write_bits(out + 240, table_bits(s, me), 63)
    if s.bet_lance != NONE or memo.lances:  # something was said this hand (a lance started), or last time
        write_envites(s, me, out, memo)
    # The grande closes first: without its result no lance has one.
    sparse(out + 443, result_bits(s, me) if s.team_in or s.lance_result[0] else 0, 42, memo, DIRTY_RESULTS)
    sparse(out + 485, signal_seen_bits(s, me) if s.signals_used else 0, 56, memo, DIRTY_SIGNALS)
    out[541] = s.winner != NONE and ((s.winner - me) & 1) == 0
    out[542] = s.winner != NONE and ((s.winner - me) & 1) == 1
    write_counts(cfg, s, me, out)


# 11. The built-in policies (players/simple.py: SimpleBot; world.py: cuts_mus, keep_discard).


cdef inline int nth_legal(const Config* cfg, const uint64_t* legal, int k) noexcept nogil:
    """The k-th legal id (0-based, ascending)."""
    cdef int w = 0, count
    cdef uint64_t word
    while True:
        word = legal[w]
        count = popcount(word)
        if k < count:
            break
        k -= count
        w += 1
    while k:
        word &= word - 1
        k -= 1
    return 64 * w + lowest(word)


cdef inline int keep_discard(const Config* cfg, const State* s, int seat) noexcept nogil:
    """``world.keep_discard`` as positions: keep reyes and cards that pair up; else throw the weakest card."""
    cdef const uint8_t* hand = s.hands[seat]
    cdef int k, j, value, same, out = 0, best = -1, key, best_key = 0
    cdef int values[4]
    cdef int counts[4]
    for k in range(4):
        values[k] = GRANDE_VALUE[cfg.modalidad][hand[k] % 10]
    for k in range(4):
        same = 0
        for j in range(4):
            same += values[j] == values[k]
        counts[k] = same
        if not (values[k] == 12 or same >= 2):
            out |= 1 << k
    if out:
        return out
    for k in range(4):  # min over the hand of (is a rey, copies, value): the first such card
        key = (values[k] == 12) * 10000 + counts[k] * 100 + values[k]
        if best < 0 or key < best_key:
            best, best_key = k, key
    return 1 << best


cdef inline bint is_legal_id(const uint64_t* legal, int a) noexcept nogil:
    return (legal[a >> 6] >> (a & 63)) & 1


cdef inline int first_legal(const Config* cfg, const State* s) noexcept nogil:
    """``legal_actions(...)[0]``: the phase's first action (Mus; the first discard of min_discard cards; Pass or
    an answer)."""
    if s.phase == PH_MUS:
        return MUS_ID if s.mus_rounds < cfg.max_rounds else CUT_ID
    if s.phase == PH_DISCARD:
        return DISCARD_BASE + (1 << cfg.min_discard) - 1
    if s.bet_status == BS_OPEN:
        return PASS_ID
    return ACCEPT_NO_LOSE_ID if must_accept_no_lose(cfg, s, s.turn) else ACCEPT_ID


cdef inline int simple(const Config* cfg, const State* s, const uint64_t* legal) noexcept nogil:
    """``SimpleBot.act`` (its default thresholds): cut or mus, keep-discard, or speak by the hand's percentile."""
    cdef int seat = s.turn, choice, k, accept
    cdef const HandValue* v = value_of(cfg, s, seat)
    cdef double p, threshold
    if s.phase == PH_MUS:
        choice = CUT_ID if v.cuts or not is_legal_id(legal, MUS_ID) else MUS_ID
    elif s.phase == PH_DISCARD:
        if is_legal_id(legal, CUT_ID) and v.cuts:
            choice = CUT_ID
        else:
            choice = DISCARD_BASE + keep_discard(cfg, s, seat)
    else:
        k = KEY[(((s.hands[seat][0] % 10) * 10 + s.hands[seat][1] % 10) * 10 + s.hands[seat][2] % 10) * 10
                + s.hands[seat][3] % 10]
        p = PERCENTILE[cfg.modalidad][k][s.bet_lance]
        if s.bet_status == BS_OPEN:
            if p >= 0.99:
                choice = ORDAGO_ID
            else:
                choice = AMOUNT_BASE + 2 if p >= 0.8 else PASS_ID
        else:
            accept = ACCEPT_ID if is_legal_id(legal, ACCEPT_ID) else ACCEPT_NO_LOSE_ID
            if s.bet_ordago:
                choice = accept if p >= 0.8 else REJECT_ID
            else:
                choice = -1
                if p >= 0.93:  # the smallest raise offered
                    for k in range(AMOUNT_BASE + cfg.space_cap + 1, cfg.num_actions):
                        if is_legal_id(legal, k):
                            choice = k
                            break
                if choice < 0:
                    threshold = 0.6 + min(0.2, 0.02 * s.bet_total)
                    choice = accept if p >= threshold else REJECT_ID
    if choice < cfg.num_actions and is_legal_id(legal, choice):
        return choice
    return first_legal(cfg, s)


cdef inline int rules_policy(const Config* cfg, const State* s, int policy, const uint64_t* legal,
                             uint64_t* prng) noexcept nogil:
    cdef int count = 0, w
    if policy == 1:
        return simple(cfg, s, legal)
    for w in range(cfg.legal_words):
        count += popcount(legal[w])
    return nth_legal(cfg, legal, uniform(prng, count))


# 12. Python level.

#: Integer options the core plays: every value the game accepts up to 10,000 (the counts fit 16 bits).
_INTS = range(1, 10_001)
#: What the core supports of ``MusGameOptions`` (dotted names; ``unsupported`` adds the amount cap): every option,
#: every value the game accepts, integers up to 10,000.
SUPPORTED = {
    "players": (4,), "modalidad": ("8R8A", "4R"),
    "scoring.target": _INTS, "scoring.negada": _INTS, "scoring.grande_en_paso": _INTS,
    "scoring.chica_en_paso": _INTS, "scoring.par": _INTS, "scoring.medias": _INTS, "scoring.duples": _INTS,
    "scoring.juego_31": _INTS, "scoring.juego_otro": _INTS, "scoring.punto": _INTS,
    "scoring.negada_ends_game": (True, False), "scoring.deje_en_el_acto": (True, False),
    "scoring.ordago_cancels_earlier_bets": (True, False), "scoring.team_is_in_margin": range(0, 10_001),
    "betting.min_bet": _INTS, "betting.raise_rule": ("any", "double"), "betting.max_bet": _INTS,
    "mus.min_discard": (1, 2, 3, 4), "mus.cut_anytime_a_falta": (True, False), "mus.max_rounds": range(0, 10_001),
    "match.games_to_win": _INTS,
    "signals.enabled": (True, False), "signals.interception_p": float,
}


def unsupported(options):
    """What ``SUPPORTED`` cannot say: the action space must fit the core's 1,024 ids (an amount cap up to 494)."""
    bt = options.betting
    cap = max(bt.min_bet, bt.max_bet)
    if bt.raise_rule == "double":
        cap = max(cap, options.scoring.target)
    if cap > CAP_MAX:
        what = "betting.max_bet" if bt.raise_rule == "any" or cap == max(bt.min_bet, bt.max_bet) else \
            "scoring.target (with betting.raise_rule='double')"
        return [f"{what}: an amount cap of {cap} (the core's action space holds amounts up to {CAP_MAX})"]
    return []


cdef Config rules_config(object options, dict flags) except *:
    """The Config of ``options`` with the core's flags: ``rewards`` ("game" or "round"); for tests only,
    ``defect`` (a planted rule defect: 1 a juego of 31 scores as any other, 2 the deck rebuilt from the
    discards is not shuffled, 3 the postre holding 33 accepts an órdago a juego plainly, 4 the first
    "no quiero" closes the lance, 5 a par scores 2)."""
    cdef Config cfg
    cdef int positions
    memset(&cfg, 0, sizeof(Config))
    rewards = flags.pop("rewards", "game")
    defect = flags.pop("defect", 0)
    if flags:
        raise ValueError(f"the mus core has no flag {', '.join(sorted(flags))}")
    if rewards not in ("game", "round"):
        raise ValueError(f"rewards must be 'game' or 'round', not {rewards!r}")
    problems = unsupported(options)
    if problems or options.players != 4:
        raise ValueError(f"the mus core cannot play these options: {'; '.join(problems) or 'players'}")
    sc, bt, mu = options.scoring, options.betting, options.mus
    cfg.players = 4
    cfg.obs_size = OBS_SIZE
    cfg.reward_round = rewards == "round"
    cfg.space_cap = max(bt.min_bet, bt.max_bet)
    if bt.raise_rule == "double":
        cfg.space_cap = max(cfg.space_cap, sc.target)
    cfg.num_actions = AMOUNT_BASE + 1 + 2 * cfg.space_cap
    cfg.legal_words = (cfg.num_actions + 63) // 64
    cfg.modalidad = 1 if options.modalidad == "4R" else 0
    cfg.target = sc.target
    cfg.negada = sc.negada
    cfg.en_paso[0], cfg.en_paso[1] = sc.grande_en_paso, sc.chica_en_paso
    cfg.pares_value[0], cfg.pares_value[1], cfg.pares_value[2], cfg.pares_value[3] = 0, sc.par, sc.medias, sc.duples
    cfg.juego_31 = sc.juego_31 if defect != 1 else sc.juego_otro
    cfg.juego_otro = sc.juego_otro
    cfg.punto = sc.punto
    cfg.negada_ends_game = sc.negada_ends_game
    cfg.deje_en_el_acto = sc.deje_en_el_acto
    cfg.ordago_cancels = sc.ordago_cancels_earlier_bets
    cfg.margin = sc.team_is_in_margin
    cfg.min_bet = bt.min_bet
    cfg.max_bet = bt.max_bet
    cfg.double_raise = bt.raise_rule == "double"
    cfg.min_discard = mu.min_discard
    cfg.cut_anytime_a_falta = mu.cut_anytime_a_falta
    cfg.max_rounds = mu.max_rounds
    cfg.games_to_win = options.match.games_to_win
    cfg.signals = options.signals.enabled
    cfg.interception_p = options.signals.interception_p
    cfg.discard_bits = 0
    for positions in range(1, 16):
        if popcount(positions) >= cfg.min_discard:
            cfg.discard_bits |= (<uint64_t>1) << (DISCARD_BASE + positions)
    cfg.defect = defect
    return cfg


cdef object rules_dump(const Config* cfg, const State* s):
    """The state in ``MusState``'s terms (tuples, names, None); the envites as the encoding reads them."""
    cdef int k, j
    raw = {"rng": s.rng, "signals_used": s.signals_used, "intercepted": [s.intercepted[0], s.intercepted[1]],
           "hand_no": s.hand_no, "tanteo": [s.tanteo[0], s.tanteo[1]], "games": [s.games[0], s.games[1]],
           "game_no": s.game_no, "mus_rounds": s.mus_rounds, "bet_total": s.bet_total, "bet_before": s.bet_before,
           "pending": s.pending, "declared": s.declared, "pile_len": s.pile_len, "phase": s.phase,
           "dealer": s.dealer, "turn": s.turn, "mus_count": s.mus_count, "bet_lance": s.bet_lance,
           "bet_status": s.bet_status, "bet_speakers": s.bet_speakers, "bet_position": s.bet_position,
           "bet_bettor": s.bet_bettor, "bet_responders": s.bet_responders,
           "bet_resp": [s.bet_resp[0], s.bet_resp[1]], "bet_ordago": s.bet_ordago, "shown": s.shown,
           "team_in": s.team_in, "winner": s.winner, "game_winner": s.game_winner, "reason": s.reason,
           "reason_pair": s.reason_pair}
    raw["lance_amount"] = [s.lance_amount[k] for k in range(5)]
    raw["lance_result"] = [s.lance_result[k] for k in range(5)]
    raw["discard_counts"] = [s.discard_counts[k] for k in range(4)]
    raw["stock"] = [s.stock[k] for k in range(STOCK)]
    raw["hands"] = [[s.hands[k][j] for j in range(4)] for k in range(4)]
    raw["kinds"] = [[s.kinds[k][j] for j in range(4)] for k in range(5)]
    raw["named"] = [[s.named[k][j] for j in range(4)] for k in range(5)]
    return _view(raw, cfg.target)


def _view(dict s, int target):
    """``rules_dump`` of the struct's fields ``s``."""
    m = (s["dealer"] + 1) & 3
    order = [(m + k) & 3 for k in range(4)]
    hands = tuple([tuple(h) for h in s["hands"]])
    pending = []
    for seat in range(4):
        positions = (s["pending"] >> (4 * seat)) & 15
        pending.append(tuple([hands[seat][k] for k in range(4) if positions >> k & 1]) if positions else None)
    betting = None
    if s["bet_lance"] != NONE:
        betting = (LANCE_NAMES[s["bet_lance"]], STATUS_NAMES[s["bet_status"]],
                   tuple([x for x in order if s["bet_speakers"] >> x & 1]), s["bet_position"],
                   None if s["bet_bettor"] == NONE else s["bet_bettor"],
                   tuple(s["bet_resp"][:s["bet_responders"]]), s["bet_total"], s["bet_before"], bool(s["bet_ordago"]))
    results = []
    for lance in range(5):
        code = s["lance_result"][lance]
        if code:
            status, pair, amount = (code & 15) - 1, (code >> 4) - 1, s["lance_amount"][lance]
            results.append((LANCE_NAMES[lance], RESULT_NAMES[status], amount if status == R_ACCEPTED else 0,
                            None if pair < 0 else pair, amount if status == R_REJECTED else 0))
    declared = []
    for shift in (0, 8):
        declared.append(tuple([True if s["declared"] >> (shift + seat) & 1 else
                               False if s["declared"] >> (shift + 4 + seat) & 1 else None for seat in range(4)]))
    said = frozenset([(LANCE_NAMES[lance], seat, KIND_NAMES[k]) for lance in range(5) for seat in range(4)
                      for k in range(7) if s["kinds"][lance][seat] >> k & 1])
    used = frozenset([(seat, SIGNAL_NAMES[k]) for seat in range(4) for k in range(SIGNALS)
                      if s["signals_used"] >> (SIGNALS * seat + k) & 1])
    seen = []
    for seat in range(4):
        notes = {(sender, name, False) for sender, name in used if sender == (seat + 2) & 3}
        for j, sender in ((0, (seat + 3) & 3), (1, (seat + 1) & 3)):
            notes |= {(sender, SIGNAL_NAMES[k], True) for k in range(SIGNALS)
                      if s["intercepted"][j] >> (SIGNALS * sender + k) & 1}
        seen.append(frozenset(notes))
    reason = ""
    if s["reason"] != NONE:
        reason = f"pair {'AB'[s['reason_pair']]} reached {target} ({REASONS[s['reason'] // 5]} a {LANCE_NAMES[s['reason'] % 5]})"
    return {
        "phase": PHASE_NAMES[s["phase"]], "rng": s["rng"], "dealer": s["dealer"], "hand_no": s["hand_no"],
        "game_no": s["game_no"], "tanteo": tuple(s["tanteo"]), "games": tuple(s["games"]),
        "hands": hands, "deck": tuple(s["stock"][s["pile_len"]:STOCK]), "discards": tuple(s["stock"][:s["pile_len"]]),
        "mus_rounds": s["mus_rounds"], "turn": None if s["turn"] == NONE else s["turn"], "mus_count": s["mus_count"],
        "pending": tuple(pending), "discard_counts": tuple(s["discard_counts"]), "betting": betting,
        "results": tuple(results), "declared_pares": declared[0], "declared_juego": declared[1],
        "shown": bool(s["shown"]), "said": said, "named": tuple([x for row in s["named"] for x in row]),
        "signals_used": used, "signals_seen": tuple(seen),
        "team_in": (bool(s["team_in"] & 1), bool(s["team_in"] & 2)),
        "winner": None if s["winner"] == NONE else s["winner"],
        "game_winner": None if s["game_winner"] == NONE else s["game_winner"], "game_over_reason": reason,
    }


def describe_id(state, int action_id, options):
    """The action of ``action_id`` in its text form for the seat to act in ``state`` (a ``Core.state`` dict)."""
    from cardtable.cards import SPANISH_40

    cap = max(options.betting.min_bet, options.betting.max_bet)
    if options.betting.raise_rule == "double":
        cap = max(cap, options.scoring.target)
    words = {MUS_ID: "mus", CUT_ID: "cut", PASS_ID: "pass", ACCEPT_ID: "accept", ACCEPT_NO_LOSE_ID: "accept-no-lose",
             REJECT_ID: "reject", ORDAGO_ID: "ordago"}
    if action_id in words:
        return words[action_id]
    if action_id < PASS_ID:
        if state["turn"] is None:
            return f"discard of positions {action_id - DISCARD_BASE}"
        hand = state["hands"][state["turn"]]
        return "discard " + SPANISH_40.format([c for k, c in enumerate(hand) if (action_id - DISCARD_BASE) >> k & 1])
    if action_id < SIGNAL_BASE + SIGNALS:
        return f"signal {SIGNAL_NAMES[action_id - SIGNAL_BASE]}"
    amount = action_id - AMOUNT_BASE
    return f"bet {amount}" if amount <= cap else f"raise {amount - cap}"


include "_batch.pxi"
