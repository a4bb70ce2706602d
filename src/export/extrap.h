/* Extra-P's JSON Lines input (docs/scaling.md, "Extra-P"): one line per call
 * path of one run, {"params": {...}, "callpath": "a->b", "metric": "time",
 * "value": seconds}. */
#ifndef SP_EXPORT_EXTRAP_H
#define SP_EXPORT_EXTRAP_H

#include "common/error.h"
#include "common/text_buffer.h"
#include "scope_profiler/results.h"

/* Appends the run's lines: each call path's total time per rank (its total
 * over the selected ranks / the run's ranks), with the parameters given. */
sp_status sp_extrap_lines(const sp_results *run, const char *const *param_names,
                          const double *param_values, size_t num_params, const sp_filter *filter,
                          sp_textbuf *out, sp_error *err);

#endif
