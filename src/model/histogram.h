/*
 * A mergeable log-linear histogram of durations (int64 ns >= 0).
 *
 * Bucket layout (fixed, so that histograms of threads, ranks and runs merge
 * by adding counts bucket by bucket): values 0..127 have a bucket each; above,
 * every power of two [2^e, 2^(e+1)), e = 7..62, is cut into 64 equal buckets
 * of width 2^(e-6). With s = max(0, floor(log2 v) - 6) the bucket of v is
 *     index = 64 s + (v >> s)                       (0 <= index < 3712)
 * and bucket i (s = i < 128 ? 0 : i / 64 - 1) holds [(i - 64 s) << s, + 2^s).
 * A bucket is at most 1/64 of its lower bound wide, so its midpoint is within
 * 1/128 (0.78 %) of every value in it: SP_HIST_RELATIVE_ERROR.
 *
 * Memory: counts are kept for the window of buckets between the lowest and
 * the highest value added, 8 bytes per bucket, plus the 48-byte header: a
 * call path whose durations span 1 us to 1 ms (10 powers of two) needs 640
 * buckets = 5 KiB; the whole int64 range 3712 buckets = 29 KiB.
 */
#ifndef SP_MODEL_HISTOGRAM_H
#define SP_MODEL_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "common/visibility.h"
#include "scope_profiler.h"

#define SP_HIST_SUB_BITS       6
#define SP_HIST_NUM_BUCKETS    3712u
#define SP_HIST_RELATIVE_ERROR (1.0 / 128.0)

typedef struct sp_hist {
    uint64_t count;   /* values added */
    int64_t min, max; /* exact; 0 when empty */
    uint32_t lo, hi;  /* counts[k] is bucket lo + k, for lo <= bucket < hi */
    uint64_t *counts; /* owned; NULL when empty */
} sp_hist;

#define SP_HIST_INIT                                                                               \
    { 0, 0, 0, 0, 0, NULL }

/* The bucket of a value (negative values count as 0). */
static inline uint32_t sp_hist_bucket(int64_t v) {
    if (v < 128) return v < 0 ? 0u : (uint32_t)v;
    unsigned s = (unsigned)(63 - __builtin_clzll((unsigned long long)v)) - SP_HIST_SUB_BITS;
    return (uint32_t)((s << SP_HIST_SUB_BITS) + ((uint64_t)v >> s));
}

/* The lowest value of bucket i and its width. */
static inline int64_t sp_hist_bucket_low(uint32_t i) {
    unsigned s = i < 128 ? 0u : (i >> SP_HIST_SUB_BITS) - 1u;
    return (int64_t)((uint64_t)(i - (s << SP_HIST_SUB_BITS)) << s);
}
static inline int64_t sp_hist_bucket_width(uint32_t i) {
    unsigned s = i < 128 ? 0u : (i >> SP_HIST_SUB_BITS) - 1u;
    return (int64_t)1 << s;
}

/* Adds n values into bucket b, growing the window (SP_ERR_OUT_OF_MEMORY). */
SP_INTERNAL_API sp_status sp_hist_add_bucket(sp_hist *h, uint32_t b, uint64_t n);

/* Makes the window cover the buckets of lo_ns..hi_ns (and what it held), so
 * that adding values in that range never allocates (SP_ERR_OUT_OF_MEMORY). */
SP_INTERNAL_API sp_status sp_hist_reserve(sp_hist *h, int64_t lo_ns, int64_t hi_ns);

/* Adds one value: a few ns when its bucket is inside the window. */
static inline sp_status sp_hist_add(sp_hist *h, int64_t v) {
    uint32_t b = sp_hist_bucket(v);
    if (v < 0) v = 0;
    if (h->count == 0 || v < h->min) h->min = v;
    if (h->count == 0 || v > h->max) h->max = v;
    if (b >= h->lo && b < h->hi) {
        h->counts[b - h->lo]++;
        h->count++;
        return SP_OK;
    }
    return sp_hist_add_bucket(h, b, 1);
}

/* dst += src, bucket by bucket (counts, min, max). */
SP_INTERNAL_API sp_status sp_hist_merge(sp_hist *dst, const sp_hist *src);

/* Equal bucket counts, count, min and max. */
SP_INTERNAL_API int sp_hist_equal(const sp_hist *a, const sp_hist *b);

/*
 * The q-th percentile (0 <= q <= 100) in ns, as numpy's default (linear
 * interpolation between the order statistics at (count - 1) q / 100), each
 * order statistic taken as its bucket's midpoint clamped to [min, max]: within
 * SP_HIST_RELATIVE_ERROR of the exact percentile of the values added. NaN when
 * empty.
 */
SP_INTERNAL_API double sp_hist_percentile(const sp_hist *h, double q);

SP_INTERNAL_API void sp_hist_free(sp_hist *h);

#endif
