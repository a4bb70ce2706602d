#include "present/summary_out.h"

#include "common/error.h"

sp_status sp_summary_write(const sp_results *results, FILE *out, const sp_filter *filter,
                           int per_rank, sp_summary_formatter format, const char *what,
                           sp_error *err) {
    if (!results || !out)
        return sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "summary %s: no results or stream", what);
    sp_summary_rows *rows = sp_results_summary(results, filter, per_rank, err);
    if (!rows) return err && err->status != SP_OK ? err->status : SP_ERR_OUT_OF_MEMORY;
    sp_textbuf text = SP_TEXTBUF_INIT;
    sp_status st = format(&text, rows, per_rank);
    sp_summary_rows_free(rows);
    if (st != SP_OK) {
        sp_textbuf_free(&text);
        return sp_error_set(err, st, "cannot format the summary as %s: out of memory", what);
    }
    if (fwrite(text.data, 1, text.len, out) != text.len || fflush(out) != 0)
        st = sp_error_set(err, SP_ERR_IO, "cannot write the summary as %s: write error", what);
    sp_textbuf_free(&text);
    return st;
}
