# Included by _fast.pyx: the particle filter in C (particles.advance; ParticleFilter._build with construct, _fill,
# replay, _turn, ruled_out), drawing from the filter's ``random.Random`` as the Python does.


cdef inline bint is_endgame(const int* counts, int players, int seat) noexcept nogil:
    """``particles.is_endgame``: another seat holds ``ENDGAME_CARDS`` cards or fewer."""
    cdef int s
    for s in range(players):
        if s != seat and counts[s] <= ENDGAME:
            return True
    return False


cdef inline uint64_t ruled_out(int card, int top, int suit, bint endgame) noexcept nogil:
    """``particles.ruled_out`` (with ``reading.play_reveals``): what a heuristic player cannot have held."""
    cdef uint64_t match = MATCH[top * 4 + suit]
    if bit(card) & EIGHTS:
        return (0 if endgame else match & PLAIN_ALL) | (EIGHTS & (bit(card) - 1))
    return (match & PREFERRED[card]) | (EIGHTS if endgame else 0)


cdef class Story:
    """The segments from the root on and their orders of play, as C arrays; and the slots one attempt fills."""

    cdef int nseg, players, me, deal_size, draw_until, has_root_counts, cap, nturns
    cdef int root_counts[MAXP]
    cdef uint64_t never, unseen
    # Per segment.
    cdef int* nseats
    cdef int* off          # into seats and changes
    cdef int* top
    cdef int* suit
    cdef int* end_top
    cdef int* end_suit
    cdef int* plan_start
    cdef int* plan_count
    cdef uint64_t* new
    cdef int* seats
    cdef int* changes
    cdef int* counts       # players per segment
    # Per order of play.
    cdef int* plan_starter
    cdef int* plan_off     # into move_card and move_named
    cdef int* move_card
    cdef int* move_named
    # An attempt's slots (cap of them), hands of slots per seat, and turns.
    cdef uint64_t* forbid
    cdef int* card
    cdef int* owner
    cdef uint8_t* dealt
    cdef int* live         # players * cap
    cdef int* scratch      # cap
    cdef int* keys         # cap
    cdef int* turn_first
    cdef int* turn_count

    def __cinit__(self) -> None:
        self.nseats = self.off = self.top = self.suit = self.end_top = self.end_suit = NULL
        self.plan_start = self.plan_count = self.seats = self.changes = self.counts = NULL
        self.plan_starter = self.plan_off = self.move_card = self.move_named = NULL
        self.card = self.owner = self.live = self.scratch = self.keys = self.turn_first = self.turn_count = NULL
        self.new = self.forbid = NULL
        self.dealt = NULL

    def __dealloc__(self) -> None:
        free(self.nseats); free(self.off); free(self.top); free(self.suit); free(self.end_top)
        free(self.end_suit); free(self.plan_start); free(self.plan_count); free(self.seats); free(self.changes)
        free(self.counts); free(self.plan_starter); free(self.plan_off); free(self.move_card)
        free(self.move_named); free(self.card); free(self.owner); free(self.live); free(self.scratch)
        free(self.keys); free(self.turn_first); free(self.turn_count); free(self.new); free(self.forbid)
        free(self.dealt)

    cdef void* _alloc(self, size_t count, size_t size) except NULL:
        cdef void* p = malloc(max(<size_t>1, count) * size)
        if p == NULL:
            raise MemoryError()
        return p

    def __init__(self, segments: list, plans: list, me: int, players: int, deal_size: int, unseen: int,
                 draw_until: bool, root_counts: object, never: int) -> None:
        cdef int q, j, s, p, nplans = 0, nmoves = 0, nturns = 0, cap = 0, at = 0, pat = 0, mat = 0
        if not 2 <= players <= MAXP or len(segments) != len(plans):
            raise ValueError(f"a story has 2 to {MAXP} seats and one list of plans per segment")
        self.nseg, self.players, self.me, self.deal_size = len(segments), players, me, deal_size
        self.draw_until, self.unseen, self.never = draw_until, unseen, never
        self.has_root_counts = root_counts is not None
        for s in range(players):
            self.root_counts[s] = root_counts[s] if root_counts is not None else deal_size
            if s != me:
                cap += self.root_counts[s]
        for seg, seg_plans in zip(segments, plans):
            nturns += len(seg.seats)
            nplans += len(seg_plans)
            nmoves += len(seg.seats) * len(seg_plans)
            for change in seg.changes:
                cap += max(0, change) + 1
        self.cap, self.nturns = cap, nturns
        n = self.nseg
        self.nseats, self.off = <int*>self._alloc(n, sizeof(int)), <int*>self._alloc(n, sizeof(int))
        self.top, self.suit = <int*>self._alloc(n, sizeof(int)), <int*>self._alloc(n, sizeof(int))
        self.end_top, self.end_suit = <int*>self._alloc(n, sizeof(int)), <int*>self._alloc(n, sizeof(int))
        self.plan_start, self.plan_count = <int*>self._alloc(n, sizeof(int)), <int*>self._alloc(n, sizeof(int))
        self.new = <uint64_t*>self._alloc(n, sizeof(uint64_t))
        self.seats, self.changes = <int*>self._alloc(nturns, sizeof(int)), <int*>self._alloc(nturns, sizeof(int))
        self.counts = <int*>self._alloc(n * players, sizeof(int))
        self.plan_starter, self.plan_off = <int*>self._alloc(nplans, sizeof(int)), <int*>self._alloc(nplans, sizeof(int))
        self.move_card, self.move_named = <int*>self._alloc(nmoves, sizeof(int)), <int*>self._alloc(nmoves, sizeof(int))
        self.forbid = <uint64_t*>self._alloc(cap, sizeof(uint64_t))
        self.card, self.owner = <int*>self._alloc(cap, sizeof(int)), <int*>self._alloc(cap, sizeof(int))
        self.dealt = <uint8_t*>self._alloc(cap, sizeof(uint8_t))
        self.live = <int*>self._alloc(cap * players, sizeof(int))
        self.scratch, self.keys = <int*>self._alloc(cap, sizeof(int)), <int*>self._alloc(cap, sizeof(int))
        self.turn_first, self.turn_count = <int*>self._alloc(nturns, sizeof(int)), <int*>self._alloc(nturns, sizeof(int))
        for q, (seg, seg_plans) in enumerate(zip(segments, plans)):
            if len(seg.changes) != len(seg.seats) or len(seg.counts) != players:
                raise ValueError("a segment has a change per seat and every seat's count")
            self.nseats[q], self.off[q] = len(seg.seats), at
            self.top[q], self.suit[q], self.end_top[q], self.end_suit[q] = seg.top, seg.suit, seg.end_top, seg.end_suit
            self.new[q] = seg.after & ~seg.before
            for j in range(len(seg.seats)):
                self.seats[at + j], self.changes[at + j] = seg.seats[j], seg.changes[j]
            at += len(seg.seats)
            for s in range(players):
                self.counts[q * players + s] = seg.counts[s]
            self.plan_start[q], self.plan_count[q] = pat, len(seg_plans)
            for starter, moves in seg_plans:
                if len(moves) != len(seg.seats):
                    raise ValueError("an order of play has a move per seat")
                self.plan_starter[pat], self.plan_off[pat] = starter, mat
                for j, (c, named) in enumerate(moves):
                    self.move_card[mat + j], self.move_named[mat + j] = c, named
                mat += len(moves)
                pat += 1

    cdef int add(self, int* nslots, int seat, uint64_t forbid, bint dealt) noexcept nogil:
        """``_Slots.add``: a new empty slot of ``seat``'s hand; its index."""
        cdef int i = nslots[0]
        self.forbid[i], self.card[i], self.owner[i], self.dealt[i] = forbid, -1, seat, dealt
        nslots[0] = i + 1
        return i

    cdef int construct(self, Twister* g, uint64_t* hands) noexcept nogil:
        """``particles.construct``: 1 and the hands now if this attempt explains the story, 0 if not, -1 if a
        segment has no order of play (the Python raises IndexError there)."""
        cdef int nslots = 0, turns = 0, s, i, q, j, k, seat, change, c, named, top = 0, suit = 0, plan, slot
        cdef int starter = -1, first, count, size, ne
        cdef int counts[MAXP]
        cdef int live_len[MAXP]
        cdef int* hand
        cdef uint64_t match, lacks
        cdef bint endgame
        cdef int P = self.players, cap = self.cap
        for s in range(P):
            live_len[s] = 0
            if s != self.me:
                size = self.root_counts[s]
                for i in range(size):
                    self.live[s * cap + live_len[s]] = self.add(&nslots, s, 0, True)
                    live_len[s] += 1
        for q in range(self.nseg):
            if self.plan_count[q] == 0:
                return -1
            plan = self.plan_start[q] + <int>(draw(g) * self.plan_count[q])
            if self.top[q] < 0:
                starter = self.plan_starter[plan]
                top, suit = starter, starter // 13
            else:
                top, suit = self.top[q], self.suit[q]
            for s in range(P):
                counts[s] = self.counts[q * P + s]
            for j in range(self.nseats[q]):
                seat, change = self.seats[self.off[q] + j], self.changes[self.off[q] + j]
                c, named = self.move_card[self.plan_off[plan] + j], self.move_named[self.plan_off[plan] + j]
                match = MATCH[top * 4 + suit]
                endgame = is_endgame(counts, P, seat)
                counts[seat] += change
                hand = self.live + seat * cap
                if change == -1:
                    if c < 0:
                        return 0  # unreachable: plans_of gives every seat that played a card
                    ne = 0
                    for i in range(live_len[seat]):
                        if not self.forbid[hand[i]] & bit(c):
                            self.scratch[ne] = hand[i]
                            ne += 1
                    if ne == 0:
                        return 0
                    slot = self.scratch[<int>(draw(g) * ne)]
                    self.card[slot] = c
                    k = 0
                    for i in range(live_len[seat]):  # list.remove: the rest keep their order
                        if hand[i] != slot:
                            hand[k] = hand[i]
                            k += 1
                    live_len[seat] = k
                    lacks = ruled_out(c, top, suit, endgame) if DEFECT != 4 else 0
                    for i in range(k):
                        self.forbid[hand[i]] |= lacks
                    self.turn_first[turns], self.turn_count[turns] = 0, 0
                else:
                    for i in range(live_len[seat]):
                        self.forbid[hand[i]] |= match
                    first = nslots
                    for i in range(change):
                        hand[live_len[seat]] = self.add(&nslots, seat, match | self.never, False)
                        live_len[seat] += 1
                    if c >= 0 and bit(c) & self.never:
                        return 0
                    count = change if change > 0 else 0
                    if c >= 0:
                        self.card[self.add(&nslots, seat, 0, False)] = c
                        count += 1
                    self.turn_first[turns], self.turn_count[turns] = first, count
                turns += 1
                if c >= 0:
                    top, suit = c, named
        if not self.fill(g, nslots):
            return 0
        for s in range(P):
            hands[s] = 0
        for i in range(nslots):
            if self.dealt[i]:
                hands[self.owner[i]] |= bit(self.card[i])
        return self.replay(hands, starter, turns)

    cdef bint fill(self, Twister* g, int nslots) noexcept nogil:
        """``particles._fill``: every empty slot an unseen card it may be, the most constrained first."""
        cdef uint64_t pool = self.unseen, allowed, rest = self.never & self.unseen
        cdef int cards[DECK]
        cdef int m = 0, i, j, c, nf, ne = 0, key
        if self.never:
            while rest:
                cards[m] = ctz(rest)
                m += 1
                rest &= rest - 1
            for i in range(m - 1, 0, -1):  # _shuffled
                j = <int>(draw(g) * (i + 1))
                cards[i], cards[j] = cards[j], cards[i]
            for j in range(m):
                c = cards[j]
                nf = 0
                for i in range(nslots):
                    if self.card[i] < 0 and self.dealt[i] and not self.forbid[i] & bit(c):
                        self.scratch[nf] = i
                        nf += 1
                if nf:
                    self.card[self.scratch[<int>(draw(g) * nf)]] = c
                    pool ^= bit(c)
        for i in range(nslots):
            if self.card[i] < 0:
                key = popcount(pool & ~self.forbid[i])
                j = ne  # a stable insertion sort by the count of cards the slot may take (list.sort)
                while j > 0 and self.keys[j - 1] > key:
                    self.scratch[j], self.keys[j] = self.scratch[j - 1], self.keys[j - 1]
                    j -= 1
                self.scratch[j], self.keys[j] = i, key
                ne += 1
        for j in range(ne):
            i = self.scratch[j]
            allowed = pool & ~self.forbid[i]
            if not allowed:
                return False
            c = nth_card(allowed, <int>(draw(g) * popcount(allowed)))
            self.card[i] = c
            pool ^= bit(c)
        return True

    cdef int replay(self, uint64_t* hands, int starter, int turns) noexcept nogil:
        """``particles.replay``: 1 if the heuristic's rule explains every segment (``hands`` then hold the hands now)."""
        cdef uint64_t used = 0, held, nw, match, playable
        cdef int counts[MAXP]
        cdef int q, j, i, s, k = 0, seat, change, top, suit, c, named, first, count, need, kept, last
        cdef int P = self.players
        cdef bint plays
        for q in range(self.nseg):
            if self.top[q] < 0:
                if starter < 0 or not self.new[q] & bit(starter):
                    return 0
                top, suit, nw = starter, starter // 13, self.new[q] ^ bit(starter)
            else:
                top, suit, nw = self.top[q], self.suit[q], self.new[q]
            for s in range(P):
                counts[s] = self.counts[q * P + s]
            for j in range(self.nseats[q]):
                seat, change = self.seats[self.off[q] + j], self.changes[self.off[q] + j]
                if k >= turns:
                    return 0
                first, count = self.turn_first[k], self.turn_count[k]
                k += 1
                held = 0
                for s in range(P):
                    held |= hands[s]
                for i in range(first, first + count):
                    c = self.card[i]
                    if (used | held) & bit(c):
                        return 0  # a card drawn twice, or drawn while someone held it
                    used |= bit(c)
                # _turn: one seat's turn by the heuristic's rule, given the cards it drew.
                match = MATCH[top * 4 + suit]
                playable = hands[seat] & match
                if playable:
                    if change != -1:
                        return 0
                    c = choose(hands[seat], playable, is_endgame(counts, P, seat), &named)
                    if not nw & bit(c):
                        return 0
                    hands[seat] ^= bit(c)
                    top, suit, nw = c, named, nw ^ bit(c)
                else:
                    if change < 0:
                        return 0
                    plays = self.draw_until or change == 0
                    need = change + 1 if plays else change
                    if count != need or (not plays and count == 0) or (not self.draw_until and count != 1):
                        return 0
                    kept = count - 1 if plays else count
                    for i in range(first, first + kept):
                        c = self.card[i]
                        if (match | nw) & bit(c):
                            return 0
                        hands[seat] |= bit(c)
                    if plays:
                        last = self.card[first + count - 1]
                        if not (match & bit(last) and nw & bit(last)):
                            return 0
                        named = best_suit(hands[seat] | bit(last)) if bit(last) & EIGHTS else last // 13
                        top, suit, nw = last, named, nw ^ bit(last)
                counts[seat] += change
            if nw or top != self.end_top[q] or suit != self.end_suit[q]:
                return 0
        return 1 if k == turns else 0


