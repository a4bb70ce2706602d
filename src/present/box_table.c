#include "present/box_table.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

static void widths(size_t *w, const char *const *headers, size_t ncols, const char *const *cells,
                   size_t nrows) {
    for (size_t j = 0; j < ncols; j++) {
        w[j] = sp_utf8_length(headers[j]) + 2;
        for (size_t i = 0; i < nrows; i++) {
            size_t len = sp_utf8_length(cells[i * ncols + j]);
            if (len > w[j]) w[j] = len;
        }
    }
}

void sp_box_table(sp_textbuf *out, const char *const *headers, size_t ncols,
                  const char *const *cells, size_t nrows) {
    size_t *w = calloc(ncols ? ncols : 1, sizeof *w);
    if (!w) {
        out->failed = 1;
        return;
    }
    widths(w, headers, ncols, cells, nrows);
    rule(out, "\xe2\x95\xad", "\xe2\x94\xac", "\xe2\x95\xae", w, ncols); /* ╭ ┬ ╮ */
    line(out, headers, w, ncols);
    rule(out, "\xe2\x94\x9c", "\xe2\x94\xbc", "\xe2\x94\xa4", w, ncols); /* ├ ┼ ┤ */
    for (size_t i = 0; i < nrows; i++)
        line(out, cells + i * ncols, w, ncols);
    rule(out, "\xe2\x95\xb0", "\xe2\x94\xb4", "\xe2\x95\xaf", w, ncols); /* ╰ ┴ ╯ */
    free(w);
}

/* The first max code points of s, the last replaced by "…" when s is longer. */
static char *cut(const char *s, size_t max) {
    sp_textbuf b = SP_TEXTBUF_INIT;
    if (sp_utf8_length(s) <= max) {
        sp_textbuf_append(&b, s);
        return sp_textbuf_take(&b);
    }
    size_t i = 0, n = strlen(s);
    for (size_t k = 0; k + 1 < max && i < n; k++) {
        int32_t cp;
        i += sp_utf8_decode((const unsigned char *)s + i, n - i, &cp);
    }
    sp_textbuf_append_n(&b, s, i);
    sp_textbuf_append(&b, "\xe2\x80\xa6");
    return sp_textbuf_take(&b);
}

/* Appends text as one line at indent, cut with "…" to max code points (0: whole). */
static void record_line(sp_textbuf *out, size_t indent, const char *label, size_t label_width,
                        const char *value, size_t max_width) {
    sp_textbuf_repeat(out, " ", indent);
    size_t used = indent;
    if (label) {
        sp_textbuf_append(out, label);
        sp_textbuf_repeat(out, " ", label_width - sp_utf8_length(label) + 2);
        used += label_width + 2;
    }
    char *shown = cut(value, max_width > used + 1 ? max_width - used : 2);
    if (!shown) {
        out->failed = 1;
        return;
    }
    sp_textbuf_append(out, shown);
    sp_textbuf_putc(out, '\n');
    free(shown);
}

/* A value on lines of its own at indent 6, wrapped at spaces (a word longer
 * than the room is cut). */
static void record_value(sp_textbuf *out, const char *value, size_t max_width) {
    size_t room = max_width > 8 ? max_width - 6 : 2;
    sp_textbuf line = SP_TEXTBUF_INIT;
    const char *p = value;
    while (*p) {
        size_t n = strcspn(p, " ");
        sp_textbuf word = SP_TEXTBUF_INIT;
        sp_textbuf_append_n(&word, p, n);
        const char *w = sp_textbuf_str(&word), *l = sp_textbuf_str(&line);
        if (!w || !l) {
            out->failed = 1;
        } else if (line.len && sp_utf8_length(l) + 1 + sp_utf8_length(w) > room) {
            record_line(out, 6, NULL, 0, l, max_width);
            sp_textbuf_free(&line);
            sp_textbuf_append(&line, w);
        } else {
            if (line.len) sp_textbuf_putc(&line, ' ');
            sp_textbuf_append(&line, w);
        }
        sp_textbuf_free(&word);
        p += n;
        p += strspn(p, " ");
    }
    const char *l = sp_textbuf_str(&line);
    if (l && line.len) record_line(out, 6, NULL, 0, l, max_width);
    sp_textbuf_free(&line);
}

