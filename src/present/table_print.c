#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/utf8.h"
#include "present/table.h"

/* The text of every cell, row-major, "(own)" rows included. */
typedef struct cell_grid {
    char **cells;
    size_t nrows;
    size_t size; /* allocated cells */
} cell_grid;

static void grid_free(cell_grid *g) {
    if (g->cells)
        for (size_t i = 0; i < g->size; i++)
            free(g->cells[i]);
    free(g->cells);
}

static int grid_fill(cell_grid *g, const sp_table_rows *rows, const sp_table_column *cols,
                     size_t ncols, const sp_cell_context *ctx) {
    size_t lines = rows->count;
    for (size_t i = 0; i < rows->count; i++)
        lines += rows->rows[i].has_children ? 1 : 0;
    g->nrows = 0;
    g->cells = calloc(lines * ncols + 1, sizeof *g->cells);
    if (!g->cells) return 0;
    g->size = lines * ncols;
    for (size_t i = 0; i < rows->count; i++) {
        const sp_table_row *r = &rows->rows[i];
        for (int own = 0; own <= (r->has_children ? 1 : 0); own++) {
            for (size_t j = 0; j < ncols; j++) {
                sp_textbuf b = SP_TEXTBUF_INIT;
                if (own)
                    sp_table_own_cell(&b, r, cols[j], ctx);
                else
                    sp_table_cell(&b, r, cols[j], ctx);
                char *text = sp_textbuf_take(&b);
                if (!text) return 0;
                g->cells[g->nrows * ncols + j] = text;
            }
            g->nrows++;
        }
    }
    return 1;
}

/* Bytes of the first k code points of s (as sp_utf8_length counts them). */
static size_t prefix_bytes(const char *s, size_t k) {
    size_t n = strlen(s), i = 0;
    for (; k > 0 && i < n; k--) {
        int32_t cp;
        i += sp_utf8_decode((const unsigned char *)s + i, n - i, &cp);
    }
    return i;
}

/* Cuts the region column's long cells (with an ellipsis) until the table fits in
 * max_width columns, down to 20 columns (fewer below about 50 columns, so that
 * each block of layout_in_blocks fits); the other columns stay whole. */
static int fit_width(cell_grid *g, const char *const *headers, size_t ncols, size_t max_width,
                     int ascii) {
    size_t total = 4 + 2 * (ncols ? ncols - 1 : 0), region = 0, widest = 0;
    for (size_t j = 0; j < ncols; j++) {
        size_t w = sp_utf8_length(headers[j]) + 2;
        for (size_t i = 0; i < g->nrows; i++) {
            size_t len = sp_utf8_length(g->cells[i * ncols + j]);
            if (len > w) w = len;
        }
        total += w + 2;
        if (j == 0)
            region = w;
        else if (w > widest)
            widest = w;
    }
    /* names stay readable: never shorter than 20 columns (or the header), but
     * shorter still where the widest other column would not fit beside them
     * (a block is the frame, the name column and one more: 4 + w + 2 + w1 + 4) */
    size_t header0 = sp_utf8_length(headers[0]) + 2, floor = header0 < 20 ? 20 : header0;
    if (max_width > 10 + widest && max_width - 10 - widest < floor)
        floor = max_width - 10 - widest > header0 ? max_width - 10 - widest : header0;
    if (total <= max_width || region <= floor) return 1;
    size_t keep = region - (total - max_width);
    if (total - max_width >= region || keep < floor) keep = floor;
    const char *mark = ascii ? "~" : "\xe2\x80\xa6";
    for (size_t i = 0; i < g->nrows; i++) {
        char *cell = g->cells[i * ncols];
        if (sp_utf8_length(cell) <= keep) continue;
        size_t bytes = prefix_bytes(cell, keep - 1);
        sp_textbuf b = SP_TEXTBUF_INIT;
        sp_textbuf_append_n(&b, cell, bytes);
        sp_textbuf_append(&b, mark);
        char *cut = sp_textbuf_take(&b);
        if (!cut) return 0;
        free(cell);
        g->cells[i * ncols] = cut;
    }
    return 1;
}

/* Display width of each column, as sp_table_layout computes it. */
static void column_widths(const cell_grid *g, const char *const *headers, size_t ncols, size_t *w) {
    for (size_t j = 0; j < ncols; j++) {
        w[j] = sp_utf8_length(headers[j]) + 2;
        for (size_t i = 0; i < g->nrows; i++) {
            size_t len = sp_utf8_length(g->cells[i * ncols + j]);
            if (len > w[j]) w[j] = len;
        }
    }
}

/* Lays the table out whole, or, when it is wider than max_width even with the
 * names cut, as successive tables of the columns that fit, each repeating the
 * first (region) column: nothing is hidden, nothing wraps. */
