/* Gantt chart: every call as a bar on the run's time axis, one lane per
 * (region, rank), split per thread where a rank recorded several threads. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "analysis/analysis.h"
#include "model/event_window.h"
#include "plot/plot_internal.h"

typedef struct lane {
    const sp_rank_region *rr;
    long region;
    int64_t thread; /* -1: all calls of the row */
} lane;

typedef struct lanes {
    lane *items;
    size_t count, cap;
} lanes;

static int lanes_add(lanes *l, const sp_rank_region *rr, long region, int64_t thread) {
    if (l->count == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        lane *items = realloc(l->items, cap * sizeof *items);
        if (!items) return 0;
        l->items = items;
        l->cap = cap;
    }
    l->items[l->count++] = (lane){rr, region, thread};
    return 1;
}

/* The thread lanes of a rank, when it has more than one. */
static size_t rank_threads(const sp_results *r, uint32_t rank, int64_t *out, size_t cap) {
    size_t n = 0, total = sp_results_num_threads(r);
    for (size_t i = 0; i < total; i++) {
        sp_thread_summary t;
        if (sp_results_thread_summary(r, i, &t, NULL) != SP_OK || t.rank != rank) continue;
        if (n < cap) out[n] = t.index;
        n++;
    }
    return n;
}

static sp_status collect_lanes(sp_chart *c, lanes *out, sp_error *err) {
    int64_t threads[256];
    /* Thread lanes only when some rank recorded several threads (the per-lane
     * summaries walk the calls, so a single-thread run skips them). */
    int split = sp_results_num_threads(c->r) > sp_results_num_data_ranks(c->r);
    for (size_t i = 0; i < c->num_regions; i++) {
        const sp_mpi_region *mr = c->regions[i];
        long region = sp_chart_region_index(c, mr);
        for (size_t k = 0; k < sp_mpi_region_num_ranks(mr); k++) {
            uint32_t rank = sp_mpi_region_rank_id(mr, k);
            if (!sp_chart_rank_selected(c, rank)) continue;
            const sp_rank_region *rr = sp_mpi_region_rank(mr, rank, NULL);
            if (!rr || sp_rank_region_num_calls(rr) == 0) continue;
            if (!sp_results_has_events(c->r))
                return sp_error_set(err, SP_ERR_UNAVAILABLE,
                                    "%s holds no per-call events (aggregate layout): a Gantt "
                                    "chart needs them; try the durations chart",
                                    sp_results_path(c->r));
            size_t nt = split ? rank_threads(c->r, rank, threads, 256) : 1;
            int ok = 1;
            if (nt > 1 && nt <= 256) {
                for (size_t t = 0; t < nt && ok; t++)
                    if (sp_rank_region_thread_calls(rr, threads[t], NULL, 0))
                        ok = lanes_add(out, rr, region, threads[t]);
            } else {
                ok = lanes_add(out, rr, region, -1);
            }
            if (!ok) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        }
    }
    return SP_OK;
}

static void lane_label(const sp_chart *c, const lane *l, char *out, size_t size) {
    const char *name = sp_rank_region_name(l->rr);
    uint32_t rank = sp_rank_region_rank(l->rr);
    char thread[200];
    if (l->thread >= 0) {
        sp_lane_name(c->r, rank, l->thread, thread, sizeof thread);
        snprintf(out, size, "%s \xC2\xB7 %s", name, thread);
    } else if (sp_results_num_data_ranks(c->r) > 1)
        snprintf(out, size, "%s \xC2\xB7 r%u", name, rank);
    else
        snprintf(out, size, "%s", name);
}

typedef struct geometry {
    double x0, w; /* plot area */
    int64_t origin_ns;
    double span_s;
} geometry;

static double x_of(const geometry *g, int64_t ns) {
    return g->x0 + (double)(ns - g->origin_ns) / 1e9 / g->span_s * g->w;
}

static void draw_call(sp_px_lane *pl, const geometry *g, const char *label, long region,
                      const char *fill, int64_t start, int64_t dur) {
    double x0 = x_of(g, start), x1 = x_of(g, start + dur);
    char tip[600] = "";
    if (x1 - x0 >= 1.0) {
        char d[32], at[32];
        sp_format_seconds((double)dur / 1e9, d, sizeof d);
        sp_format_seconds((double)(start - g->origin_ns) / 1e9, at, sizeof at);
        snprintf(tip, sizeof tip, "%s: %s, starts at %s", label, d, at);
    }
    sp_px_lane_add(pl, x0, x1, region, fill, label, tip);
}