/* Below the width two columns need: each row as a record, its first cell on
 * a line of its own and the others below it as "header  value" lines, a value
 * too long for that line on the next one. */
static void record_table(sp_textbuf *out, const char *const *headers, size_t ncols,
                         const char *const *cells, size_t nrows, size_t max_width) {
    size_t label_width = 0;
    for (size_t j = 1; j < ncols; j++)
        if (sp_utf8_length(headers[j]) > label_width) label_width = sp_utf8_length(headers[j]);
    for (size_t i = 0; i < nrows; i++) {
        const char *const *row = cells + i * ncols;
        record_line(out, 2, NULL, 0, row[0], max_width);
        for (size_t j = 1; j < ncols; j++) {
            if (4 + label_width + 2 + sp_utf8_length(row[j]) <= max_width) {
                record_line(out, 4, headers[j], label_width, row[j], max_width);
            } else {
                record_line(out, 4, NULL, 0, headers[j], max_width);
                record_value(out, row[j], max_width);
            }
        }
    }
}

void sp_box_table_fit(sp_textbuf *out, const char *const *headers, size_t ncols,
                      const char *const *cells, size_t nrows, size_t max_width) {
    size_t *w = calloc(ncols ? ncols : 1, sizeof *w);
    const char **hsub = calloc(ncols ? ncols : 1, sizeof *hsub);
    const char **csub = calloc(nrows * ncols + 1, sizeof *csub);
    char **first = calloc(nrows + 1, sizeof *first);
    if (!w || !hsub || !csub || !first) {
        out->failed = 1;
        goto done;
    }
    widths(w, headers, ncols, cells, nrows);
    size_t total = 3; /* the margin and the last rule */
    for (size_t j = 0; j < ncols; j++)
        total += w[j] + 3; /* "│ " + cell + " " */
    if (!max_width || total <= max_width || ncols < 2) {
        sp_box_table(out, headers, ncols, cells, nrows);
        goto done;
    }
    size_t widest = 0;
    for (size_t j = 1; j < ncols; j++)
        if (w[j] > widest) widest = w[j];
    size_t header0 = sp_utf8_length(headers[0]) + 2;
    if (3 + header0 + 3 + widest + 3 > max_width) { /* not even two columns fit */
        record_table(out, headers, ncols, cells, nrows, max_width);
        goto done;
    }
    /* the first column gets what the widest other one leaves, its header at least */
    size_t room = max_width > widest + 9 ? max_width - widest - 9 : 0;
    if (room < header0) room = header0;
    if (w[0] > room) w[0] = room;
    for (size_t i = 0; i < nrows; i++)
        if (!(first[i] = cut(cells[i * ncols], w[0]))) {
            out->failed = 1;
            goto done;
        }
    for (size_t j = 1; j < ncols;) {
        size_t width = 3 + w[0] + 3 + w[j] + 3, last = j + 1;
        while (last < ncols && width + w[last] + 3 <= max_width)
            width += w[last++] + 3;
        size_t bn = 1 + last - j;
        hsub[0] = headers[0];
        for (size_t k = j; k < last; k++)
            hsub[1 + k - j] = headers[k];
        for (size_t i = 0; i < nrows; i++) {
            csub[i * bn] = first[i];
            for (size_t k = j; k < last; k++)
                csub[i * bn + 1 + k - j] = cells[i * ncols + k];
        }
        if (j > 1) sp_textbuf_putc(out, '\n');
        sp_box_table(out, hsub, bn, csub, nrows);
        j = last;
    }
done:
    if (first)
        for (size_t i = 0; i < nrows; i++)
            free(first[i]);
    free(first), free(csub), free(hsub), free(w);
}
