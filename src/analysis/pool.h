/* Pooled statistics over a set of rows (numpy's sums and percentiles). */
#ifndef SP_ANALYSIS_POOL_H
#define SP_ANALYSIS_POOL_H

#include "analysis/internal.h"
#include "analysis/numpy_stats.h"

/* numpy sum of the durations of rows (in order) divided by divisor, or of
 * (duration / divisor - mean)^2 when squared. */
double sp_rows_numpy_sum(const sp_results *r, const uint32_t *rows, size_t n, double divisor,
                         int squared, double mean);

/* Percentiles of the durations of rows (see sp_percentiles_spans); rows may be empty of calls. */
sp_status sp_rows_percentiles(const sp_results *r, const uint32_t *rows, size_t n, const double *qs,
                              size_t nq, double divisor, double *out);

/* Pooled statistics over the given rows (in the given order). */
sp_status sp_pool_rows(const sp_results *r, const uint32_t *rows, size_t n, int what, sp_pool *out,
                       sp_error *err);

#endif
