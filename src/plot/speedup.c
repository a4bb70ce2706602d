/* Speedup: several runs against a metadata key (mpi_size, omp_num_threads,
 * ...), each line the reference time over the run's time, with the ideal line
 * x / x_ref. Times: the wall time, and for the regions the comparison
 * stage's scaling numbers (sp_scaling_compute: total per rank). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/markup_escape.h"
#include "plot/plot_internal.h"
#include "scope_profiler/compare.h"

#define PLOT_H     300.0
#define MAX_SERIES 6

typedef struct point {
    const sp_results *r;
    double x;
} point;

static int by_x(const void *a, const void *b) {
    double x = ((const point *)a)->x, y = ((const point *)b)->x;
    return x < y ? -1 : x > y ? 1 : 0;
}

static int meta_number(const sp_results *r, const char *key, double *out) {
    sp_metadata_item it;
    if (!sp_results_metadata_find(r, key, &it)) return 0;
    if (it.type == SP_VALUE_INT)
        *out = (double)it.int_value;
    else if (it.type == SP_VALUE_FLOAT)
        *out = it.float_value;
    else if (it.type == SP_VALUE_STRING) {
        char *end;
        *out = strtod(it.string_value, &end);
        if (end == it.string_value) return 0;
    } else
        return 0;
    return isfinite(*out) && *out > 0;
}

static double wall_time(const sp_results *r) {
    double t = sp_results_total_time(r);
    return isfinite(t) && t > 0 ? t : sp_results_time_span(r);
}

typedef struct series {
    const char *name; /* NULL: the wall time */
    size_t n;
    double x[64], y[64];
    const char *label[64]; /* a run's label, or NULL: runs[i] runs at that x averaged */
    unsigned runs[64];
} series;

static void draw_series(sp_chart *c, const series *s, double x0, double w, double top, double xmax,
                        double ymax) {
    size_t n = s->n;
    char fill[8];
    if (s->name)
        sp_region_colour(s->name, fill);
    else
        snprintf(fill, sizeof fill, "#222222");
    long region = s->name ? sp_results_find(c->r, s->name) : -1;
    sp_textbuf_printf(c->b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
                      fill);
    for (size_t i = 0; i < n; i++)
        if (isfinite(s->y[i]))
            sp_textbuf_printf(c->b, "%.1f,%.1f ", x0 + s->x[i] / xmax * w,
                              top + PLOT_H - s->y[i] / ymax * PLOT_H);
    sp_textbuf_append(c->b, "\"/>\n");
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(s->y[i])) continue;
        char tip[800];
        if (s->label[i])
            snprintf(tip, sizeof tip, "%s at %g: speedup %.2fx (%s)",
                     s->name ? s->name : "wall time", s->x[i], s->y[i], s->label[i]);
        else
            snprintf(tip, sizeof tip, "%s at %g: speedup %.2fx (%u run%s)",
                     s->name ? s->name : "wall time", s->x[i], s->y[i], s->runs[i],
                     s->runs[i] == 1 ? "" : "s averaged");
        sp_textbuf_printf(c->b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"",
                          x0 + s->x[i] / xmax * w, top + PLOT_H - s->y[i] / ymax * PLOT_H, fill);
        if (region >= 0) sp_textbuf_printf(c->b, " data-r=\"%ld\"", region);
        sp_textbuf_append(c->b, "><title>");
        sp_markup_escape(c->b, tip);
        sp_textbuf_append(c->b, "</title></circle>\n");
    }
}

