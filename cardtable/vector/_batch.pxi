# The batch machinery every compiled rules module includes (``include "_batch.pxi"`` at its end).
#
# It owns N states, steps them with one action each, auto-resets finished games, writes the
# observation and mask of the seat to act, and runs the built-in policies, all in C. A rules module
# provides, before the include: the enums LEGAL_WORDS (the most 64-bit words of a legal set), MAX_PLAYERS,
# OBS_MAX; the structs Config (with ``players``, ``obs_size``, ``reward_round``), State and Memo (with a
# ``valid`` byte, which rules_forget below clears); and these functions:
#
#   rules_num_actions(cfg)               the size of the action space (at most 64 * LEGAL_WORDS); a constant
#                                        where the space does not depend on the options
#   rules_reset(cfg, s, seed)            deal a new game from ``seed`` (the Python engine's seed)
#   rules_legal(cfg, s, legal)           the legal action ids as LEGAL_WORDS 64-bit words
#   rules_to_act(s)                      the seat to act, -1 once the game is over
#   rules_step(cfg, s, action, rewards)  play a legal action id; add each seat's reward into ``rewards``
#   rules_forfeit(s)                     end the game at once (an illegal action under "illegal loses")
#   rules_encode(cfg, s, seat, out, memo)  the ``cardtable.rl`` encoding of ``seat`` (obs_size bytes); ``memo``
#                                        (a Memo, the rules module's record of what it last wrote into
#                                        this row, or NULL) lets it touch only what changed
#   rules_policy(cfg, s, policy, legal, prng)  a built-in policy's action id (POLICIES names them)
#   rules_config(options, flags)         a Config from the options object and the flags dict (Python level)
#   rules_dump(cfg, s)                   the state as a dict of Python values (differential tests)
#
# A second game is a second rules module with these names; nothing here changes.

from libc.stdlib cimport calloc, free
from libc.string cimport memset
from libc.stdint cimport int8_t, int64_t, int32_t, uint8_t, uint64_t

cdef enum:
    ILLEGAL_RAISE = 0
    ILLEGAL_LOSES = 1

cdef extern from "_bytes.h":
    # Byte writers of the portable and the wide (AVX-512) build: see _bytes.h.
    int CT_WIDE
    void write_bits "ct_bits"(uint8_t* out, uint64_t bits, int count) noexcept nogil
    void write_bits_gather "ct_bits_gather"(uint8_t* out, uint64_t bits, int nbits, const uint8_t* src,
                                            int src_len, const uint8_t* ctl, const uint8_t* add, int count) noexcept nogil
    int ct_cpu_wide() noexcept nogil

#: 1 in the wide build of this core (x86-64-v4 with AVX-512 VBMI), 0 in the portable one.
WIDE = CT_WIDE


def cpu_runs_wide():
    """Whether this CPU runs the wide build (cardtable.vector.cores loads it where it does)."""
    return bool(ct_cpu_wide())


cdef inline void write_mask(uint8_t* out, const uint64_t* legal, int count) noexcept nogil:
    """The action mask (``count`` bytes of 0/1, ``count`` >= 1) of a legal set.

    ``count`` is ``rules_num_actions``: a constant there leaves constant sizes here after inlining.
    """
    cdef int w, last = (count - 1) // 64
    for w in range(last):
        write_bits(out + 64 * w, legal[w], 64)
    write_bits(out + 64 * last, legal[last], count - 64 * last)


cdef inline void rules_forget(Memo* memo) noexcept nogil:
    # The row's content is unknown: the next rules_encode writes all of it.
    memo.valid = 0


cdef inline bint is_legal(const uint64_t* legal, int64_t action, int count) noexcept nogil:
    if action < 0 or action >= count:
        return False
    return (legal[action >> 6] >> (action & 63)) & 1


