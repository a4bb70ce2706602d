#include "format/chunk_decode.h"

#include "format/adler32.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <zlib.h>

#ifdef SP_HAVE_LZF
#include <lzf.h>
#endif

/* The 2-byte zlib header (RFC 1950): deflate, a window zlib takes, the
 * check bits right, no preset dictionary (HDF5 never sets one). */
static int zlib_header_ok(const unsigned char *in, size_t in_size) {
    return in_size >= 6 && (in[0] & 0x0f) == 8 && (in[0] >> 4) <= 7 &&
           ((unsigned)in[0] << 8 | in[1]) % 31 == 0 && !(in[1] & 0x20);
}

/* One zlib stream that inflates to exactly `size` bytes, as HDF5's deflate
 * filter wrote it; bytes after the stream's end are ignored, as HDF5 does.
 * The deflate data is inflated raw and its Adler-32 checked here
 * (format/adler32.h): zlib's own check costs a third of the inflate. */
static int inflate_exact(const unsigned char *in, size_t in_size, unsigned char *out, size_t size) {
    if (in_size > UINT_MAX || size > UINT_MAX || !zlib_header_ok(in, in_size)) return 0;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, -15) != Z_OK) return 0;
    z.next_in = (Bytef *)in + 2;
    z.avail_in = (uInt)(in_size - 2);
    z.next_out = out;
    z.avail_out = (uInt)size;
    int rc = inflate(&z, Z_FINISH);
    int ok = rc == Z_STREAM_END && z.total_out == size && z.avail_in >= 4;
    if (ok) {
        const unsigned char *t = z.next_in; /* the checksum, big-endian */
        uint32_t stored = (uint32_t)t[0] << 24 | (uint32_t)t[1] << 16 | (uint32_t)t[2] << 8 | t[3];
        ok = stored == sp_adler32(1, out, size);
    }
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

/* Bytes 8g to 8g+7 of 16 elements from 8 byte planes (in: the first plane
 * at element 0, planes chunk bytes apart): three rounds of interleaving turn
 * bytes into pairs, pairs into quads and quads into 8-byte pieces, stored
 * stride bytes apart (stride 8: the elements are the pieces). */
static void unshuffle16(const unsigned char *in, size_t chunk, unsigned char *out, size_t stride) {
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
    for (int k = 0; k < 4; k++) { /* elements 4k to 4k+3 */
        __m128i first = _mm_unpacklo_epi32(t[k], t[4 + k]);
        __m128i second = _mm_unpackhi_epi32(t[k], t[4 + k]);
        unsigned char *e = out + (size_t)(4 * k) * stride;
        if (stride == 8) {
            _mm_storeu_si128((__m128i *)(void *)e, first);
            _mm_storeu_si128((__m128i *)(void *)(e + 16), second);
        } else {
            _mm_storel_epi64((__m128i *)(void *)e, first);
            _mm_storel_epi64((__m128i *)(void *)(e + stride), _mm_unpackhi_epi64(first, first));
            _mm_storel_epi64((__m128i *)(void *)(e + 2 * stride), second);
            _mm_storel_epi64((__m128i *)(void *)(e + 3 * stride),
                             _mm_unpackhi_epi64(second, second));
        }
    }
}
#endif

/* The inverse of the shuffle: byte j of element i comes from plane j (the
 * planes chunk bytes apart). Only the first n of the chunk's elements are
 * wanted. Elements of a multiple of 8 bytes go 16 at a time, 8 planes at a
 * time (int64 columns, compound records); the rest byte by byte. */
static void unshuffle(const unsigned char *in, size_t chunk, size_t n, size_t elem,
                      unsigned char *out) {
    size_t done = 0; /* elements whose every byte is placed */
#ifdef __SSE2__
    if (elem % 8 == 0) {
        done = n - n % 16;
        for (size_t g = 0; g < elem; g += 8)
            for (size_t i = 0; i < done; i += 16)
                unshuffle16(in + g * chunk + i, chunk, out + i * elem + g, elem);
    }
#endif
    for (size_t j = 0; j < elem; j++) {
        const unsigned char *plane = in + j * chunk;
        for (size_t i = done; i < n; i++)
            out[i * elem + j] = plane[i];
    }
}

int sp_chunk_decode(const sp_chunk_pipeline *p, unsigned skip_mask, const unsigned char *raw,
                    size_t raw_size, size_t chunk_elements, size_t n, unsigned char *out,
                    unsigned char *scratch) {
    size_t elem = p->elem;
    if (elem == 0 || n > chunk_elements || chunk_elements > SIZE_MAX / 2 / elem || p->num < 0 ||
        p->num > SP_CHUNK_MAX_STAGES)
        return 0;
    size_t bytes = chunk_elements * elem;
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
        case SP_STAGE_SHUFFLE:
            if (cur_size != bytes) return 0;
            if (i == last) {
                unshuffle(cur, chunk_elements, n, elem, out);
                return 1;
            }
            unshuffle(cur, chunk_elements, chunk_elements, elem, dst);
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
    memcpy(out, cur, n * elem);
    return 1;
}