def build_particles(rnd: object, segments: list, plans: list, me: int, players: int, deal_size: int,
                    unseen: int, draw_until: bool, root_counts: object, never: int, particles: list, size: int,
                    attempts: int, deadline: float) -> tuple:
    """``ParticleFilter._build``'s loop: up to ``attempts`` hypotheses tried until ``particles`` holds ``size``;
    (attempts made, particles built). ``segments`` and ``plans`` start at the root."""
    cdef Story story = Story(segments, plans, me, players, deal_size, unseen, draw_until, root_counts, never)
    cdef Twister g
    cdef uint64_t hands[MAXP]
    cdef uint64_t held
    cdef int k, s, out, tried = 0, made = 0, have = len(particles)
    cdef bint timed = isfinite(deadline)
    perf = time.perf_counter
    take(&g, rnd)
    try:
        for k in range(attempts):
            if have >= size or (k & 15 == 15 and timed and perf() >= deadline):
                break
            tried += 1
            out = story.construct(&g, hands)
            if out < 0:
                raise IndexError("a segment after the root has no order of play")
            if out:
                made += 1
                held = 0
                for s in range(players):
                    held |= hands[s]
                particles.append(([hands[s] for s in range(players)], unseen & ~held))
                have += 1
    finally:
        give_back(&g, rnd)
    return tried, made


