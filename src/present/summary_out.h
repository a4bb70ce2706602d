/* Summary rows (to_dataframe) as CSV or JSON text: the formatters and the
 * shared driver that fetches the rows and writes the text to a stream. */
#ifndef SP_PRESENT_SUMMARY_OUT_H
#define SP_PRESENT_SUMMARY_OUT_H

#include <stdio.h>

#include "common/text_buffer.h"
#include "scope_profiler/results.h"

typedef sp_status (*sp_summary_formatter)(sp_textbuf *out, const sp_summary_rows *rows, int per_rank);

/* The formatters: a header line and one line per row (CSV), or a list of
 * objects with two-space indentation and a final newline (JSON). They fail
 * only with SP_ERR_OUT_OF_MEMORY. */
sp_status sp_summary_rows_csv(sp_textbuf *out, const sp_summary_rows *rows, int per_rank);
sp_status sp_summary_rows_json(sp_textbuf *out, const sp_summary_rows *rows, int per_rank);

/* sp_results_summary(), format, write all of it to out (nothing on error). */
sp_status sp_summary_write(const sp_results *results, FILE *out, const sp_filter *filter,
                           int per_rank, sp_summary_formatter format, const char *what,
                           sp_error *err);

#endif
