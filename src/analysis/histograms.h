/* Duration histograms of aggregate-layout files, per model row. */
#ifndef SP_ANALYSIS_HISTOGRAMS_H
#define SP_ANALYSIS_HISTOGRAMS_H

#include "analysis/internal.h"

/* Aggregate files with histograms (histograms.c): whether there are any,
 * the percentiles of the merged histograms of rows (SP_ERR_UNAVAILABLE
 * without histograms), and freeing the per-row cache. */
int sp_has_histograms(const sp_results *r);
sp_status sp_rows_hist_percentiles(const sp_results *r, const uint32_t *rows, size_t n,
                                   const double *qs, size_t nq, double divisor, double *out);
void sp_row_histograms_free(sp_results *r);

#endif
