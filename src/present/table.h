/*
 * The summary table (print_summary, python_semantics.md §5.4-5.7), split
 * into columns (table_columns.c), cells (table_cells.c), the box layout
 * (table_layout.c), the notes box (notes_box.c) and the whole print
 * (table_print.c). The rows come ready-made from the analysis layer
 * (sp_table_rows_build); nothing here computes a statistic.
 *
 * ASCII mode (sp_print_options.ascii) is our own fallback for terminals
 * without UTF-8: box corners "+", lines "-" and "|", tree prefixes "\- "
 * and "| " instead of "└─ " and "│ ", and "(r)" instead of "↻". Widths
 * follow the same rule, so the tree columns line up identically.
 */
#ifndef SP_PRESENT_TABLE_H
#define SP_PRESENT_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "common/text_buffer.h"

typedef enum sp_table_column {
    SP_COL_REGION = 0,
    SP_COL_RANKS,
    SP_COL_CALLS,
    SP_COL_TOTAL,
    SP_COL_PERCENT,
    SP_COL_PARENT_PERCENT,
    SP_COL_AVG,
    SP_COL_MIN,
    SP_COL_MAX,
    SP_COL_FIRST,
    SP_COL_LAST,
    SP_COL_STD,
    SP_COL_P50,
    SP_COL_P95,
    SP_COL_P99,
    SP_COL_IMBALANCE,
    SP_COL_SLOWEST, /* docs/parallel.md */
    SP_COL_LOAD_BALANCE,
    SP_COL_THREADS,
    SP_COL_THREAD_IMBALANCE,
    SP_COL_SLOWEST_THREAD,
    SP_COL_COUNT_
} sp_table_column;

/* --- columns ------------------------------------------------------------ */

/* The public key ("region", "ranks", ...) and header ("region", "n", ...). */
const char *sp_table_column_key(sp_table_column c);
const char *sp_table_column_header(sp_table_column c);
/* The header when durations carry their unit: no " [s]" ("total", "avg/call"). */
const char *sp_table_column_header_readable(sp_table_column c);

/* Resolves column names (aliases: "name" = "region") into out (n entries).
 * Unknown names: SP_ERR_BAD_OPTION "Unknown region summary column(s):
 * ['x']. Choices: region, ranks, ..."; n == 0: SP_ERR_BAD_OPTION "At least
 * one region summary column must be selected." */
sp_status sp_table_columns_parse(const char *const *names, size_t n, sp_table_column *out,
                                 sp_error *err);

/* The default columns: region, total; or region, percent, total when the
 * rows have a session total. Returns the count (out holds 3). */
size_t sp_table_columns_default(const sp_table_rows *rows, sp_table_column *out);

/* Without chosen columns, parallel files show who is slow (docs/parallel.md):
 * several ranks: imbalance and slowest rank; one rank, several threads:
 * thread imbalance and slowest thread. NULL (n untouched) for the usual
 * defaults. Used by inspect and the summary a run prints at its end. */
const char *const *sp_table_parallel_columns(const sp_results *r, size_t *n);

/* Appends text to a table line; a newline in it (a region name may hold one)
 * is followed by the table's two-space indent, as every line of Python's table. */
void sp_table_append_text(sp_textbuf *out, const char *text);

/* --- cells -------------------------------------------------------------- */

typedef struct sp_cell_context {
    const sp_table_rows *rows; /* for the session total */
    int exclusive_mode;        /* percentage_mode "exclusive" */
    int inline_count;          /* no calls column: the region cell gets " (Nx)" */
    int ascii;
    int readable; /* durations with their unit, exact counts (docs/cli.md "Units") */
} sp_cell_context;

/* Appends the text of column c for row r, or for the "(own)" row after r. */
void sp_table_cell(sp_textbuf *out, const sp_table_row *r, sp_table_column c,
                   const sp_cell_context *ctx);