static int layout_in_blocks(sp_textbuf *out, const char *const *headers, size_t ncols,
                            const cell_grid *g, size_t max_width, int ascii) {
    size_t *w = calloc(ncols ? ncols : 1, sizeof *w);
    const char **hsub = calloc(ncols ? ncols : 1, sizeof *hsub);
    const char **csub = calloc(g->nrows * (ncols ? ncols : 1) + 1, sizeof *csub);
    if (!w || !hsub || !csub) {
        free(w), free(hsub), free(csub);
        return 0;
    }
    column_widths(g, headers, ncols, w);
    size_t first = 1; /* next column not yet shown */
    do {
        /* the frame (4), the first column, then each added column with its gap */
        size_t used = 4 + w[0] + 2, last = first;
        while (last < ncols && (last == first || !max_width || used + w[last] + 4 <= max_width))
            used += w[last++] + 4;
        size_t bn = 1 + (last - first);
        hsub[0] = headers[0];
        for (size_t j = first; j < last; j++)
            hsub[1 + j - first] = headers[j];
        for (size_t i = 0; i < g->nrows; i++) {
            csub[i * bn] = g->cells[i * ncols];
            for (size_t j = first; j < last; j++)
                csub[i * bn + 1 + j - first] = g->cells[i * ncols + j];
        }
        if (first > 1) sp_textbuf_putc(out, '\n');
        sp_table_layout(out, hsub, bn, csub, g->nrows, ascii);
        first = last;
    } while (first < ncols);
    free(w), free(hsub), free(csub);
    return 1;
}

sp_status sp_table_format_text(sp_textbuf *out, const sp_table_rows *rows,
                               const sp_table_format *fmt, sp_error *err) {
    if (!rows->count) {
        if (fmt->title && *fmt->title) {
            sp_textbuf_append(out, fmt->title);
            sp_textbuf_putc(out, '\n');
        }
        sp_textbuf_append(out, "  (no regions recorded)\n");
        goto done;
    }
    sp_table_column defaults[3];
    const sp_table_column *cols = fmt->columns;
    size_t ncols = fmt->num_columns;
    if (!cols) {
        ncols = sp_table_columns_default(rows, defaults);
        cols = defaults;
    }
    sp_cell_context ctx = {rows, fmt->exclusive_mode, 1, fmt->ascii, fmt->readable};
    for (size_t j = 0; j < ncols; j++)
        if (cols[j] == SP_COL_CALLS) ctx.inline_count = 0;

    const char **headers = calloc(ncols ? ncols : 1, sizeof *headers);
    cell_grid grid = {NULL, 0, 0};
    if (!headers || !grid_fill(&grid, rows, cols, ncols, &ctx)) {
        free(headers);
        grid_free(&grid);
        out->failed = 1;
        goto done;
    }
    for (size_t j = 0; j < ncols; j++)
        headers[j] = fmt->readable ? sp_table_column_header_readable(cols[j])
                                   : sp_table_column_header(cols[j]);
    if (fmt->max_width && cols[0] == SP_COL_REGION &&
        !fit_width(&grid, headers, ncols, fmt->max_width, fmt->ascii)) {
        free(headers);
        grid_free(&grid);
        out->failed = 1;
        goto done;
    }
    if (!layout_in_blocks(out, headers, ncols, &grid, fmt->max_width, fmt->ascii)) out->failed = 1;
    free(headers);
    grid_free(&grid);
    if (fmt->rows_left_out)
        sp_textbuf_printf(
            out, "  (%zu more row(s) not shown; scope-profiler inspect %s shows them all)\n",
            fmt->rows_left_out, fmt->file_path ? fmt->file_path : "FILE");
    if (!fmt->suppress_notes) {
        sp_notes_context nctx = {fmt->title && *fmt->title ? fmt->title : NULL,
                                 fmt->file_path,
                                 fmt->exclusive_mode,
                                 fmt->ascii,
                                 fmt->max_width,
                                 0,
                                 fmt->no_events,
                                 fmt->readable,
                                 0};
        for (size_t j = 0; j < ncols; j++) {
            nctx.shows_percentiles |=
                cols[j] == SP_COL_P50 || cols[j] == SP_COL_P95 || cols[j] == SP_COL_P99;
            nctx.shows_slowest |= cols[j] == SP_COL_SLOWEST;
        }
        sp_textbuf_putc(out, '\n');
        sp_notes_box(out, rows, &nctx);
    }
    sp_textbuf_putc(out, '\n');
done:
    if (sp_textbuf_failed(out))
        return sp_error_set(err, SP_ERR_OUT_OF_MEMORY,
                            "cannot format the summary table: out of memory");
    return SP_OK;
}

sp_status sp_table_print(FILE *out, const sp_table_rows *rows, const sp_table_format *fmt,
                         sp_error *err) {
    sp_textbuf text = SP_TEXTBUF_INIT;
    sp_status st = sp_table_format_text(&text, rows, fmt, err);
    if (st == SP_OK) {
        if (fwrite(text.data, 1, text.len, out) != text.len || fflush(out) != 0)
            st = sp_error_set(err, SP_ERR_IO, "cannot print the summary table: write error");
    }
    sp_textbuf_free(&text);
    return st;
}
