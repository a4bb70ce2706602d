/* Flame chart: one rank's calls, time on x, call depth on y (the outermost
 * call on top), one band of rows per thread. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/call_walk.h"
#include "common/error.h"
#include "plot/plot_internal.h"

#define ROW_H        17.0
#define BAND_GAP     16.0
#define MAX_THREADS  64
#define LABEL_MIN_PX 36.0

typedef struct band {
    int64_t thread;
    uint32_t depth; /* rows = max depth + 1 */
    double y;
    sp_px_lane *rows;
} band;

typedef struct flame {
    sp_chart *c;
    band bands[MAX_THREADS];
    size_t num_bands;
    int drawing;
    double x0, w, span_s;
    int64_t origin_ns;
    size_t rows_shown;
    uint32_t rank;
} flame;

static band *band_of(flame *f, int64_t thread) {
    for (size_t i = 0; i < f->num_bands; i++)
        if (f->bands[i].thread == thread) return &f->bands[i];
    if (f->num_bands == MAX_THREADS) return NULL;
    band *b = &f->bands[f->num_bands++];
    *b = (band){thread, 0, 0, NULL};
    return b;
}

/* Selected calls and their ancestors (the walker's context) are drawn. */
static sp_status on_call(void *ctx, sp_walk_call *call, sp_walk_call *parent) {
    (void)parent;
    flame *f = ctx;
    band *b = band_of(f, call->thread);
    if (!b) return SP_OK; /* threads beyond MAX_THREADS are left out (noted) */
    if (!f->drawing) {
        if (call->depth > b->depth) b->depth = call->depth;
        return SP_OK;
    }
    if (call->depth > b->depth || !b->rows) return SP_OK;
    const char *name = call->name;
    char fill[8];
    sp_region_colour(name, fill);
    double x0 = f->x0 + (double)(call->start_ns - f->origin_ns) / 1e9 / f->span_s * f->w;
    double x1 = f->x0 + (double)(call->end_ns - f->origin_ns) / 1e9 / f->span_s * f->w;
    sp_px_lane *row = &b->rows[call->depth];
    char tip[700] = "";
    if (x1 - x0 >= 1.0) {
        char d[32], at[32];
        sp_format_seconds((double)(call->end_ns - call->start_ns) / 1e9, d, sizeof d);
        sp_format_seconds((double)(call->start_ns - f->origin_ns) / 1e9, at, sizeof at);
        snprintf(tip, sizeof tip, "%s: %s, starts at %s, depth %u", name, d, at, call->depth);
    }
    sp_px_lane_add(row, x0, x1, (long)call->region, fill, name, tip);
    if (x1 - x0 >= LABEL_MIN_PX)
        sp_svg_text(f->c->b, x0 + 3, row->y + ROW_H / 2 + 2.5, "start",
                    sp_colour_is_dark(fill) ? "in" : "lb", name, x1 - x0 - 6, (long)call->region);
    return SP_OK;
}

/* The selected rank whose selected regions took the most time (their totals
 * summed: nested ones count again on every rank alike), lowest rank on ties. */
static uint32_t slowest_rank(const sp_chart *c) {
    uint32_t best = c->ranks[0];
    double best_time = -1;
    for (size_t k = 0; k < c->num_ranks; k++) {
        double t = 0;
        for (size_t i = 0; i < c->num_regions; i++) {
            const sp_rank_region *rr = sp_mpi_region_rank(c->regions[i], c->ranks[k], NULL);
            double d = rr ? sp_rank_region_total_duration(rr) : 0;
            if (isfinite(d)) t += d;
        }
        if (t > best_time) {
            best_time = t;
            best = c->ranks[k];
        }
    }
    return best;
}

static uint32_t pick_rank(const sp_chart *c, int *found) {
    *found = 0;
    if (c->o->has_rank) {
        for (size_t i = 0; i < sp_results_num_data_ranks(c->r); i++)
            if (sp_results_rank(c->r, i) == c->o->rank) *found = 1;
        return c->o->rank;
    }
    if (!c->num_ranks) return 0;
    *found = 1;
    return slowest_rank(c);
}

static void free_rows(flame *f) {
    for (size_t i = 0; i < f->num_bands; i++)
        free(f->bands[i].rows);
}

