/* numpy-compatible sums and percentiles (python_semantics.md §10.1, §10.2). */
#include <math.h>
#include <stdlib.h>

#include "analysis/internal.h"

enum { NUMPY_BUFSIZE = 8192, PAIRWISE_BLOCK = 128, SELECT_SMALL = 16 };

static double pairwise_sum(const double *a, size_t n) {
    if (n < 8) {
        double res = 0.0;
        for (size_t i = 0; i < n; i++) res += a[i];
        return res;
    }
    if (n <= PAIRWISE_BLOCK) {
        double r[8];
        for (size_t j = 0; j < 8; j++) r[j] = a[j];
        size_t i;
        for (i = 8; i < n - n % 8; i += 8)
            for (size_t j = 0; j < 8; j++) r[j] += a[i + j];
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++) res += a[i];
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

static void swap64(int64_t *a, int64_t *b) {
    int64_t t = *a;
    *a = *b;
    *b = t;
}

static int64_t median3(int64_t a, int64_t b, int64_t c) {
    if (a > b) swap64(&a, &b);
    if (b > c) b = c;
    return a > b ? a : b;
}

static int compare_i64(const void *pa, const void *pb) {
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    return (a > b) - (a < b);
}

/* Places the k-th smallest of x[lo, hi) at x[k], smaller ones before, larger after
 * (quickselect with a three-way partition, so equal durations cost nothing). */
static void nth_element(int64_t *x, size_t lo, size_t hi, size_t k) {
    int budget = 64; /* beyond this many rounds the input is adversarial: sort instead */
    while (hi - lo > SELECT_SMALL) {
        if (budget-- == 0) {
            qsort(x + lo, hi - lo, sizeof *x, compare_i64);
            return;
        }
        int64_t p = median3(x[lo], x[lo + (hi - lo) / 2], x[hi - 1]);
        size_t lt = lo, i = lo, gt = hi;
        while (i < gt) {
            if (x[i] < p) swap64(&x[lt++], &x[i++]);
            else if (x[i] > p) swap64(&x[i], &x[--gt]);
            else i++;
        }
        if (k < lt) hi = lt;
        else if (k >= gt) lo = gt;
        else return;
    }
    qsort(x + lo, hi - lo, sizeof *x, compare_i64);
}

void sp_percentiles_int64(int64_t *x, size_t n, const double *qs, size_t nq, double divisor,
                          double *out) {
    size_t lo = 0;
    size_t order[8];
    /* Visit the percentiles by increasing rank so each selection narrows the next. */
    for (size_t i = 0; i < nq && i < 8; i++) order[i] = i;
    for (size_t i = 1; i < nq && i < 8; i++)
        for (size_t j = i; j > 0 && qs[order[j]] < qs[order[j - 1]]; j--) {
            size_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    for (size_t oi = 0; oi < nq && oi < 8; oi++) {
        double v = (double)(n - 1) * (qs[order[oi]] / 100.0);
        size_t i = v >= (double)(n - 1) ? n - 1 : (size_t)floor(v);
        if (oi == 0 || i != lo) nth_element(x, lo, n, i); /* else in place already */
        lo = i;
        double a = (double)x[i] / divisor;
        if (v >= (double)(n - 1)) {
            out[order[oi]] = a;
            continue;
        }
        int64_t next = x[i + 1];
        for (size_t j = i + 2; j < n; j++)
            if (x[j] < next) next = x[j];
        out[order[oi]] = lerp(a, (double)next / divisor, v - floor(v));
    }
}
