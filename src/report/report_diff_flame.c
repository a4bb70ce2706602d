/* The comparison's difference flame graph (docs/report.md): the new run's
 * call paths laid out as in its flame graph (a bar's width is the new run's
 * wall-clock coverage), each bar coloured by the change of the path's total
 * time against the baseline (blue faster, red slower, on a log scale that
 * saturates at 2x; a path the baseline lacks is full red), its tooltip
 * giving both runs' values. Paths are matched by their call path text. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "plot/plot_internal.h"
#include "report/report_internal.h"

#define ROW_H 18.0

typedef struct base_path {
    const char *path;
    const sp_table_row *row;
} base_path;

static const char *path_of(const sp_table_row *row) {
    return row->call_path ? row->call_path : row->name;
}

static int by_path(const void *a, const void *b) {
    return strcmp(((const base_path *)a)->path, ((const base_path *)b)->path);
}

static const sp_table_row *find_base(const base_path *paths, size_t n, const sp_table_row *row) {
    base_path key = {path_of(row), NULL};
    const base_path *hit = bsearch(&key, paths, n, sizeof *paths, by_path);
    return hit ? hit->row : NULL;
}

/* log2(new / baseline), clamped to [-1, 1]; 1 for a path new in this run. */
static double change_of(const sp_table_row *row, const sp_table_row *base) {
    if (!base || !base->has_timing || !(base->total > 0)) return 1.0;
    double t = log2(row->total / base->total);
    if (!isfinite(t)) t = row->total > base->total ? 1.0 : -1.0;
    return t < -1 ? -1 : t > 1 ? 1 : t;
}

/* From a light grey (no change) to blue (faster) or red (slower). */
static void change_colour(double t, char out[8]) {
    static const double same[3] = {232, 232, 232}, faster[3] = {33, 102, 172},
                        slower[3] = {178, 24, 43};
    const double *end = t < 0 ? faster : slower;
    double a = fabs(t);
    int c[3];
    for (int k = 0; k < 3; k++)
        c[k] = (int)lround(same[k] + (end[k] - same[k]) * a);
    snprintf(out, 8, "#%02x%02x%02x", c[0], c[1], c[2]);
}

static void tip_of(const sp_table_row *row, const sp_table_row *base, char *out, size_t size) {
    char now[32], wall[32], was[32];
    sp_format_seconds(row->total, now, sizeof now);
    sp_format_seconds(row->coverage, wall, sizeof wall);
    int n = snprintf(out, size, "%s\nthis run: %s in %llu call%s (%s wall clock)\n", path_of(row),
                     now, (unsigned long long)row->calls, row->calls == 1 ? "" : "s", wall);
    if (n < 0 || (size_t)n >= size) return;
    if (!base || !base->has_timing) {
        snprintf(out + n, size - (size_t)n, "baseline: not called");
        return;
    }
    sp_format_seconds(base->total, was, sizeof was);
    int m = snprintf(out + n, size - (size_t)n, "baseline: %s in %llu call%s", was,
                     (unsigned long long)base->calls, base->calls == 1 ? "" : "s");
    if (m > 0 && (size_t)(n + m) < size && base->total > 0)
        snprintf(out + n + m, size - (size_t)(n + m), "\nchange: %+.1f%% (%.2fx)",
                 (row->total / base->total - 1) * 100, row->total / base->total);
}

static void draw_bars(sp_report *rp, const sp_results *r, const sp_table_rows *t,
                      const base_path *paths, size_t num_paths, const double *widths, double x0,
                      double base_y, int shown_depth) {
    double *next = calloc((size_t)sp_flame_max_depth(t) + 2, sizeof *next);
    if (!next) return;
    next[0] = x0;
    for (size_t i = 0; i < t->count; i++) {
        const sp_table_row *row = &t->rows[i];
        int d = row->depth;
        double bw = widths[i], x = next[d];
        next[d] = x + bw;
        next[d + 1] = x;
        if (bw < 0.5 || d > shown_depth) continue;
        const sp_table_row *base = find_base(paths, num_paths, row);
        char fill[8], tip[1400];
        change_colour(change_of(row, base), fill);
        tip_of(row, base, tip, sizeof tip);
        double y = base_y - ROW_H * (double)(d + 1);
        long region = sp_results_find(r, row->name);
        sp_svg_rect(rp->b, x, y + 1, bw > 1.5 ? bw - 0.5 : bw, ROW_H - 2, fill, 1.0, region, tip);
        if (bw >= 36)
            sp_svg_text(rp->b, x + 3, y + ROW_H / 2 + 3.5, "start",
                        sp_colour_is_dark(fill) ? "in" : "lb", row->name, bw - 6, region);
    }
    free(next);
}

