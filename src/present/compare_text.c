/* The diff/check table as the Python package prints it (diff.py's print_diff_table). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/terminal_text.h"
#include "common/utf8.h"
#include "present/compare_out.h"
#include "present/box_table.h"

#define MAX_COLS 8

/* .6g, or an integer for call counts (fractional when runs were averaged). */
static void value_text(sp_textbuf *b, double v, int calls, int sign) {
    const char *s = sign && v >= 0.0 ? "+" : "";
    if (calls && v == floor(v) && fabs(v) < 9e15)
        sp_textbuf_printf(b, "%s%lld", s, (long long)v);
    else
        sp_textbuf_printf(b, "%s%.6g", s, v);
}

static void interval_text(sp_textbuf *b, const sp_significance *s) {
    if (isnan(s->ratio_low)) {
        sp_textbuf_append(b, "-");
        return;
    }
    sp_textbuf_printf(b, "[%.4g, %.4g]", s->ratio_low, s->ratio_high);
}

static void row_cells(const sp_compare_row *r, int calls, int significance, char **cells) {
    sp_textbuf b = SP_TEXTBUF_INIT;
    size_t k = 0;
    sp_terminal_append(&b, r->name);
    cells[k++] = sp_textbuf_take(&b);
    if (r->in_a)
        value_text(&b, r->a, calls, 0);
    else
        sp_textbuf_append(&b, "-");
    cells[k++] = sp_textbuf_take(&b);
    if (r->in_b)
        value_text(&b, r->b, calls, 0);
    else
        sp_textbuf_append(&b, "-");
    cells[k++] = sp_textbuf_take(&b);
    value_text(&b, r->delta, calls, 1);
    cells[k++] = sp_textbuf_take(&b);
    if (r->has_pct)
        sp_textbuf_printf(&b, "%s%.4g%%", r->pct >= 0.0 ? "+" : "", r->pct);
    else
        sp_textbuf_append(&b, "-");
    cells[k++] = sp_textbuf_take(&b);
    if (!significance) return;
    if (isnan(r->sig.ratio))
        sp_textbuf_append(&b, "-");
    else
        sp_textbuf_printf(&b, "%.4g", r->sig.ratio);
    cells[k++] = sp_textbuf_take(&b);
    interval_text(&b, &r->sig);
    cells[k++] = sp_textbuf_take(&b);
    sp_textbuf_append(&b, r->sig.text);
    cells[k++] = sp_textbuf_take(&b);
}

/* prefix and the names, joined by ", ", continued on lines indented by 4
 * where they would pass max_width (0: one line). */
static void names_line(sp_textbuf *out, const char *prefix, const char *const *names, size_t n,
                       size_t max_width) {
    sp_textbuf_append(out, prefix);
    size_t col = sp_utf8_length(prefix);
    for (size_t i = 0; i < n; i++) {
        sp_textbuf name = SP_TEXTBUF_INIT;
        sp_terminal_append(&name, names[i]);
        const char *shown = sp_textbuf_str(&name);
        if (!shown) {
            out->failed = 1;
            sp_textbuf_free(&name);
            return;
        }
        size_t len = sp_utf8_length(shown);
        size_t need = len + (i + 1 < n); /* with the comma that follows */
        if (i) {
            sp_textbuf_putc(out, ',');
            col++;
        }
        if (i && max_width && col + 1 + need > max_width) {
            sp_textbuf_append(out, "\n    ");
            col = 4;
        } else if (i) {
            sp_textbuf_putc(out, ' ');
            col++;
        }
        sp_textbuf_append(out, shown);
        sp_textbuf_free(&name);
        col += len;
    }
    sp_textbuf_putc(out, '\n');
}

void sp_compare_text(sp_textbuf *out, const sp_comparison *c, const char *title, int significance,
                     size_t max_width) {
    if (title && *title) {
        sp_textbuf_append(out, title);
        sp_textbuf_putc(out, '\n');
    }
    if (!c->count) {
        sp_textbuf_append(out, "  (no regions to compare)\n");
        return;
    }
    size_t ncols = significance ? 8 : 5;
    char label_a[64], label_b[64], interval[48];
    snprintf(label_a, sizeof label_a, "%s (a)", sp_metric_label(c->metric));
    snprintf(label_b, sizeof label_b, "%s (b)", sp_metric_label(c->metric));
    snprintf(interval, sizeof interval, "%.6g%% interval", (1.0 - c->level) * 100.0);
    const char *headers[MAX_COLS] = {c->by == SP_COMPARE_BY_PATH ? "call path" : "region",
                                     label_a,
                                     label_b,
                                     "delta",
                                     "delta [%]",
                                     "b/a",
                                     interval,
                                     "verdict"};
    char **cells = calloc(c->count * ncols + 1, sizeof *cells);
    if (!cells) {
        out->failed = 1;
        return;
    }
    int calls = c->metric == SP_METRIC_CALLS;
    for (size_t i = 0; i < c->count; i++)
        row_cells(&c->rows[i], calls, significance, cells + i * ncols);
    int ok = 1;
    for (size_t i = 0; i < c->count * ncols; i++)
        ok = ok && cells[i];
    if (ok)
        sp_box_table_fit(out, headers, ncols, (const char *const *)cells, c->count, max_width);
    else
        out->failed = 1;
    for (size_t i = 0; i < c->count * ncols; i++)
        free(cells[i]);
    free(cells);
    if (c->num_only_a) {
        sp_textbuf_putc(out, '\n');
        names_line(out, "  Only in a: ", c->only_a, c->num_only_a, max_width);
    }
    if (c->num_only_b) names_line(out, "  Only in b: ", c->only_b, c->num_only_b, max_width);
    for (int side = 0; side < 2; side++) {
        double e = side ? c->error_b : c->error_a;
        if (e > 0.0)
            sp_textbuf_printf(out,
                              "%s  %s (%c) from duration histograms: within \xc2\xb1%.2g %% of "
                              "the exact values\n",
                              side == 1 && c->error_a > 0.0 ? "" : "\n", sp_metric_name(c->metric),
                              side ? 'b' : 'a', 100.0 * e);
    }
    sp_textbuf_putc(out, '\n');
}
