#include <stdlib.h>
#include <string.h>

#include "present/table.h"
#include "common/utf8.h"

typedef struct glyphs {
    const char *h, *v, *top_l, *top_r, *mid_l, *mid_r, *bot_l, *bot_r;
} glyphs;

static const glyphs unicode_glyphs = {"\xe2\x94\x80", "\xe2\x94\x82", "\xe2\x95\xad",
                                      "\xe2\x95\xae", "\xe2\x94\x9c", "\xe2\x94\xa4",
                                      "\xe2\x95\xb0", "\xe2\x95\xaf"};
static const glyphs ascii_glyphs = {"-", "|", "+", "+", "+", "+", "+", "+"};

void sp_table_append_text(sp_textbuf *out, const char *text) {
    for (const char *nl; (nl = strchr(text, '\n')); text = nl + 1) {
        sp_textbuf_append_n(out, text, (size_t)(nl - text + 1));
        sp_textbuf_append(out, "  ");
    }
    sp_textbuf_append(out, text);
}

static void rule(sp_textbuf *out, const glyphs *g, const char *left, const char *right,
                 const size_t *w, size_t ncols) {
    sp_textbuf_append(out, "  ");
    sp_textbuf_append(out, left);
    for (size_t j = 0; j < ncols; j++) {
        if (j) sp_textbuf_repeat(out, g->h, 2);
        sp_textbuf_repeat(out, g->h, w[j] + 2);
    }
    sp_textbuf_append(out, right);
    sp_textbuf_putc(out, '\n');
}

static void line(sp_textbuf *out, const glyphs *g, const char *const *cells, const size_t *w,
                 size_t ncols) {
    sp_textbuf_append(out, "  ");
    sp_textbuf_append(out, g->v);
    for (size_t j = 0; j < ncols; j++) {
        if (j) sp_textbuf_append(out, "  ");
        sp_textbuf_putc(out, ' ');
        sp_table_append_text(out, cells[j]);
        sp_textbuf_repeat(out, " ", w[j] - sp_utf8_length(cells[j]) + 1);
    }
    sp_textbuf_append(out, g->v);
    sp_textbuf_putc(out, '\n');
}

void sp_table_layout(sp_textbuf *out, const char *const *headers, size_t ncols,
                     const char *const *cells, size_t nrows, int ascii) {
    const glyphs *g = ascii ? &ascii_glyphs : &unicode_glyphs;
    size_t *w = calloc(ncols ? ncols : 1, sizeof *w);
    if (!w) {
        out->failed = 1;
        return;
    }
    /* tabulate's rule: at least the header plus two, else the longest cell */
    for (size_t j = 0; j < ncols; j++) {
        w[j] = sp_utf8_length(headers[j]) + 2;
        for (size_t i = 0; i < nrows; i++) {
            size_t len = sp_utf8_length(cells[i * ncols + j]);
            if (len > w[j]) w[j] = len;
        }
    }
    rule(out, g, g->top_l, g->top_r, w, ncols);
    line(out, g, headers, w, ncols);
    rule(out, g, g->mid_l, g->mid_r, w, ncols);
    for (size_t i = 0; i < nrows; i++)
        line(out, g, cells + i * ncols, w, ncols);
    rule(out, g, g->bot_l, g->bot_r, w, ncols);
    free(w);
}