/* Gives every band its rows and place; returns the height of all bands. */
static double layout(flame *f, double top) {
    double y = top;
    for (size_t i = 0; i < f->num_bands; i++) {
        band *b = &f->bands[i];
        size_t rows = (size_t)b->depth + 1;
        if (f->rows_shown + rows > SP_PLOT_MAX_LANES) rows = SP_PLOT_MAX_LANES - f->rows_shown;
        if (rows == 0) {
            b->depth = 0;
            continue;
        }
        b->depth = (uint32_t)(rows - 1);
        f->rows_shown += rows;
        if (f->num_bands > 1) y += BAND_GAP;
        b->y = y;
        b->rows = calloc(rows, sizeof *b->rows);
        if (!b->rows) return -1;
        for (size_t k = 0; k < rows; k++)
            sp_px_lane_init(&b->rows[k], f->c->b, y + ROW_H * (double)k + 1, ROW_H - 2, NULL);
        y += ROW_H * (double)rows;
    }
    return y - top;
}

static void band_headings(flame *f) {
    if (f->num_bands < 2) return;
    for (size_t i = 0; i < f->num_bands; i++) {
        char text[240], lane[200];
        if (!f->bands[i].rows) continue;
        sp_lane_name(f->c->r, f->rank, f->bands[i].thread, lane, sizeof lane);
        snprintf(text, sizeof text, "%s (thread %lld)", lane, (long long)f->bands[i].thread);
        sp_svg_text(f->c->b, f->x0, f->bands[i].y - 4, "start", "sub", text, 0, -1);
    }
}

sp_status sp_chart_flame_chart(sp_chart *c, sp_error *err) {
    int found;
    uint32_t rank = pick_rank(c, &found);
    if (!found && c->o->has_rank)
        return sp_error_set(err, SP_ERR_NO_SUCH_RANK, "%s has no calls on rank %u",
                            sp_results_path(c->r), rank);
    if (!sp_results_has_events(c->r))
        return sp_error_set(err, SP_ERR_UNAVAILABLE,
                            "%s holds no per-call events (aggregate layout): a flame chart "
                            "needs them; try the flame graph",
                            sp_results_path(c->r));
    if (!found || c->num_regions == 0) {
        sp_chart_empty(c, "Flame chart", "No calls in the selection.");
        return SP_OK;
    }
    flame f = {0};
    f.c = c;
    f.rank = rank;
    sp_call_selection sel = {0};
    sel.filter = c->o->filter;
    sel.filter.ranks = &rank;
    sel.filter.num_ranks = 1;
    sel.raw_clock = 1; /* times as stored, as the Gantt chart and events show them */
    sp_call_walker *w = sp_call_walker_open(c->r, &sel, err);
    if (!w) return err ? err->status : SP_ERR_OUT_OF_MEMORY;
    sp_walk_visitor visitor = {on_call, NULL, &f};
    sp_status st = sp_call_walker_run(w, rank, SP_WALK_ALL_LANES, &visitor, err);
    double top = SP_PLOT_TITLE_H + 10, plot_h = 0;
    if (st == SP_OK) {
        plot_h = layout(&f, top);
        if (plot_h < 0) st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    }
    if (st == SP_OK) {
        f.x0 = 12;
        f.w = c->width - 24;
        f.origin_ns = sp_results_time_origin_ns(c->r);
        f.span_s = (double)(sp_results_maximum_end_time_ns(c->r) - f.origin_ns) / 1e9;
        if (!(f.span_s > 0)) f.span_s = 1e-9;
        char *sub = sp_chart_subtitle(c);
        char title[64];
        snprintf(title, sizeof title, "Flame chart \xC2\xB7 rank %u%s", rank,
                 c->o->has_rank || c->num_ranks < 2 ? "" : " (slowest)");
        int height = (int)(top + plot_h + SP_PLOT_AXIS_H + 24);
        sp_svg_begin(c->b, c->width, height, c->standalone, title, sub);
        free(sub);
        sp_svg_time_axis(c->b, f.x0, f.w, top + plot_h + 4, 0, f.span_s, top);
        band_headings(&f);
        f.drawing = 1;
        st = sp_call_walker_run(w, rank, SP_WALK_ALL_LANES, &visitor, err);
        for (size_t i = 0; i < f.num_bands; i++)
            for (size_t k = 0; f.bands[i].rows && k <= f.bands[i].depth; k++)
                sp_px_lane_finish(&f.bands[i].rows[k]);
        sp_svg_note(c->b, 12, top + plot_h + SP_PLOT_AXIS_H + 16,
                    "Depth grows downwards; calls shorter than a pixel are merged.");
        sp_svg_end(c->b);
    }
    free_rows(&f);
    sp_call_walker_close(w);
    return st;
}
