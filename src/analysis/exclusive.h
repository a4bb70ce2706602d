/* Exclusive time per model row: stored totals or rebuilt from the call tree. */
#ifndef SP_ANALYSIS_EXCLUSIVE_H
#define SP_ANALYSIS_EXCLUSIVE_H

#include "analysis/internal.h"

/* Exclusive nanoseconds of one row: stored total or reconstructed (§3.1). */
sp_status sp_row_exclusive_ns(const sp_results *r, uint32_t row, int64_t *out, sp_error *err);

#endif
