/* Histogram: how one region's per-call durations are distributed (pooled over
 * the selected ranks); logarithmic bins when they span more than 100x. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "plot/plot_internal.h"

#define PLOT_H 260.0

static const sp_mpi_region *pick_region(const sp_chart *c, sp_error *err) {
    if (c->o->region) {
        const sp_mpi_region *mr = sp_results_get(c->r, c->o->region, err);
        return mr;
    }
    /* The region with the most time among those called more than once (a
     * distribution of one call is a single bar), else the one with the most time. */
    const sp_mpi_region *best = NULL, *best_repeated = NULL;
    for (size_t i = 0; i < c->num_regions; i++) {
        const sp_mpi_region *mr = c->regions[i];
        double t = sp_mpi_region_total_duration(mr);
        if (!best || t > sp_mpi_region_total_duration(best)) best = mr;
        if (sp_mpi_region_num_calls(mr) > 1 &&
            (!best_repeated || t > sp_mpi_region_total_duration(best_repeated)))
            best_repeated = mr;
    }
    return best_repeated ? best_repeated : best;
}

typedef struct calls {
    const int64_t **durs;
    uint64_t *counts;
    size_t n;
    uint64_t total;
    int64_t lo, hi;
} calls;

static sp_status gather(const sp_chart *c, const sp_mpi_region *mr, calls *out, sp_error *err) {
    size_t nr = sp_mpi_region_num_ranks(mr);
    out->durs = calloc(nr + 1, sizeof *out->durs);
    out->counts = calloc(nr + 1, sizeof *out->counts);
    if (!out->durs || !out->counts) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    out->lo = INT64_MAX;
    out->hi = 0;
    for (size_t i = 0; i < nr; i++) {
        uint32_t rank = sp_mpi_region_rank_id(mr, i);
        if (!sp_chart_rank_selected(c, rank)) continue;
        const sp_rank_region *rr = sp_mpi_region_rank(mr, rank, NULL);
        uint64_t n = rr ? sp_rank_region_num_calls(rr) : 0;
        const int64_t *d = rr ? sp_rank_region_durations_ns(rr) : NULL;
        if (!n) continue;
        if (!d)
            return sp_error_set(err, SP_ERR_UNAVAILABLE,
                                "%s holds no per-call events (aggregate layout): a histogram "
                                "needs them",
                                sp_results_path(c->r));
        out->durs[out->n] = d;
        out->counts[out->n++] = n;
        out->total += n;
        for (uint64_t k = 0; k < n; k++) {
            if (d[k] < out->lo) out->lo = d[k];
            if (d[k] > out->hi) out->hi = d[k];
        }
    }
    return SP_OK;
}

typedef struct binning {
    int bins, log;
    double lo, hi; /* seconds (log: of the log10) */
} binning;

static int bin_of(const binning *b, double s) {
    double v = b->log ? log10(s) : s;
    int k = b->hi > b->lo ? (int)((v - b->lo) / (b->hi - b->lo) * b->bins) : 0;
    return k < 0 ? 0 : k >= b->bins ? b->bins - 1 : k;
}

static double edge(const binning *b, int k) {
    double v = b->lo + (b->hi - b->lo) * k / b->bins;
    return b->log ? pow(10, v) : v;
}

