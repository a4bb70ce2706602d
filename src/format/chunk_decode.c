#include "format/chunk_decode.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <zlib.h>

#ifdef SP_HAVE_LZF
#include <lzf.h>
#endif

#define ELEM 8u

/* One zlib stream that inflates to exactly `size` bytes, as HDF5's deflate
 * filter wrote it; bytes after the stream's end are ignored, as HDF5 does. */
static int inflate_exact(const unsigned char *in, size_t in_size, unsigned char *out, size_t size) {
    if (in_size > UINT_MAX || size > UINT_MAX) return 0;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK) return 0;
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)in_size;
    z.next_out = out;
    z.avail_out = (uInt)size;
    int rc = inflate(&z, Z_FINISH);
    int ok = rc == Z_STREAM_END && z.total_out == size;
    inflateEnd(&z);
    return ok;
}

static int lzf_exact(const unsigned char *in, size_t in_size, unsigned char *out, size_t size) {
#ifdef SP_HAVE_LZF
    if (in_size == 0 || in_size > UINT_MAX || size > UINT_MAX) return 0;
    return lzf_decompress(in, (unsigned)in_size, out, (unsigned)size) == size;
#else
    (void)in, (void)in_size, (void)out, (void)size;
    return 0;
#endif
}

#ifdef __SSE2__
#include <emmintrin.h>

/* 16 elements from the 8 byte planes: three rounds of interleaving turn
 * bytes into pairs, pairs into quads and quads into whole elements. */
static void unshuffle16(const unsigned char *in, size_t chunk, unsigned char *out) {
    __m128i a[8], s[8], t[8];
    for (int j = 0; j < 8; j++)
        a[j] = _mm_loadu_si128((const __m128i *)(const void *)(in + (size_t)j * chunk));
    for (int j = 0; j < 4; j++) { /* bytes 2j, 2j+1 of elements 0-7 and 8-15 */
        s[2 * j] = _mm_unpacklo_epi8(a[2 * j], a[2 * j + 1]);
        s[2 * j + 1] = _mm_unpackhi_epi8(a[2 * j], a[2 * j + 1]);
    }
    for (int h = 0; h < 2; h++) /* bytes 0-3 (h 0) and 4-7 (h 1) of elements 4k to 4k+3 */
        for (int half = 0; half < 2; half++) {
            __m128i lo = s[4 * h + half], hi = s[4 * h + 2 + half];
            t[4 * h + 2 * half] = _mm_unpacklo_epi16(lo, hi);
            t[4 * h + 2 * half + 1] = _mm_unpackhi_epi16(lo, hi);
        }
    for (int k = 0; k < 4; k++) {
        __m128i *dst = (__m128i *)(void *)(out + (size_t)k * 32);
        _mm_storeu_si128(dst, _mm_unpacklo_epi32(t[k], t[4 + k]));
        _mm_storeu_si128(dst + 1, _mm_unpackhi_epi32(t[k], t[4 + k]));
    }
}
#endif

/* The inverse of the shuffle: byte j of element i comes from plane j. Only
 * the first n of the chunk's elements are wanted. */
static void unshuffle(const unsigned char *in, size_t chunk, size_t n, unsigned char *out) {
    size_t i = 0;
#ifdef __SSE2__
    for (; i + 16 <= n; i += 16)
        unshuffle16(in + i, chunk, out + i * ELEM);
#endif
    for (; i < n; i++) {
        unsigned char *e = out + i * ELEM;
        for (size_t j = 0; j < ELEM; j++)
            e[j] = in[j * chunk + i];
    }
}

int sp_chunk_decode(const sp_chunk_pipeline *p, unsigned skip_mask, const unsigned char *raw,
                    size_t raw_size, size_t chunk_elements, size_t n, unsigned char *out,
                    unsigned char *scratch) {
    if (n > chunk_elements || chunk_elements > SIZE_MAX / (2 * ELEM) || p->num < 0 ||
        p->num > SP_CHUNK_MAX_STAGES)
        return 0;
    size_t bytes = chunk_elements * ELEM;
    int last = -1; /* the stage undone last: it may write into out itself */
    for (int i = 0; i < p->num; i++)
        if (!(skip_mask >> i & 1u)) {
            last = i;
            break;
        }
    const unsigned char *cur = raw;
    size_t cur_size = raw_size;
    int spare = 0; /* which half of scratch the next stage writes */
    for (int i = p->num - 1; i >= 0; i--) {
        if (skip_mask >> i & 1u) continue;
        int direct = i == last && n == chunk_elements;
        unsigned char *dst = direct ? out : scratch + (size_t)spare * bytes;
        switch (p->stage[i]) {
        case SP_STAGE_DEFLATE:
            if (!inflate_exact(cur, cur_size, dst, bytes)) return 0;
            break;
        case SP_STAGE_LZF:
            if (!lzf_exact(cur, cur_size, dst, bytes)) return 0;
            break;
        case SP_STAGE_SHUFFLE8:
            if (cur_size != bytes) return 0;
            if (i == last) {
                unshuffle(cur, chunk_elements, n, out);
                return 1;
            }
            unshuffle(cur, chunk_elements, chunk_elements, dst);
            break;
        default:
            return 0;
        }
        if (direct) return 1;
        cur = dst;
        cur_size = bytes;
        spare = !spare;
    }
    if (cur_size != bytes) return 0; /* an unfiltered chunk is stored whole */
    memcpy(out, cur, n * ELEM);
    return 1;
}
