#include "format/adler32.h"

#define BASE 65521u /* the largest prime below 2^16 */
/* Bytes summed before the sums are reduced: 5552 keeps b below 2^32 (the
 * bound zlib documents), and is a multiple of 16. */
#define BLOCK 5552u

static void scalar_sums(uint64_t *a, uint64_t *b, const unsigned char *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        *a += p[i];
        *b += *a;
    }
}

#ifdef __SSE2__
#include <emmintrin.h>

static uint64_t lanes_sum(__m128i v) {
    uint32_t x[4];
    _mm_storeu_si128((__m128i *)(void *)x, v);
    return (uint64_t)x[0] + x[1] + x[2] + x[3];
}

/*
 * n bytes (a multiple of 16, at most BLOCK) in 16-byte steps. Step k adds
 * its bytes to a, and to b 16 times the a it started from plus its bytes
 * weighted 16 down to 1: the a's are summed once (before_steps) and
 * multiplied at the end.
 */
static void vector_sums(uint64_t *a, uint64_t *b, const unsigned char *p, size_t n) {
    const __m128i zero = _mm_setzero_si128();
    const __m128i weights_lo = _mm_set_epi16(9, 10, 11, 12, 13, 14, 15, 16);
    const __m128i weights_hi = _mm_set_epi16(1, 2, 3, 4, 5, 6, 7, 8);
    __m128i bytes = zero, before_steps = zero, weighted = zero;
    for (size_t i = 0; i < n; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        before_steps = _mm_add_epi32(before_steps, bytes);
        bytes = _mm_add_epi32(bytes, _mm_sad_epu8(x, zero));
        weighted = _mm_add_epi32(weighted, _mm_madd_epi16(_mm_unpacklo_epi8(x, zero), weights_lo));
        weighted = _mm_add_epi32(weighted, _mm_madd_epi16(_mm_unpackhi_epi8(x, zero), weights_hi));
    }
    *b += (uint64_t)n * *a + 16 * lanes_sum(before_steps) + lanes_sum(weighted);
    *a += lanes_sum(bytes);
}
#endif

uint32_t sp_adler32(uint32_t adler, const unsigned char *buf, size_t len) {
    uint64_t a = adler & 0xffffu, b = adler >> 16;
    while (len > 0) {
        size_t n = len < BLOCK ? len : BLOCK;
        size_t done = 0;
#ifdef __SSE2__
        done = n - n % 16;
        vector_sums(&a, &b, buf, done);
#endif
        scalar_sums(&a, &b, buf + done, n - done);
        a %= BASE;
        b %= BASE;
        buf += n;
        len -= n;
    }
    return (uint32_t)(b << 16 | a);
}
