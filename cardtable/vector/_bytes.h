/* Writing observation and mask bytes for the batch core's encoders, in two builds of every core.
 *
 * setup.py compiles each cardtable/vector/_<game>.pyx twice: for any x86-64 (CT_WIDE 0: a byte-expansion table
 * and byte loops) and, as _<game>_wide, for x86-64-v4 with AVX-512 VBMI (CT_WIDE 1: one masked byte move per 64
 * bytes of 0/1, one byte permutation per 64 gathered bytes). cardtable.vector.cores loads the wide build where
 * the CPU runs it (ct_cpu_wide). Both builds write the same bytes; tests/vector/test_builds.py plays them in
 * lockstep.
 */
#ifndef CARDTABLE_BYTES_H
#define CARDTABLE_BYTES_H
#include <stdint.h>
#include <string.h>

#if defined(__AVX512BW__) && defined(__AVX512VL__) && defined(__AVX512VBMI__)
#include <immintrin.h>
#define CT_WIDE 1
#else
#define CT_WIDE 0
#endif

/* CT_EXPAND[b]: the byte b as eight bytes of 0/1, bit 0 first (a little-endian store), as constants. */
#define CT_E1(b) ((uint64_t)((b) & 1) | (uint64_t)(((b) >> 1) & 1) << 8 | (uint64_t)(((b) >> 2) & 1) << 16 | \
                  (uint64_t)(((b) >> 3) & 1) << 24 | (uint64_t)(((b) >> 4) & 1) << 32 | \
                  (uint64_t)(((b) >> 5) & 1) << 40 | (uint64_t)(((b) >> 6) & 1) << 48 | \
                  (uint64_t)(((b) >> 7) & 1) << 56)
#define CT_E4(b) CT_E1(b), CT_E1((b) + 1), CT_E1((b) + 2), CT_E1((b) + 3)
#define CT_E16(b) CT_E4(b), CT_E4((b) + 4), CT_E4((b) + 8), CT_E4((b) + 12)
#define CT_E64(b) CT_E16(b), CT_E16((b) + 16), CT_E16((b) + 32), CT_E16((b) + 48)
static const uint64_t CT_EXPAND[256] = {CT_E64(0), CT_E64(64), CT_E64(128), CT_E64(192)};

/* count (1..64) bytes of 0/1 from bits, bit 0 first. A constant count leaves constant sizes after inlining. */
static inline void ct_bits(uint8_t* out, uint64_t bits, int count) {
#if CT_WIDE
    __m512i v = _mm512_maskz_mov_epi8((__mmask64)bits, _mm512_set1_epi8(1));
    if (count >= 64) {
        _mm512_storeu_si512((void*)out, v);
    } else {
        _mm512_mask_storeu_epi8((void*)out, (__mmask64)((1ULL << count) - 1), v);
    }
#else
    int j, full = count / 8, tail = count % 8;
    uint64_t v;
    for (j = 0; j < full; j++) {
        v = CT_EXPAND[(bits >> (8 * j)) & 0xFF];
        memcpy(out + 8 * j, &v, 8);
    }
    if (tail) {
        v = CT_EXPAND[(bits >> (8 * full)) & 0xFF];
        memcpy(out + 8 * full, &v, (size_t)tail);
    }
#endif
}

/* nbits bytes of 0/1 from bits (as ct_bits), then count bytes gathered from the state: out[j] = (ctl[j] < 64 ?
 * src[ctl[j]] : 0) + add[j] for nbits <= j < nbits + count (<= 64). src holds src_len (1..64) bytes; ctl and add
 * are 64 bytes, lane j for out[j]; ctl[j] is 64 (a zero) below nbits. Bytes wrap around (uint8 arithmetic). */
static inline void ct_bits_gather(uint8_t* out, uint64_t bits, int nbits, const uint8_t* src, int src_len,
                                  const uint8_t* ctl, const uint8_t* add, int count) {
#if CT_WIDE
    __m512i s = _mm512_maskz_loadu_epi8((__mmask64)(src_len >= 64 ? ~0ULL : (1ULL << src_len) - 1), (const void*)src);
    __m512i v = _mm512_permutex2var_epi8(s, _mm512_loadu_si512((const void*)ctl), _mm512_setzero_si512());
    v = _mm512_add_epi8(v, _mm512_loadu_si512((const void*)add));
    v = _mm512_or_si512(v, _mm512_maskz_mov_epi8((__mmask64)bits, _mm512_set1_epi8(1)));
    int total = nbits + count;
    _mm512_mask_storeu_epi8((void*)out, (__mmask64)(total >= 64 ? ~0ULL : (1ULL << total) - 1), v);
#else
    int j;
    (void)src_len;
    ct_bits(out, bits, nbits);
    for (j = nbits; j < nbits + count; j++) {
        out[j] = (uint8_t)((ctl[j] < 64 ? src[ctl[j]] : 0) + add[j]);
    }
#endif
}

/* 1 where this CPU runs the wide build (x86-64-v4 and AVX-512 VBMI), else 0. */
static inline int ct_cpu_wide(void) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("fma") &&
           __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vbmi");
#else
    return 0;
#endif
}

#endif
