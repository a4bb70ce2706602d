/* numpy-compatible sums and percentiles (numpy 1.x: pairwise summation, linear interpolation). */
#include <math.h>
#include <stdlib.h>

#include "analysis/internal.h"
#include "analysis/numpy_stats.h"

enum { NUMPY_BUFSIZE = 8192, PAIRWISE_BLOCK = 128, SELECT_SMALL = 16 };

static double pairwise_sum(const double *a, size_t n) {
    if (n < 8) {
        double res = 0.0;
        for (size_t i = 0; i < n; i++)
            res += a[i];
        return res;
    }
    if (n <= PAIRWISE_BLOCK) {
        double r[8];
        for (size_t j = 0; j < 8; j++)
            r[j] = a[j];
        size_t i;
        for (i = 8; i < n - n % 8; i += 8)
            for (size_t j = 0; j < 8; j++)
                r[j] += a[i + j];
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++)
            res += a[i];
        return res;
    }
    size_t n2 = n / 2;
    n2 -= n2 % 8;
    return pairwise_sum(a, n2) + pairwise_sum(a + n2, n - n2);
}

double sp_numpy_sum(const double *x, size_t n) {
    double out = 0.0;
    for (size_t first = 0; first < n; first += NUMPY_BUFSIZE) {
        size_t count = n - first < NUMPY_BUFSIZE ? n - first : NUMPY_BUFSIZE;
        out += pairwise_sum(x + first, count);
    }
    return out;
}

double sp_numpy_sum_gen(size_t n, sp_fill_fn fill, void *ctx) {
    double buf[NUMPY_BUFSIZE];
    double out = 0.0;
    for (size_t first = 0; first < n; first += NUMPY_BUFSIZE) {
        size_t count = n - first < NUMPY_BUFSIZE ? n - first : NUMPY_BUFSIZE;
        fill(ctx, first, count, buf);
        out += pairwise_sum(buf, count);
    }
    return out;
}

/* numpy's linear interpolation between neighbouring order statistics. */
static double lerp(double a, double b, double g) {
    double diff = b - a;
    return g >= 0.5 ? b - diff * (1.0 - g) : a + diff * g;
}

double sp_numpy_percentile_sorted(const double *sorted, size_t n, double q) {
    if (n == 0) return NAN;
    double v = (double)(n - 1) * (q / 100.0);
    if (v >= (double)(n - 1)) return sorted[n - 1];
    double lower = floor(v);
    size_t i = (size_t)lower;
    return lerp(sorted[i], sorted[i + 1], v - lower);
}

/* --- order statistics by radix histograms ---------------------------------- */

enum { RADIX_BITS = 16, RADIX_BUCKETS = 1 << RADIX_BITS, SMALL_SELECT = 2048, MAX_RANKS = 16 };

static int compare_i64(const void *pa, const void *pb) {
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    return (a > b) - (a < b);
}

/* Few values: copy and sort. */
static sp_status select_small(const sp_span *spans, size_t nspans, uint64_t n,
                              const uint64_t *ranks, size_t nr, int64_t *values) {
    int64_t *copy = malloc((n ? n : 1) * sizeof *copy);
    if (!copy) return SP_ERR_OUT_OF_MEMORY;
    size_t k = 0;
    for (size_t s = 0; s < nspans; s++)
        for (size_t i = 0; i < spans[s].n; i++)
            copy[k++] = spans[s].x[i];
    qsort(copy, n, sizeof *copy, compare_i64);
    for (size_t i = 0; i < nr; i++)
        values[i] = copy[ranks[i]];
    free(copy);
    return SP_OK;
}

static sp_status select_ranks(const sp_span *spans, size_t nspans, uint64_t n, int64_t lo,
                              int64_t hi, const uint64_t *ranks, size_t nr, int64_t *values);

/* The wanted ranks that fall into one histogram bucket. */
typedef struct bucket_want {
    uint64_t bucket, count; /* values in the bucket */
    size_t first, num;      /* ranks[first .. first + num) */
    uint64_t within[MAX_RANKS];
    int64_t *inside; /* the bucket's values, gathered */
    uint64_t filled;
} bucket_want;

/* Gathers the values of the wanted buckets in one pass over the data. */
static sp_status gather(const sp_span *spans, size_t nspans, int shift, int64_t lo, bucket_want *w,
                        size_t nw) {
    for (size_t j = 0; j < nw; j++)
        if (!(w[j].inside = malloc((w[j].count ? w[j].count : 1) * sizeof *w[j].inside)))
            return SP_ERR_OUT_OF_MEMORY;
    for (size_t s = 0; s < nspans; s++) {
        for (size_t i = 0; i < spans[s].n; i++) {
            uint64_t b = ((uint64_t)spans[s].x[i] - (uint64_t)lo) >> shift;
            for (size_t j = 0; j < nw; j++)
                if (b == w[j].bucket) w[j].inside[w[j].filled++] = spans[s].x[i];
        }
    }
    return SP_OK;
}

