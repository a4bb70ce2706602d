#include "model/histogram.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Makes the window cover [lo, hi) as well as what it held. */
static sp_status widen(sp_hist *h, uint32_t lo, uint32_t hi) {
    if (h->counts && lo >= h->lo && hi <= h->hi) return SP_OK;
    if (h->counts && h->lo < lo) lo = h->lo;
    if (h->counts && h->hi > hi) hi = h->hi;
    uint64_t *grown = calloc(hi - lo, sizeof *grown);
    if (!grown) return SP_ERR_OUT_OF_MEMORY;
    if (h->counts) memcpy(grown + (h->lo - lo), h->counts, (h->hi - h->lo) * sizeof *grown);
    free(h->counts);
    h->counts = grown;
    h->lo = lo;
    h->hi = hi;
    return SP_OK;
}

sp_status sp_hist_add_bucket(sp_hist *h, uint32_t b, uint64_t n) {
    if (b >= SP_HIST_NUM_BUCKETS) return SP_ERR_INVALID_ARGUMENT;
    if (n == 0) return SP_OK;
    sp_status st = widen(h, b, b + 1);
    if (st != SP_OK) return st;
    h->counts[b - h->lo] += n;
    h->count += n;
    return SP_OK;
}

sp_status sp_hist_reserve(sp_hist *h, int64_t lo_ns, int64_t hi_ns) {
    uint32_t lo = sp_hist_bucket(lo_ns), hi = sp_hist_bucket(hi_ns);
    return widen(h, lo < hi ? lo : hi, (lo < hi ? hi : lo) + 1);
}

sp_status sp_hist_merge(sp_hist *dst, const sp_hist *src) {
    if (src->count == 0) return SP_OK;
    sp_status st = widen(dst, src->lo, src->hi);
    if (st != SP_OK) return st;
    for (uint32_t b = src->lo; b < src->hi; b++)
        dst->counts[b - dst->lo] += src->counts[b - src->lo];
    if (dst->count == 0 || src->min < dst->min) dst->min = src->min;
    if (dst->count == 0 || src->max > dst->max) dst->max = src->max;
    dst->count += src->count;
    return SP_OK;
}

int sp_hist_equal(const sp_hist *a, const sp_hist *b) {
    if (a->count != b->count) return 0;
    if (a->count == 0) return 1;
    if (a->min != b->min || a->max != b->max) return 0;
    uint32_t lo = a->lo < b->lo ? a->lo : b->lo, hi = a->hi > b->hi ? a->hi : b->hi;
    for (uint32_t i = lo; i < hi; i++) {
        uint64_t x = i >= a->lo && i < a->hi ? a->counts[i - a->lo] : 0;
        uint64_t y = i >= b->lo && i < b->hi ? b->counts[i - b->lo] : 0;
        if (x != y) return 0;
    }
    return 1;
}

/* The k-th smallest value (0-based) as its bucket's midpoint within [min, max]. */
static double order_statistic(const sp_hist *h, uint64_t k) {
    uint64_t seen = 0;
    for (uint32_t i = h->lo; i < h->hi; i++) {
        seen += h->counts[i - h->lo];
        if (k < seen) {
            double mid =
                (double)sp_hist_bucket_low(i) + 0.5 * (double)(sp_hist_bucket_width(i) - 1);
            if (mid < (double)h->min) mid = (double)h->min;
            if (mid > (double)h->max) mid = (double)h->max;
            return mid;
        }
    }
    return (double)h->max;
}

double sp_hist_percentile(const sp_hist *h, double q) {
    if (h->count == 0 || !(q >= 0.0 && q <= 100.0)) return NAN;
    double pos = (double)(h->count - 1) * q / 100.0;
    uint64_t below = (uint64_t)floor(pos);
    if (below >= h->count - 1) return order_statistic(h, h->count - 1);
    double frac = pos - (double)below;
    double a = order_statistic(h, below);
    if (frac == 0.0) return a;
    double b = order_statistic(h, below + 1);
    return a + (b - a) * frac;
}

void sp_hist_free(sp_hist *h) {
    free(h->counts);
    memset(h, 0, sizeof *h);
}