cdef inline int pick(uint64_t mask, Twister* g) noexcept nogil:
    """``particles._pick_bit``: a card of ``mask`` (not 0) at random."""
    return nth_card(mask, <int>(draw(g) * popcount(mask)))


cdef bint advance_one(uint64_t* hands, uint64_t* stock_io, int players, const int* seats, const int* changes,
                      const int* seg_counts, int nseats, int seg_top, int seg_suit, uint64_t before, uint64_t after,
                      int end_top, int end_suit, bint draw_until, Twister* g) noexcept nogil:
    """``particles.advance`` (``hands`` and ``stock`` changed in place): False if the particle does not explain it."""
    cdef uint64_t stock = stock_io[0], discards = before & ~bit(seg_top), hand, match, playable, quiet, ready
    cdef int counts[MAXP]
    cdef int top = seg_top, suit = seg_suit, j, i, seat, change, card, named
    for j in range(players):
        counts[j] = seg_counts[j]
    for j in range(nseats):
        seat, change = seats[j], changes[j]
        hand = hands[seat]
        match = MATCH[top * 4 + suit]
        playable = hand & match
        if playable:
            if change != -1:
                return False
            card = choose(hand, playable, is_endgame(counts, players, seat), &named)
        else:
            if change < 0 or (not draw_until and change > 1):
                return False
            for i in range(change):
                if not stock:
                    stock, discards = discards, 0
                quiet = stock & ~match & ~after
                if not quiet:
                    return False
                card = pick(quiet, g)
                stock ^= bit(card)
                hand |= bit(card)
            if (not stock and not discards) or (not draw_until and change == 1):
                hands[seat] = hand  # it passed
                counts[seat] += change
                continue
            if not stock:
                stock, discards = discards, 0
            ready = stock & match & (after if DEFECT != 5 else ~(<uint64_t>0))
            if not ready:
                return False
            card = pick(ready, g)
            stock ^= bit(card)
            hand |= bit(card)
            named = best_suit(hand) if bit(card) & EIGHTS else card // 13
        hands[seat] = hand ^ bit(card)
        discards |= bit(top)
        top, suit = card, named
        counts[seat] += change
    stock_io[0] = stock
    return (discards | bit(top)) == after and top == end_top and suit == end_suit


