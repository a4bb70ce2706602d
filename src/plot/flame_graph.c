/* Flame graph: the call paths of the summary table, aggregated over calls
 * (and ranks): roots at the bottom, a bar's width its wall-clock coverage
 * (the union of its calls' intervals, summed over ranks), so that a path run
 * on several threads is never wider than its parent; children that ran at
 * once on different threads share the parent's width in proportion. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/error.h"
#include "plot/plot_internal.h"

#define ROW_H 18.0

int sp_flame_max_depth(const sp_table_rows *t) {
    int d = 0;
    for (size_t i = 0; i < t->count; i++)
        if (t->rows[i].depth > d) d = t->rows[i].depth;
    return d;
}

double sp_flame_root_total(const sp_table_rows *t) {
    double s = 0;
    for (size_t i = 0; i < t->count; i++)
        if (t->rows[i].depth == 0 && t->rows[i].has_timing) s += t->rows[i].coverage;
    return s;
}

double *sp_flame_bar_widths(const sp_table_rows *t, double whole, double w) {
    size_t n = t->count;
    double *width = calloc(n + 1, sizeof *width), *children = calloc(n + 1, sizeof *children);
    size_t *parent = calloc(n + 1, sizeof *parent), *last = calloc(n + 1, sizeof *last);
    double *factor = calloc(n + 1, sizeof *factor);
    if (!width || !children || !parent || !last || !factor) {
        free(width);
        width = NULL;
        n = 0;
    }
    for (size_t i = 0; i < n; i++) { /* raw widths and each bar's children's sum */
        const sp_table_row *row = &t->rows[i];
        int d = row->depth < 0 ? 0 : row->depth;
        width[i] = row->has_timing && row->calls ? row->coverage / whole * w : 0;
        parent[i] = d ? last[d - 1] : n;
        last[d] = i;
        if (d) children[parent[i]] += width[i];
    }
    for (size_t i = 0; i < n; i++) { /* parents come first */
        double f = 1.0;
        if (parent[i] != n) {
            size_t p = parent[i];
            double fit = children[p] > 0 ? width[p] * factor[p] / children[p] : 1.0;
            f = factor[p] < fit ? factor[p] : fit;
        }
        factor[i] = f;
    }
    for (size_t i = 0; i < n; i++)
        width[i] *= factor[i];
    free(children);
    free(parent);
    free(last);
    free(factor);
    return width;
}

static void bar_tip(const sp_table_row *row, double whole, char *out, size_t size) {
    char wall[32], tot[32], own[32];
    sp_format_seconds(row->coverage, wall, sizeof wall);
    sp_format_seconds(row->total, tot, sizeof tot);
    sp_format_seconds(row->has_exclusive ? row->exclusive : row->total, own, sizeof own);
    snprintf(out, size, "%s\n%llu call%s, %s wall clock (%.1f%%), %s summed over threads, %s own",
             row->call_path ? row->call_path : row->name, (unsigned long long)row->calls,
             row->calls == 1 ? "" : "s", wall, whole > 0 ? 100.0 * row->coverage / whole : 0.0, tot,
             own);
}

static void draw_rows(sp_chart *c, const sp_table_rows *t, double *next, const double *widths,
                      double base_y, double whole, int shown_depth) {
    for (size_t i = 0; i < t->count; i++) {
        const sp_table_row *row = &t->rows[i];
        int d = row->depth;
        double bw = widths[i];
        double x = next[d];
        next[d] = x + bw;
        next[d + 1] = x;
        if (bw < 0.5 || d > shown_depth) continue;
        double y = base_y - ROW_H * (double)(d + 1);
        long region = sp_results_find(c->r, row->name);
        char fill[8], tip[1200];
        sp_region_colour(row->name, fill);
        bar_tip(row, whole, tip, sizeof tip);
        sp_svg_rect(c->b, x, y + 1, bw > 1.5 ? bw - 0.5 : bw, ROW_H - 2, fill, 1.0, region, tip);
        if (bw >= 36)
            sp_svg_text(c->b, x + 3, y + ROW_H / 2 + 3.5, "start",
                        sp_colour_is_dark(fill) ? "in" : "lb", row->name, bw - 6, region);
    }
}

sp_status sp_chart_flame_graph(sp_chart *c, sp_error *err) {
    sp_table_rows t = {0};
    sp_status st = sp_table_rows_build(c->r, &c->o->filter, NULL, NULL, &t, err);
    if (st) return st;
    double whole = sp_flame_root_total(&t);
    if (t.count == 0 || !(whole > 0)) {
        sp_table_rows_free(&t);
        sp_chart_empty(c, "Flame graph", "No timed calls in the selection.");
        return SP_OK;
    }
    int depth = sp_flame_max_depth(&t);
    if (depth >= SP_PLOT_MAX_LANES) depth = SP_PLOT_MAX_LANES - 1;
    double top = SP_PLOT_TITLE_H + 10, x0 = 12, w = c->width - 24;
    double *next = calloc((size_t)sp_flame_max_depth(&t) + 2, sizeof *next);
    double *widths = sp_flame_bar_widths(&t, whole, w);
    if (!next || !widths) {
        free(next);
        free(widths);
        sp_table_rows_free(&t);
        return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    }
    double base_y = top + ROW_H * (depth + 1);
    int height = (int)(base_y + SP_PLOT_AXIS_H + 24);
    char *sub = sp_chart_subtitle(c);
    sp_svg_begin(c->b, c->width, height, c->standalone, "Flame graph", sub);
    free(sub);
    next[0] = x0;
    draw_rows(c, &t, next, widths, base_y, whole, depth);
    sp_svg_time_axis(c->b, x0, w, base_y + 2, 0, whole, base_y + 2);
    sp_svg_note(c->b, 12, base_y + SP_PLOT_AXIS_H + 12,
                sp_results_num_data_ranks(c->r) > 1
                    ? "Width: wall-clock coverage (union of the calls' intervals) summed over "
                      "ranks; time summed over threads in the tooltip."
                    : "Width: wall-clock coverage (union of the calls' intervals); time summed "
                      "over threads in the tooltip.");
    sp_svg_end(c->b);
    free(widths);
    free(next);
    sp_table_rows_free(&t);
    return SP_OK;
}