void sp_table_own_cell(sp_textbuf *out, const sp_table_row *r, sp_table_column c,
                       const sp_cell_context *ctx);

/* count(): 999, 1k, 1.5k, 123k, 1e+03k, 2.5M, 1B ... (Python "%.3g" + suffix). */
void sp_format_count(sp_textbuf *out, uint64_t v);
/* The readable count: exact below 10,000,000, then 12.3M, 1.23B. */
void sp_format_count_exact(sp_textbuf *out, uint64_t v);
/* pct(v, den): "-" unless v and den are known and den > 0, else "12.34%". */
void sp_format_pct(sp_textbuf *out, int has_v, double v, int has_den, double den);
/* The tree prefix of a depth: "", "└─ ", "│ └─ ", ... */
void sp_format_tree_prefix(sp_textbuf *out, int depth, int ascii);

/* --- layout ------------------------------------------------------------- */

/* The box table: headers[ncols], cells[nrows * ncols] (row-major), each line
 * with a two-space margin; no trailing empty line. */
void sp_table_layout(sp_textbuf *out, const char *const *headers, size_t ncols,
                     const char *const *cells, size_t nrows, int ascii);

/* --- notes -------------------------------------------------------------- */

typedef struct sp_notes_context {
    const char *title;     /* "Summary: {title}"; NULL = no such line */
    const char *file_path; /* command hints for this file; NULL = none */
    int exclusive_mode;
    int ascii;
    size_t max_width;      /* nonzero: the box fits; longer lines run past its edge */
    int shows_percentiles; /* a p50/p95/p99 column is shown (their error bound is noted) */
    int no_events;         /* the file keeps no per-call events: no `events` hint (it would fail) */
    int readable;          /* durations carry their unit: the note says so */
    int shows_slowest;     /* the slowest-rank column is shown (what it compares is noted) */
} sp_notes_context;

/* Appends the "Info" box (no blank line before or after). */
void sp_notes_box(sp_textbuf *out, const sp_table_rows *rows, const sp_notes_context *ctx);

/* --- the whole table ---------------------------------------------------- */

typedef struct sp_table_format {
    const sp_table_column *columns; /* NULL: the default columns */
    size_t num_columns;
    int exclusive_mode;
    int ascii;
    int suppress_notes;
    const char *title;     /* notes title; also printed above "(no regions recorded)" */
    const char *file_path; /* for the hints in the notes; NULL = none */
    size_t max_width;      /* nonzero: cut region cells so that the table fits */
    size_t rows_left_out;  /* nonzero: a line under the table says so (bounded output) */
    int no_events;         /* the file keeps no per-call events: no `events` hint */
    int readable;          /* sp_print_options.readable_units */
} sp_table_format;

/* Formats the rows into text (the table, the notes unless suppressed, the
 * final empty line). SP_ERR_OUT_OF_MEMORY is the only error. */
sp_status sp_table_format_text(sp_textbuf *out, const sp_table_rows *rows,
                               const sp_table_format *fmt, sp_error *err);

/* sp_print_summary() showing at most max_rows rows (0: all, and then any depth),
 * none deeper than 23 levels; a line under the table says how many it left out. */
sp_status sp_print_summary_bounded(const sp_results *results, FILE *out,
                                   const sp_print_options *options, size_t max_rows,
                                   sp_error *err);

/* sp_print_summary_bounded with readable durations (docs/cli.md "Units":
 * "3.06 ms", headers without "[s]", exact counts) when readable is nonzero;
 * the public sp_print_options keep the Python package's seconds. */
sp_status sp_print_summary_units(const sp_results *results, FILE *out,
                                 const sp_print_options *options, size_t max_rows, int readable,
                                 sp_error *err);

/* Formats and writes to out; SP_ERR_IO when the stream reports an error. */
sp_status sp_table_print(FILE *out, const sp_table_rows *rows, const sp_table_format *fmt,
                         sp_error *err);

#endif