def advance_all(particles: list, seg: object, rnd: object, draw_until: bool) -> list:
    """``particles.advance`` of every particle through ``seg`` (its top card known), in order: the survivors."""
    cdef int seats[MAXP]
    cdef int changes[MAXP]
    cdef int counts[MAXP]
    cdef uint64_t hands[MAXP]
    cdef uint64_t stock
    cdef Twister g
    cdef int nseats = len(seg.seats), players = len(seg.counts), j
    if not 2 <= players <= MAXP or nseats >= players or len(seg.changes) != nseats or not 0 <= seg.top < DECK:
        raise ValueError("a segment of other seats' turns, its top card known")
    for j in range(nseats):
        seats[j], changes[j] = seg.seats[j], seg.changes[j]
    for j in range(players):
        counts[j] = seg.counts[j]
    before, after = seg.before, seg.after
    out = []
    take(&g, rnd)
    try:
        for particle_hands, particle_stock in particles:
            for j in range(players):
                hands[j] = particle_hands[j]
            stock = particle_stock
            if advance_one(hands, &stock, players, seats, changes, counts, nseats, seg.top, seg.suit, before, after,
                           seg.end_top, seg.end_suit, draw_until, &g):
                out.append(([hands[j] for j in range(players)], stock))
    finally:
        give_back(&g, rnd)
    return out
