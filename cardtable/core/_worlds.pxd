# cython: language_level=3
"""``core.worlds.deal_hidden`` in C, for the compiled search loops: the same deals from the same ``random.Random`` draws.

Cimported (inline) by the compiled modules whose bots sample worlds. ``deal_hidden`` shuffles the
hidden cards (``Random.shuffle``, at most ``tries`` times, the pool kept from one try to the next)
until every place avoids its forbidden cards, then tries ``_build``: the cards ordered by how many
places may take them (ties by one ``random()`` each, drawn in pool order), each given to a place
chosen by ``Random.choices`` weighted by the room left; then ``complete``: card by card in pool order, each
to a place (``Random.choices`` by room) from which the rest can still be dealt (Hall's condition). Deals
come out as one mask per place.
"""

from libc.stdint cimport uint8_t, uint64_t
from libc.string cimport memcpy

from cardtable.core._twister cimport Twister, shuffle_u8
from cardtable.core._twister cimport random as _draw

cdef enum:
    MAX_PLACES = 8
    MAX_SUBSETS = 256  # 1 << MAX_PLACES
    MAX_HIDDEN = 64
    DEAL_TRIES = 100  # deal_hidden's default


cdef struct Places:
    int count              # places (the other hands, the stock)
    int size[MAX_PLACES]
    uint64_t forbidden[MAX_PLACES]
    int ncards
    uint8_t cards[MAX_HIDDEN]  # the hidden cards, in the caller's order
    int tries


cdef inline int fill_places(Places* pl, object cards, object places) except -1:
    """Read ``deal_hidden``'s arguments; ``NoConsistentWorld`` as it raises it when the sizes do not add up."""
    from cardtable.core.worlds import NoConsistentWorld
    cdef int j, total = 0
    cdef bint constrained = False
    if not 1 <= len(places) <= MAX_PLACES or len(cards) > MAX_HIDDEN:
        raise ValueError(f"1 to {MAX_PLACES} places for at most {MAX_HIDDEN} hidden cards")
    sizes = []  # (no generator expressions in an inline function of a .pxd)
    for j in range(len(places)):
        size, forbidden = places[j]
        sizes.append(size)
        total += size
        constrained |= bool(forbidden)
        pl.size[j], pl.forbidden[j] = size, forbidden
    if total != len(cards):
        raise NoConsistentWorld(f"{len(cards)} hidden cards do not fill places of sizes {sizes}")
    pl.count, pl.ncards = len(places), len(cards)
    pl.tries = DEAL_TRIES if constrained else 1
    for j in range(pl.ncards):
        pl.cards[j] = cards[j]
    return 0


cdef inline void give(Twister* g, int c, const int* options, const int* cum, int nopt, int total, int* room,
                      uint64_t* out) noexcept nogil:
    """Card ``c`` to one of ``options`` drawn by ``rng.choices(options, weights=rooms)`` (``cum``: the rooms'
    running sums; bisect_right on them, hi = n - 1), its room taken."""
    cdef double x = _draw(g) * <double>total
    cdef int k = 0, j
    while k < nopt - 1 and not x < cum[k]:
        k += 1
    j = options[k]
    out[j] |= <uint64_t>1 << c
    room[j] -= 1


cdef inline int build(const Places* pl, const uint8_t* pool, Twister* g, uint64_t* out) noexcept nogil:
    """``_build``: card by card, most constrained first, places weighted by their room; 0 if stuck."""
    cdef int n = pl.ncards, i, j, c, key, nopt, total
    cdef uint8_t order[MAX_HIDDEN]
    cdef int nallowed[MAX_HIDDEN]
    cdef double rnd[MAX_HIDDEN]
    cdef double x
    cdef int room[MAX_PLACES]
    cdef int options[MAX_PLACES]
    cdef int cum[MAX_PLACES]
    for i in range(n):  # sorted(cards, key=(len(allowed[c]), rng.random())): the draws in pool order
        c = pool[i]
        key = 0
        for j in range(pl.count):
            if not pl.forbidden[j] >> c & 1:
                key += 1
        x = _draw(g)
        j = i  # a stable insertion sort
        while j > 0 and (nallowed[j - 1] > key or (nallowed[j - 1] == key and rnd[j - 1] > x)):
            order[j], nallowed[j], rnd[j] = order[j - 1], nallowed[j - 1], rnd[j - 1]
            j -= 1
        order[j], nallowed[j], rnd[j] = <uint8_t>c, key, x
    for j in range(pl.count):
        room[j] = pl.size[j]
        out[j] = 0
    for i in range(n):
        c = order[i]
        nopt = 0
        total = 0
        for j in range(pl.count):
            if not pl.forbidden[j] >> c & 1 and room[j]:
                options[nopt] = j
                total += room[j]
                cum[nopt] = total
                nopt += 1
        if nopt == 0:
            return 0
        give(g, c, options, cum, nopt, total, room, out)
    return 1