static void draw(sp_chart *c, const sp_mpi_region *mr, const calls *cl, const binning *bn,
                 const uint64_t *counts) {
    const char *name = sp_mpi_region_name(mr);
    long region = sp_chart_region_index(c, mr);
    uint64_t cmax = 1;
    for (int k = 0; k < bn->bins; k++)
        if (counts[k] > cmax) cmax = counts[k];
    double top = SP_PLOT_TITLE_H + 18, x0 = 64, w = c->width - x0 - 24;
    int height = (int)(top + PLOT_H + SP_PLOT_AXIS_H + 30);
    char title[700], *sub = sp_chart_subtitle(c);
    snprintf(title, sizeof title, "Histogram \xC2\xB7 %s", name);
    sp_svg_begin(c->b, c->width, height, c->standalone, title, sub);
    free(sub);
    double ticks[16], step;
    int nt = sp_nice_ticks(0, (double)cmax, 6, ticks, 16, &step);
    if (step < 1) /* counts are whole: one tick per count up to cmax (< 6 here) */
        for (nt = 0; nt <= (int)cmax && nt < 16; nt++)
            ticks[nt] = nt;
    for (int i = 0; i < nt; i++) {
        double y = top + PLOT_H - ticks[i] / (double)cmax * PLOT_H;
        char label[32];
        snprintf(label, sizeof label, "%.0f", ticks[i]);
        if (y < top - 1) continue;
        sp_svg_line(c->b, x0, y, x0 + w, y, "gr");
        sp_svg_text(c->b, x0 - 6, y + 4, "end", "lb", label, 0, -1);
    }
    char fill[8];
    sp_region_colour(name, fill);
    double bw = w / bn->bins;
    for (int k = 0; k < bn->bins; k++) {
        if (!counts[k]) continue;
        double h = (double)counts[k] / (double)cmax * PLOT_H;
        char a[32], z[32], tip[800];
        sp_format_seconds(edge(bn, k), a, sizeof a);
        sp_format_seconds(edge(bn, k + 1), z, sizeof z);
        snprintf(tip, sizeof tip, "%s: %llu call%s from %s to %s", name,
                 (unsigned long long)counts[k], counts[k] == 1 ? "" : "s", a, z);
        sp_svg_rect(c->b, x0 + bw * k, top + PLOT_H - h, bw > 3 ? bw - 1 : bw, h, fill, 1.0, region,
                    tip);
    }
    double axis_y = top + PLOT_H + 2;
    if (bn->log) {
        sp_svg_line(c->b, x0, axis_y, x0 + w, axis_y, "ax");
        int every = (int)ceil(bn->bins / fmax(1, w / 90));
        for (int k = 0; k <= bn->bins; k += every) {
            char label[32];
            sp_format_seconds(edge(bn, k), label, sizeof label);
            double x = x0 + bw * k;
            sp_svg_line(c->b, x, axis_y, x, axis_y + 4, "ax");
            sp_svg_text(c->b, x, axis_y + 16, k == 0 ? "start" : "middle", "lb", label, 0, -1);
        }
    } else {
        sp_svg_time_axis(c->b, x0, w, axis_y, bn->lo, bn->hi, axis_y);
    }
    char note[200];
    snprintf(note, sizeof note, "%llu calls in %d %s bins; y: calls per bin",
             (unsigned long long)cl->total, bn->bins, bn->log ? "logarithmic" : "equal");
    sp_svg_note(c->b, x0, height - 10, note);
    sp_svg_end(c->b);
}

sp_status sp_chart_histogram(sp_chart *c, sp_error *err) {
    const sp_mpi_region *mr = pick_region(c, err);
    if (!mr && c->o->region) return err ? err->status : SP_ERR_NO_SUCH_REGION;
    calls cl = {0};
    sp_status st = mr ? gather(c, mr, &cl, err) : SP_OK;
    if (st == SP_OK && cl.total == 0) {
        sp_chart_empty(c, "Histogram", "No calls in the selection.");
    } else if (st == SP_OK) {
        binning bn = {0, 0, (double)cl.lo / 1e9, (double)cl.hi / 1e9};
        bn.bins = c->o->bins ? c->o->bins : (int)fmin(60, fmax(5, ceil(sqrt((double)cl.total))));
        if (cl.lo > 0 && (double)cl.hi / (double)cl.lo > 100) {
            bn.log = 1;
            bn.lo = log10(bn.lo);
            bn.hi = log10(bn.hi);
        }
        if (!(bn.hi > bn.lo)) bn.hi = bn.lo + (bn.log ? 0.01 : fmax(bn.lo * 0.01, 1e-9));
        uint64_t *counts = calloc((size_t)bn.bins, sizeof *counts);
        if (!counts) {
            st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        } else {
            for (size_t i = 0; i < cl.n; i++)
                for (uint64_t k = 0; k < cl.counts[i]; k++)
                    counts[bin_of(&bn, (double)cl.durs[i][k] / 1e9)]++;
            draw(c, mr, &cl, &bn, counts);
            free(counts);
        }
    }
    free(cl.durs);
    free(cl.counts);
    return st;
}