sp_status sp_chart_speedup(sp_chart *c, sp_error *err) {
    const char *key = c->o->x ? c->o->x : "mpi_size";
    if (c->num_runs < 2)
        return sp_error_set(err, SP_ERR_BAD_OPTION,
                            "a speedup chart needs at least two runs (%zu given)", c->num_runs);
    if (c->num_runs > 64)
        return sp_error_set(err, SP_ERR_BAD_OPTION, "a speedup chart takes at most 64 runs");
    point pts[64];
    for (size_t i = 0; i < c->num_runs; i++) {
        pts[i].r = c->runs[i];
        if (!meta_number(c->runs[i], key, &pts[i].x))
            return sp_error_set(err, SP_ERR_BAD_OPTION,
                                "%s has no positive number in metadata \"%s\": choose the key "
                                "with --x (mpi_size, omp_num_threads, ...)",
                                sp_results_path(c->runs[i]), key);
    }
    qsort(pts, c->num_runs, sizeof *pts, by_x);
    size_t n = c->num_runs;
    const sp_results *ref = pts[0].r;
    series *all = calloc(MAX_SERIES, sizeof *all);
    if (!all) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    double ymax = pts[n - 1].x / pts[0].x, xmax = pts[n - 1].x;
    all[0].n = n; /* the wall time, run by run */
    for (size_t i = 0; i < n; i++) {
        double t = wall_time(pts[i].r), tref = wall_time(ref);
        all[0].x[i] = pts[i].x;
        all[0].y[i] = t > 0 && tref > 0 ? tref / t : NAN;
        all[0].label[i] = sp_results_display_label(pts[i].r);
    }
    /* Regions: the comparison stage's scaling numbers (total per rank). */
    sp_scaling_options so = {0};
    so.x = key;
    so.total = 1;
    so.filter = c->o->filter;
    sp_scaling *sc = sp_scaling_compute(c->runs, c->num_runs, &so, err);
    if (!sc) {
        free(all);
        return err ? err->status : SP_ERR_OUT_OF_MEMORY;
    }
    size_t ns = 1;
    for (size_t g = 0; g < sc->num_regions && ns < MAX_SERIES; g++) {
        long idx = sp_results_find(c->r, sc->regions[g].name);
        if (idx < 0) continue;
        all[ns].name = sp_results_region_name(c->r, (size_t)idx);
        for (size_t k = 0; k < sc->num_x && k < 64; k++) {
            const sp_scaling_point *p = &sc->regions[g].points[k];
            all[ns].x[k] = sc->xs[k];
            all[ns].y[k] = p->has_time ? p->speedup : NAN;
            all[ns].runs[k] = sc->runs_at_x[k];
        }
        all[ns].n = sc->num_x < 64 ? sc->num_x : 64;
        ns++;
    }
    sp_scaling_free(sc);
    for (size_t s = 0; s < ns; s++)
        for (size_t i = 0; i < all[s].n; i++)
            if (isfinite(all[s].y[i]) && all[s].y[i] > ymax) ymax = all[s].y[i];
    ymax *= 1.08;
    double top = SP_PLOT_TITLE_H + 16, x0 = 56, w = c->width - x0 - 200;
    int height = (int)(top + PLOT_H + 60);
    char title[200];
    snprintf(title, sizeof title, "Speedup against %s", key);
    char sub[200];
    snprintf(sub, sizeof sub, "%zu runs \xC2\xB7 reference: %s", n, sp_results_display_label(ref));
    sp_svg_begin(c->b, c->width, height, c->standalone, title, sub);
    double ticks[32], step;
    int nt = sp_nice_ticks(0, ymax, 7, ticks, 32, &step);
    for (int i = 0; i < nt; i++) {
        double y = top + PLOT_H - ticks[i] / ymax * PLOT_H;
        char label[32];
        snprintf(label, sizeof label, "%gx", ticks[i]);
        sp_svg_line(c->b, x0, y, x0 + w, y, "gr");
        sp_svg_text(c->b, x0 - 6, y + 4, "end", "lb", label, 0, -1);
    }
    nt = sp_nice_ticks(0, xmax, (int)(w / 70) + 1, ticks, 32, &step);
    sp_svg_line(c->b, x0, top + PLOT_H, x0 + w, top + PLOT_H, "ax");
    for (int i = 0; i < nt; i++) {
        double x = x0 + ticks[i] / xmax * w;
        char label[32];
        snprintf(label, sizeof label, "%g", ticks[i]);
        sp_svg_line(c->b, x, top + PLOT_H, x, top + PLOT_H + 4, "ax");
        sp_svg_text(c->b, x, top + PLOT_H + 16, "middle", "lb", label, 0, -1);
    }
    sp_svg_text(c->b, x0 + w / 2, top + PLOT_H + 34, "middle", "lb", key, 0, -1);
    /* ideal: y = x / x_ref */
    sp_textbuf_printf(c->b,
                      "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"id\"/>\n",
                      x0 + pts[0].x / xmax * w, top + PLOT_H - 1.0 / ymax * PLOT_H, x0 + w,
                      top + PLOT_H - (xmax / pts[0].x) / ymax * PLOT_H);
    for (size_t s = 0; s < ns; s++)
        draw_series(c, &all[s], x0, w, top, xmax, ymax);
    double ly = top + 8, lx = x0 + w + 16;
    sp_textbuf_printf(c->b,
                      "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"id\"/>\n", lx,
                      ly, lx + 18, ly);
    sp_svg_text(c->b, lx + 24, ly + 4, "start", "lb", "ideal", 0, -1);
    for (size_t s = 0; s < ns; s++) {
        ly += 18;
        char fill[8];
        if (all[s].name)
            sp_region_colour(all[s].name, fill);
        else
            snprintf(fill, sizeof fill, "#222222");
        long region = all[s].name ? sp_results_find(c->r, all[s].name) : -1;
        sp_svg_rect(c->b, lx, ly - 4, 18, 4, fill, 1.0, region, NULL);
        sp_svg_text(c->b, lx + 24, ly + 2, "start", "lb", all[s].name ? all[s].name : "wall time",
                    c->width - lx - 30, region);
    }
    sp_svg_note(
        c->b, x0, height - 8,
        "Speedup = reference time / run time; regions: total per rank (scaling's numbers).");
    sp_svg_end(c->b);
    free(all);
    return SP_OK;
}
