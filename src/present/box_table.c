#include "present/box_table.h"

#include <stdlib.h>

#include "common/utf8.h"

static void rule(sp_textbuf *out, const char *left, const char *mid, const char *right,
                 const size_t *w, size_t ncols) {
    sp_textbuf_append(out, "  ");
    sp_textbuf_append(out, left);
    for (size_t j = 0; j < ncols; j++) {
        if (j) sp_textbuf_append(out, mid);
        sp_textbuf_repeat(out, "\xe2\x94\x80", w[j] + 2);
    }
    sp_textbuf_append(out, right);
    sp_textbuf_putc(out, '\n');
}

static void line(sp_textbuf *out, const char *const *cells, const size_t *w, size_t ncols) {
    sp_textbuf_append(out, "  ");
    for (size_t j = 0; j < ncols; j++) {
        sp_textbuf_append(out, "\xe2\x94\x82 ");
        sp_textbuf_append(out, cells[j]);
        sp_textbuf_repeat(out, " ", w[j] - sp_utf8_length(cells[j]) + 1);
    }
    sp_textbuf_append(out, "\xe2\x94\x82\n");
}

void sp_box_table(sp_textbuf *out, const char *const *headers, size_t ncols,
                  const char *const *cells, size_t nrows) {
    size_t *w = calloc(ncols ? ncols : 1, sizeof *w);
    if (!w) {
        out->failed = 1;
        return;
    }
    for (size_t j = 0; j < ncols; j++) {
        w[j] = sp_utf8_length(headers[j]) + 2;
        for (size_t i = 0; i < nrows; i++) {
            size_t len = sp_utf8_length(cells[i * ncols + j]);
            if (len > w[j]) w[j] = len;
        }
    }
    rule(out, "\xe2\x95\xad", "\xe2\x94\xac", "\xe2\x95\xae", w, ncols); /* ╭ ┬ ╮ */
    line(out, headers, w, ncols);
    rule(out, "\xe2\x94\x9c", "\xe2\x94\xbc", "\xe2\x94\xa4", w, ncols); /* ├ ┼ ┤ */
    for (size_t i = 0; i < nrows; i++)
        line(out, cells + i * ncols, w, ncols);
    rule(out, "\xe2\x95\xb0", "\xe2\x94\xb4", "\xe2\x95\xaf", w, ncols); /* ╰ ┴ ╯ */
    free(w);
}