cdef inline bint completable(const uint8_t* allowed, int n, const int* room, int count) noexcept nogil:
    """``_completable``: every set of places has room for the cards that may go nowhere else."""
    cdef int counts[MAX_SUBSETS]
    cdef uint8_t masks[MAX_SUBSETS]
    cdef int distinct = 0, subset, i, need, space
    for i in range(1 << count):
        counts[i] = 0
    for i in range(n):
        if counts[allowed[i]] == 0:
            masks[distinct] = allowed[i]
            distinct += 1
        counts[allowed[i]] += 1
    for subset in range(1 << count):
        need = 0
        for i in range(distinct):
            if not masks[i] & ~subset:
                need += counts[masks[i]]
        space = 0
        for i in range(count):
            if subset >> i & 1:
                space += room[i]
        if need > space:
            return False
    return True


cdef inline int complete(const Places* pl, const uint8_t* pool, Twister* g, uint64_t* out) noexcept nogil:
    """``_complete``: card by card in pool order, each to a place (weighted by its room) that keeps the rest
    dealable; 0 if no consistent deal exists."""
    cdef uint8_t allowed[MAX_HIDDEN]
    cdef int room[MAX_PLACES]
    cdef int options[MAX_PLACES]
    cdef int cum[MAX_PLACES]
    cdef int n = pl.ncards, i, j, c, nopt, total
    for i in range(n):
        allowed[i] = 0
        for j in range(pl.count):
            if not pl.forbidden[j] >> pool[i] & 1:
                allowed[i] |= 1 << j
    for j in range(pl.count):
        room[j] = pl.size[j]
        out[j] = 0
    if not completable(allowed, n, room, pl.count):
        return 0
    for i in range(n):
        c = pool[i]
        nopt = 0
        total = 0
        for j in range(pl.count):
            if allowed[i] >> j & 1 and room[j]:
                room[j] -= 1
                if completable(allowed + i + 1, n - i - 1, room, pl.count):
                    options[nopt] = j
                    total += room[j] + 1
                    cum[nopt] = total
                    nopt += 1
                room[j] += 1
        if nopt == 0:
            return 0
        give(g, c, options, cum, nopt, total, room, out)
    return 1


cdef inline int deal_hidden(const Places* pl, Twister* g, uint64_t* out, bint keep_rejected) noexcept nogil:
    """``deal_hidden`` into masks (one per place): 0 if no consistent deal was found (``keep_rejected``: a
    planted defect for the tests, a rejected shuffle kept)."""
    cdef uint8_t pool[MAX_HIDDEN]
    cdef int t, j, i, start
    cdef uint64_t part
    cdef bint ok
    memcpy(pool, pl.cards, pl.ncards)
    for t in range(pl.tries):
        shuffle_u8(g, pool, pl.ncards)
        start = 0
        ok = True
        for j in range(pl.count):
            part = 0
            for i in range(start, start + pl.size[j]):
                part |= <uint64_t>1 << pool[i]
            start += pl.size[j]
            if part & pl.forbidden[j] and not keep_rejected:
                ok = False
                break
            out[j] = part
        if ok:
            return 1
    for t in range(pl.tries):
        if build(pl, pool, g, out):
            return 1
    return complete(pl, pool, g, out)