/* Seven swatches from 2x faster to 2x slower, labelled at both ends and the middle. */
static void legend(sp_textbuf *b, double x, double y) {
    static const char *const labels[] = {"2x faster", "same", "2x slower"};
    for (int k = 0; k < 7; k++) {
        char fill[8];
        change_colour((k - 3) / 3.0, fill);
        sp_svg_rect(b, x + 70 + 22 * k, y - 9, 20, 10, fill, 1.0, -1, NULL);
    }
    sp_svg_text(b, x + 66, y, "end", "sub", labels[0], 0, -1);
    sp_svg_text(b, x + 70 + 22 * 3 + 10, y + 12, "middle", "sub", labels[1], 0, -1);
    sp_svg_text(b, x + 70 + 22 * 7 + 4, y, "start", "sub", labels[2], 0, -1);
}

/* Baseline paths that the new run does not have. */
static size_t gone(const sp_table_rows *base, const sp_table_rows *now) {
    base_path *paths = malloc((now->count ? now->count : 1) * sizeof *paths);
    size_t n = 0;
    if (!paths) return 0;
    for (size_t i = 0; i < now->count; i++)
        paths[i] = (base_path){path_of(&now->rows[i]), &now->rows[i]};
    qsort(paths, now->count, sizeof *paths, by_path);
    for (size_t i = 0; i < base->count; i++)
        n += !find_base(paths, now->count, &base->rows[i]);
    free(paths);
    return n;
}

static sp_status draw(sp_report *rp, const sp_results *r, const sp_table_rows *base,
                      const sp_table_rows *now, sp_error *err) {
    double whole = sp_flame_root_total(now);
    int width = rp->o->width > 0 ? rp->o->width : SP_PLOT_DEFAULT_WIDTH;
    if (now->count == 0 || !(whole > 0)) {
        sp_textbuf_append(rp->b, "<p class=\"note\">No difference flame graph: this run has no "
                                 "timed calls in the selection.</p>\n");
        return SP_OK;
    }
    base_path *paths = malloc((base->count ? base->count : 1) * sizeof *paths);
    double x0 = 12, w = width - 24;
    double *widths = sp_flame_bar_widths(now, whole, w);
    if (!paths || !widths) {
        free(paths);
        free(widths);
        return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    }
    for (size_t i = 0; i < base->count; i++)
        paths[i] = (base_path){path_of(&base->rows[i]), &base->rows[i]};
    qsort(paths, base->count, sizeof *paths, by_path);
    int depth = sp_flame_max_depth(now);
    if (depth >= SP_PLOT_MAX_LANES) depth = SP_PLOT_MAX_LANES - 1;
    double top = SP_PLOT_TITLE_H + 10, base_y = top + ROW_H * (depth + 1);
    int height = (int)(base_y + SP_PLOT_AXIS_H + 56);
    char sub[300];
    snprintf(sub, sizeof sub, "%s against %s (baseline)", sp_results_display_label(r),
             sp_results_display_label(rp->runs[0]));
    sp_svg_begin(rp->b, width, height, 0, "Difference flame graph", sub);
    draw_bars(rp, r, now, paths, base->count, widths, x0, base_y, depth);
    sp_svg_time_axis(rp->b, x0, w, base_y + 2, 0, whole, base_y + 2);
    double y = base_y + SP_PLOT_AXIS_H + 12;
    sp_svg_note(rp->b, 12, y,
                "Width: this run's wall-clock coverage; colour: change of the path's total "
                "time against the baseline; both runs' values in the tooltip.");
    legend(rp->b, 12, y + 22);
    size_t missing = gone(base, now);
    if (missing) {
        char note[160];
        snprintf(note, sizeof note, "%zu call path%s of the baseline not in this run", missing,
                 missing == 1 ? "" : "s");
        sp_svg_note(rp->b, 12 + 70 + 22 * 7 + 80, y + 22, note);
    }
    sp_svg_end(rp->b);
    free(paths);
    free(widths);
    return SP_OK;
}

sp_status sp_report_diff_flame(sp_report *rp, size_t k, sp_error *err) {
    const sp_results *r = rp->runs[k];
    sp_table_rows base = {0}, now = {0};
    sp_error e = {0};
    sp_status st = sp_table_rows_build(rp->runs[0], &rp->o->filter, NULL, NULL, &base, &e);
    if (st == SP_OK) st = sp_table_rows_build(r, &rp->o->filter, NULL, NULL, &now, &e);
    sp_textbuf_printf(rp->b, "<div class=\"chart\" id=\"chart-difference-%zu\" aria-label=\"", k);
    sp_report_text(rp, "Difference flame graph");
    sp_textbuf_append(rp->b, "\">\n");
    if (st == SP_ERR_NESTING || st == SP_ERR_UNAVAILABLE) {
        sp_textbuf_append(rp->b, "<p class=\"note\">No difference flame graph: ");
        sp_report_text(rp, e.message);
        sp_textbuf_append(rp->b, "</p>\n");
        st = SP_OK;
    } else if (st == SP_OK) {
        st = draw(rp, r, &base, &now, err);
    } else if (err) {
        *err = e;
    }
    sp_textbuf_append(rp->b, "</div>\n");
    sp_table_rows_free(&base);
    sp_table_rows_free(&now);
    return st;
}