cdef class Core:
    """N games of one rules module with one option set, stepped together (see ``cardtable.vector``)."""

    cdef Config cfg
    cdef State* states
    cdef uint64_t* prng
    cdef uint64_t* games
    cdef Memo* memo
    cdef const uint8_t* rows   # the observation buffer the memos describe (another buffer: forget them)
    cdef uint64_t base_seed
    cdef readonly int num_envs
    cdef readonly int players
    cdef readonly int obs_size
    cdef readonly int num_actions
    cdef readonly bint autoreset

    def __cinit__(self, int num_envs, uint64_t seed, object options, uint64_t policy_seed=0, bint autoreset=True,
                  **flags):
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        self.cfg = rules_config(options, dict(flags))
        self.num_envs = num_envs
        self.players = self.cfg.players
        self.obs_size = self.cfg.obs_size
        self.num_actions = rules_num_actions(&self.cfg)
        self.base_seed = seed
        self.autoreset = autoreset
        self.states = <State*>calloc(num_envs, sizeof(State))
        self.prng = <uint64_t*>calloc(num_envs, sizeof(uint64_t))
        self.games = <uint64_t*>calloc(num_envs, sizeof(uint64_t))
        self.memo = <Memo*>calloc(num_envs, sizeof(Memo))
        self.rows = NULL
        if self.states == NULL or self.prng == NULL or self.games == NULL or self.memo == NULL:
            raise MemoryError(f"no memory for {num_envs} games")
        cdef int i
        for i in range(num_envs):
            self.prng[i] = mix(policy_seed + <uint64_t>i)

    def __dealloc__(self):
        free(self.states)
        free(self.prng)
        free(self.games)
        free(self.memo)

    cdef void _rows(self, uint8_t* obs) noexcept nogil:
        # The memos hold for the rows they were written into: a new buffer is written whole.
        cdef int i
        if obs != self.rows:
            for i in range(self.num_envs):
                rules_forget(&self.memo[i])
            self.rows = obs

    @property
    def state_bytes(self):
        """Bytes of the core's own memory per game: its state, policy stream, game counter and row memo."""
        return sizeof(State) + 2 * sizeof(uint64_t) + sizeof(Memo)

    cdef inline uint64_t _seed(self, int i) noexcept nogil:
        # Game k of env i: seed + i + k * num_envs (mod 2**64): no two games of a batch share a seed.
        return self.base_seed + <uint64_t>i + self.games[i] * <uint64_t>self.num_envs

    def seed_of(self, int i):
        """The seed of the game env ``i`` plays now (its record replays in the Python engine)."""
        self._check_index(i)
        return self._seed(i)

    def _check_index(self, int i):
        if not 0 <= i < self.num_envs:
            raise IndexError(f"env index {i} is outside 0–{self.num_envs - 1}")

    def reset(self, uint8_t[:, ::1] obs, int8_t[:, ::1] mask, int32_t[::1] player):
        """Deal every env's first game (seed + i) and write each seat to act's observation and mask."""
        cdef int i
        cdef uint64_t legal[LEGAL_WORDS]
        with nogil:
            self._rows(&obs[0, 0])
            for i in range(self.num_envs):
                self.games[i] = 0
                rules_reset(&self.cfg, &self.states[i], self._seed(i))
                self._observe(i, &obs[i, 0], <uint8_t*>&mask[i, 0], &player[i], legal)

    cdef inline void _observe(self, int i, uint8_t* obs, uint8_t* mask, int32_t* player,
                              uint64_t* legal) noexcept nogil:
        cdef State* s = &self.states[i]
        cdef int seat = rules_to_act(s)
        player[0] = seat
        rules_legal(&self.cfg, s, legal)
        write_mask(mask, legal, rules_num_actions(&self.cfg))
        if seat < 0:  # a finished game kept (autoreset off): nobody's view, a row of zeros
            memset(obs, 0, self.cfg.obs_size)
            rules_forget(&self.memo[i])
        else:
            rules_encode(&self.cfg, s, seat, obs, &self.memo[i])

    def observe(self, uint8_t[:, ::1] obs, int8_t[:, ::1] mask, int32_t[::1] player):
        """Write every env's seat to act, its observation and mask for the states as they are."""
        cdef int i
        cdef uint64_t legal[LEGAL_WORDS]
        with nogil:
            self._rows(&obs[0, 0])
            for i in range(self.num_envs):
                self._observe(i, &obs[i, 0], <uint8_t*>&mask[i, 0], &player[i], legal)

    def legal_ids(self, int i):
        """The legal action ids of env ``i`` now, ascending."""
        self._check_index(i)
        cdef uint64_t legal[LEGAL_WORDS]
        rules_legal(&self.cfg, &self.states[i], legal)
        return [a for a in range(self.num_actions) if legal[a >> 6] >> (a & 63) & 1]

    def step(self, int64_t[::1] actions, uint8_t[:, ::1] obs, int8_t[:, ::1] mask, float[:, ::1] rewards,
             uint8_t[::1] done, int32_t[::1] player, int illegal, bint encode, object final_obs=None):
        """One action per env (checked first: an illegal one raises before any env moves, or loses its game).

        Writes rewards, done flags, the seat to act and (``encode``) its observation and mask; a
        finished game is replaced by the env's next one at once. ``final_obs`` (optional, uint8 of
        the observations' shape): for each finished game, the last acting seat's view of its end.
        """
        cdef int i, seat, bad
        cdef State* s
        cdef uint64_t legal[LEGAL_WORDS]
        cdef uint8_t[:, ::1] final_view
        cdef bint want_final = final_obs is not None
        if want_final:
            final_view = final_obs
        bad = -1
        with nogil:
            for i in range(self.num_envs):
                if rules_to_act(&self.states[i]) < 0:  # a finished game kept (autoreset off): no action
                    continue
                rules_legal(&self.cfg, &self.states[i], legal)
                if not is_legal(legal, actions[i], rules_num_actions(&self.cfg)):
                    if illegal == ILLEGAL_RAISE:
                        bad = i
                        break
        if bad >= 0:
            return bad
        with nogil:
            if encode:
                self._rows(&obs[0, 0])
            for i in range(self.num_envs):
                s = &self.states[i]
                memset(&rewards[i, 0], 0, self.cfg.players * sizeof(float))
                seat = rules_to_act(s)
                if seat < 0:  # kept finished (autoreset off): nothing to do until reset_env
                    done[i] = 1
                    if encode:
                        self._observe(i, &obs[i, 0], <uint8_t*>&mask[i, 0], &player[i], legal)
                    continue
                rules_legal(&self.cfg, s, legal)
                if is_legal(legal, actions[i], rules_num_actions(&self.cfg)):
                    rules_step(&self.cfg, s, <int>actions[i], &rewards[i, 0])
                    done[i] = rules_to_act(s) < 0
                else:  # illegal == ILLEGAL_LOSES: the game ends, the offender scores -1
                    rewards[i, seat] = -1.0
                    done[i] = 1
                    rules_forfeit(s)
                if done[i]:
                    if want_final:
                        rules_encode(&self.cfg, s, seat, &final_view[i, 0], NULL)
                    if self.autoreset:
                        self.games[i] += 1
                        rules_reset(&self.cfg, s, self._seed(i))
                if encode:
                    self._observe(i, &obs[i, 0], <uint8_t*>&mask[i, 0], &player[i], legal)
                else:
                    player[i] = rules_to_act(s)
        return -1

    def reset_env(self, int i):
        """Deal env ``i``'s next game (after one that ended with autoreset off)."""
        self._check_index(i)
        self.games[i] += 1
        rules_reset(&self.cfg, &self.states[i], self._seed(i))

    def policy(self, int policy, int64_t[::1] out):
        """Each env's action under a built-in policy (``POLICIES[policy]``), from each env's policy stream."""
        if not 0 <= policy < len(POLICIES):
            raise ValueError(f"no built-in policy {policy}: the policies are {', '.join(POLICIES)}")
        cdef int i
        cdef uint64_t legal[LEGAL_WORDS]
        with nogil:
            for i in range(self.num_envs):
                rules_legal(&self.cfg, &self.states[i], legal)
                out[i] = rules_policy(&self.cfg, &self.states[i], policy, legal, &self.prng[i])

    def play(self, long steps, int policy, bint encode, uint8_t[:, ::1] obs, int8_t[:, ::1] mask):
        """``steps`` rounds of one decision per env under a built-in policy, all in C; (decisions, games ended).

        With ``encode`` each decision first writes the seat to act's observation and mask (as an
        agent would read them); without, the same loop writes neither. Auto-resets like ``step``.
        """
        if not 0 <= policy < len(POLICIES):
            raise ValueError(f"no built-in policy {policy}: the policies are {', '.join(POLICIES)}")
        cdef long t
        cdef long ended = 0
        cdef int i, seat, action
        cdef State* s
        cdef uint64_t legal[LEGAL_WORDS]
        cdef float scratch[MAX_PLAYERS]
        with nogil:
            if encode:
                self._rows(&obs[0, 0])
            for t in range(steps):
                for i in range(self.num_envs):
                    s = &self.states[i]
                    seat = rules_to_act(s)
                    rules_legal(&self.cfg, s, legal)
                    if encode:
                        write_mask(<uint8_t*>&mask[i, 0], legal, rules_num_actions(&self.cfg))
                        rules_encode(&self.cfg, s, seat, &obs[i, 0], &self.memo[i])
                    action = rules_policy(&self.cfg, s, policy, legal, &self.prng[i])
                    rules_step(&self.cfg, s, action, scratch)
                    if rules_to_act(s) < 0:
                        ended += 1
                        self.games[i] += 1
                        rules_reset(&self.cfg, s, self._seed(i))
        return steps * self.num_envs, ended

    def state(self, int i):
        """The state of env ``i`` as a dict of Python values (for tests and debugging)."""
        self._check_index(i)
        return rules_dump(&self.cfg, &self.states[i])

    def encode(self, int i, int seat, uint8_t[::1] out):
        """Write env ``i``'s encoding of ``seat`` into ``out`` (obs_size bytes)."""
        self._check_index(i)
        if not 0 <= seat < self.cfg.players:
            raise ValueError(f"seat {seat} is outside 0–{self.cfg.players - 1}")
        if out.shape[0] != self.cfg.obs_size:
            raise ValueError(f"the buffer holds {out.shape[0]} bytes; the encoding writes {self.cfg.obs_size}")
        rules_encode(&self.cfg, &self.states[i], seat, &out[0], NULL)