static sp_status draw_lane(sp_chart *c, const lane *l, const geometry *g, double y, double h,
                           const char *label, sp_event_window *win, sp_error *err) {
    const int64_t *starts, *durs;
    sp_status st = sp_rank_region_calls_ns(l->rr, win, &starts, &durs, err);
    if (st != SP_OK) return st;
    uint64_t n = sp_rank_region_num_calls(l->rr);
    char fill[8];
    sp_region_colour(sp_rank_region_name(l->rr), fill);
    sp_px_lane pl;
    sp_px_lane_init(&pl, c->b, y, h, label);
    if (l->thread < 0) {
        for (uint64_t i = 0; i < n; i++)
            draw_call(&pl, g, label, l->region, fill, starts[i], durs[i]);
    } else {
        size_t count = sp_rank_region_thread_calls(l->rr, l->thread, NULL, 0);
        uint64_t *idx = malloc((count ? count : 1) * sizeof *idx);
        if (!idx)
            return sp_error_set(err, SP_ERR_OUT_OF_MEMORY,
                                "out of memory while drawing the Gantt chart");
        sp_rank_region_thread_calls(l->rr, l->thread, idx, count);
        for (size_t i = 0; i < count; i++)
            draw_call(&pl, g, label, l->region, fill, starts[idx[i]], durs[idx[i]]);
        free(idx);
    }
    sp_px_lane_finish(&pl);
    return SP_OK;
}

sp_status sp_chart_gantt(sp_chart *c, sp_error *err) {
    lanes ls = {0};
    sp_status st = collect_lanes(c, &ls, err);
    if (st) {
        free(ls.items);
        return st;
    }
    if (ls.count == 0) {
        free(ls.items);
        sp_chart_empty(c, "Gantt chart", "No calls in the selection.");
        return SP_OK;
    }
    size_t shown = ls.count < SP_PLOT_MAX_LANES ? ls.count : SP_PLOT_MAX_LANES;
    double lane_h = shown <= 30 ? 18 : fmax(3, fmin(18, 720.0 / (double)shown));
    double top = SP_PLOT_TITLE_H + 10;
    double label_w = fmin(240, c->width * 0.28);
    geometry g = {label_w + 10, c->width - label_w - 30, sp_results_time_origin_ns(c->r), 0};
    g.span_s = (double)(sp_results_maximum_end_time_ns(c->r) - g.origin_ns) / 1e9;
    if (!(g.span_s > 0)) g.span_s = 1e-9;
    double plot_h = lane_h * (double)shown;
    int note = shown < ls.count;
    int height = (int)(top + plot_h + SP_PLOT_AXIS_H + (note ? 18 : 0) + 8);
    char *sub = sp_chart_subtitle(c);
    sp_svg_begin(c->b, c->width, height, c->standalone, "Gantt chart", sub);
    free(sub);
    sp_svg_time_axis(c->b, g.x0, g.w, top + plot_h + 2, 0, g.span_s, top);
    size_t every = lane_h >= 11 ? 1 : (size_t)ceil(12.0 / lane_h);
    sp_event_window win = SP_EVENT_WINDOW_INIT;
    double bar_h = lane_h > 6 ? lane_h - 3 : lane_h - 1;
    for (size_t i = 0; i < shown && st == SP_OK; i++) {
        char label[600];
        lane_label(c, &ls.items[i], label, sizeof label);
        double y = top + lane_h * (double)i;
        if (i % every == 0)
            sp_svg_text(c->b, label_w, y + lane_h / 2 + 4, "end", "lb", label, label_w - 12,
                        ls.items[i].region);
        st = draw_lane(c, &ls.items[i], &g, y + (lane_h - bar_h) / 2, bar_h, label, &win, err);
    }
    sp_event_window_free(&win);
    if (note) {
        char text[200];
        snprintf(text, sizeof text,
                 "%zu more lanes not drawn: choose regions with --include or ranks with --ranks",
                 ls.count - shown);
        sp_svg_note(c->b, 12, top + plot_h + SP_PLOT_AXIS_H + 10, text);
    }
    sp_svg_end(c->b);
    free(ls.items);
    return st;
}