/* Recurses into each wanted bucket, whose range is 2^16 times narrower. */
static sp_status select_buckets(const sp_span *spans, size_t nspans, int shift, int64_t lo,
                                int64_t hi, bucket_want *w, size_t nw, int64_t *values) {
    sp_status st = shift == 0 ? SP_OK : gather(spans, nspans, shift, lo, w, nw);
    uint64_t width = shift >= 63 ? UINT64_MAX : ((uint64_t)1 << shift) - 1;
    for (size_t j = 0; st == SP_OK && j < nw; j++) {
        int64_t blo = (int64_t)((uint64_t)lo + (w[j].bucket << shift));
        if (shift == 0) { /* a bucket holds one value */
            for (size_t k = 0; k < w[j].num; k++)
                values[w[j].first + k] = blo;
            continue;
        }
        int64_t bhi = (uint64_t)hi - (uint64_t)blo < width ? hi : (int64_t)((uint64_t)blo + width);
        sp_span one = {w[j].inside, w[j].count};
        st =
            select_ranks(&one, 1, w[j].count, blo, bhi, w[j].within, w[j].num, values + w[j].first);
    }
    for (size_t j = 0; j < nw; j++)
        free(w[j].inside);
    return st;
}

/* values[i] = the ranks[i]-th smallest (ranks ascending) of n values in [lo, hi]:
 * one histogram pass, then only the buckets holding a wanted rank are looked at again. */
static sp_status select_ranks(const sp_span *spans, size_t nspans, uint64_t n, int64_t lo,
                              int64_t hi, const uint64_t *ranks, size_t nr, int64_t *values) {
    if (lo == hi) {
        for (size_t i = 0; i < nr; i++)
            values[i] = lo;
        return SP_OK;
    }
    if (n <= SMALL_SELECT) return select_small(spans, nspans, n, ranks, nr, values);
    uint64_t range = (uint64_t)hi - (uint64_t)lo;
    int shift = 0;
    while ((range >> shift) >= RADIX_BUCKETS)
        shift++;
    uint64_t *hist = calloc((range >> shift) + 1, sizeof *hist);
    if (!hist) return SP_ERR_OUT_OF_MEMORY;
    for (size_t s = 0; s < nspans; s++)
        for (size_t i = 0; i < spans[s].n; i++)
            hist[((uint64_t)spans[s].x[i] - (uint64_t)lo) >> shift]++;
    bucket_want w[MAX_RANKS];
    size_t nw = 0;
    uint64_t before = 0, b = 0;
    for (size_t i = 0; i < nr;) {
        while (before + hist[b] <= ranks[i])
            before += hist[b++];
        bucket_want *x = &w[nw++];
        *x = (bucket_want){.bucket = b, .count = hist[b], .first = i};
        for (; i < nr && ranks[i] < before + hist[b]; i++)
            x->within[x->num++] = ranks[i] - before;
    }
    free(hist);
    return select_buckets(spans, nspans, shift, lo, hi, w, nw, values);
}

sp_status sp_percentiles_spans(const sp_span *spans, size_t nspans, int64_t lo, int64_t hi,
                               const double *qs, size_t nq, double divisor, double *out) {
    uint64_t n = 0, ranks[MAX_RANKS] = {0};
    for (size_t s = 0; s < nspans; s++)
        n += spans[s].n;
    if (n == 0 || nq > MAX_RANKS / 2) return SP_ERR_INVALID_ARGUMENT;
    size_t nr = 0;
    for (size_t i = 0; i < nq; i++) { /* the order statistics each percentile needs */
        double v = (double)(n - 1) * (qs[i] / 100.0);
        uint64_t k = v >= (double)(n - 1) ? n - 1 : (uint64_t)floor(v);
        ranks[nr++] = k;
        if (k + 1 < n) ranks[nr++] = k + 1;
    }
    for (size_t i = 1; i < nr; i++) /* sort the few ranks */
        for (size_t j = i; j > 0 && ranks[j] < ranks[j - 1]; j--) {
            uint64_t t = ranks[j];
            ranks[j] = ranks[j - 1];
            ranks[j - 1] = t;
        }
    int64_t values[MAX_RANKS];
    sp_status st = select_ranks(spans, nspans, n, lo, hi, ranks, nr, values);
    for (size_t i = 0; st == SP_OK && i < nq; i++) {
        double v = (double)(n - 1) * (qs[i] / 100.0);
        uint64_t k = v >= (double)(n - 1) ? n - 1 : (uint64_t)floor(v);
        size_t at = 0, next = 0;
        while (ranks[at] != k)
            at++;
        double a = (double)values[at] / divisor;
        if (v >= (double)(n - 1)) {
            out[i] = a;
            continue;
        }
        while (ranks[next] != k + 1)
            next++;
        out[i] = lerp(a, (double)values[next] / divisor, v - floor(v));
    }
    return st;
}
