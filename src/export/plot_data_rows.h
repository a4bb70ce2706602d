/*
 * Inside export data (plot_data*.c): the row writer every kind shares (CSV
 * fields after the first get a comma; JSON rows are objects of the given
 * keys) and the kinds' rows.
 */
#ifndef SP_EXPORT_PLOT_DATA_ROWS_H
#define SP_EXPORT_PLOT_DATA_ROWS_H

#include "export/plot_data.h"

typedef struct row_writer {
    sp_textbuf *out;
    int json;
    size_t rows;
} row_writer;

void sp_pd_begin_row(row_writer *w);
void sp_pd_text(row_writer *w, const char *key, const char *value, int first);
/* A number (Python's repr) after the first field. */
void sp_pd_field_number(row_writer *w, const char *key, double value);
void sp_pd_integer(row_writer *w, const char *key, long long value, int first);
/* An empty CSV field, JSON null, after the first field. */
void sp_pd_null(row_writer *w, const char *key);
void sp_pd_end_row(row_writer *w);
void sp_pd_number(sp_textbuf *out, double v);
void sp_pd_json_string(sp_textbuf *out, const char *s);
int sp_pd_rank_selected(const sp_filter *f, uint32_t rank);
/* The speedup axis: d->x, else "mpi_size". */
const char *sp_pd_x(const sp_plot_data *d);
/* SP_OK when run `run` holds per-call events; else the error naming the
 * file and the kind that needs them. */
sp_status sp_pd_need_events(const sp_plot_data *d, size_t run, const char *kind, sp_error *err);

sp_status sp_pd_flame_rows(row_writer *w, const sp_plot_data *d, size_t run, sp_error *err);
sp_status sp_pd_timeseries_rows(row_writer *w, const sp_plot_data *d, size_t run, sp_error *err);
sp_status sp_pd_speedup_rows(row_writer *w, const sp_plot_data *d, sp_error *err);
/* ,"options":{"x_field":...,"baseline":...} after the colours. */
void sp_pd_speedup_options(sp_textbuf *out, const sp_plot_data *d);

#endif
