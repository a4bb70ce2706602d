/* Private to src/report/: one function per section of the HTML report. */
#ifndef SP_REPORT_REPORT_INTERNAL_H
#define SP_REPORT_REPORT_INTERNAL_H

#include "analysis/analysis.h"
#include "common/text_buffer.h"
#include "scope_profiler/report.h"

typedef struct sp_report {
    const sp_results *const *runs;
    size_t num_runs;
    const sp_results *r; /* the (baseline) run */
    const sp_report_options *o;
    sp_textbuf *b;
    double wall;               /* seconds: setup to finalize, else the span of the calls */
    double session;            /* rank-seconds the hotspots add up to */
    double inside;             /* rank-seconds inside regions (sum of the root paths' totals) */
    const sp_table_rows *rows; /* the region tree, tree order */
} sp_report;

/* The inline style sheet and script (report_assets.c). */
extern const char sp_report_css[];
extern const char sp_report_js[];

/* Nonzero for the top-level "scope_profiler.session" row (the whole session;
 * its own time is the time outside any region). */
int sp_report_is_session_row(const sp_table_row *row);

/* The row's call path without the leading "scope_profiler.session > ". */
const char *sp_report_path(const sp_table_row *row);

/* Escaped text. */
void sp_report_text(sp_report *rp, const char *s);

/* A name or call path in a table cell: escaped, and one longer than
 * SP_REPORT_NAME_MAX code points cut to its first SP_REPORT_NAME_HEAD, an
 * ellipsis and its end, with the whole name as the tooltip (the filter
 * searches the row's data-name, which stays whole). */
#define SP_REPORT_NAME_MAX  80
#define SP_REPORT_NAME_HEAD 52
void sp_report_name(sp_report *rp, const char *s);
/* A duration cell value: "3.06 ms" with data-v="0.00306" for sorting. */
void sp_report_seconds_cell(sp_report *rp, double seconds);

sp_status sp_report_header(sp_report *rp, sp_error *err);     /* header + headline figures */
sp_status sp_report_hotspots(sp_report *rp, sp_error *err);   /* leaf paths and own times */
sp_status sp_report_tree(sp_report *rp, sp_error *err);       /* the region tree table */
sp_status sp_report_balance(sp_report *rp, sp_error *err);    /* per-rank own time */
sp_status sp_report_threads(sp_report *rp, sp_error *err);    /* per-thread balance */
sp_status sp_report_charts(sp_report *rp, sp_error *err);     /* the SVG charts */
sp_status sp_report_comparison(sp_report *rp, sp_error *err); /* several runs */
/* Run k against the baseline (runs[0]): the difference flame graph. */
sp_status sp_report_diff_flame(sp_report *rp, size_t k, sp_error *err);

#endif
