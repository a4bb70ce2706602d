/* numpy's pairwise sum and percentile formula on int64 durations. */
#ifndef SP_ANALYSIS_NUMPY_STATS_H
#define SP_ANALYSIS_NUMPY_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "scope_profiler/results.h"

/* numpy pairwise sum of a sequence produced block by block: fill(ctx, first, count, buf)
 * writes elements [first, first + count) of the virtual array into buf. */
typedef void (*sp_fill_fn)(void *ctx, size_t first, size_t count, double *buf);
double sp_numpy_sum_gen(size_t n, sp_fill_fn fill, void *ctx);

/* One run of int64 values into a fill buffer: x = value / divisor, or
 * (x - mean)^2 when squared. One tight loop per run, so that a fill
 * function over many runs converts each at full speed. */
static inline void sp_fill_scaled(const int64_t *src, size_t n, double divisor, int squared,
                                  double mean, double *dst) {
    if (squared)
        for (size_t i = 0; i < n; i++) {
            double x = (double)src[i] / divisor;
            dst[i] = (x - mean) * (x - mean);
        }
    else
        for (size_t i = 0; i < n; i++)
            dst[i] = (double)src[i] / divisor;
}

/* A run of int64 values (durations). */
typedef struct sp_span {
    const int64_t *x;
    size_t n;
} sp_span;

/* numpy percentiles (qs in percent, at most 8) of the values of the spans
 * (all within [lo, hi]) divided by divisor; out[i] belongs to qs[i]. Reads
 * the values in place (radix histograms, no copy of the data).
 * SP_ERR_INVALID_ARGUMENT without values; SP_ERR_OUT_OF_MEMORY. */
sp_status sp_percentiles_spans(const sp_span *spans, size_t nspans, int64_t lo, int64_t hi,
                               const double *qs, size_t nq, double divisor, double *out);

#endif
