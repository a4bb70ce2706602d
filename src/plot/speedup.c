/* Speedup: several runs against a metadata key (mpi_size, omp_num_threads,
 * ...), each line the reference time over the run's time, with the ideal line
 * x / x_ref. Times: the wall time, and for the largest regions the slowest
 * rank's total (what bounds a parallel step). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/markup_escape.h"
#include "plot/plot_internal.h"

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

/* The slowest rank's total of a region, NaN when the run lacks it. */
static double region_time(const sp_results *r, const char *name) {
    long g = sp_results_find(r, name);
    if (g < 0) return NAN;
    const sp_mpi_region *mr = sp_results_region_at(r, (size_t)g);
    size_t n = sp_mpi_region_num_ranks(mr);
    double *t = malloc((n ? n : 1) * sizeof *t), mx = 0;
    if (!t) return NAN;
    sp_mpi_region_total_durations(mr, t, n);
    for (size_t i = 0; i < n; i++)
        if (t[i] > mx) mx = t[i];
    free(t);
    return mx > 0 ? mx : NAN;
}

typedef struct series {
    const char *name; /* NULL: the wall time */
    double y[64];
} series;

static void draw_series(sp_chart *c, const series *s, const point *pts, size_t n, double x0,
                        double w, double top, double xmax, double ymax) {
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
            sp_textbuf_printf(c->b, "%.1f,%.1f ", x0 + pts[i].x / xmax * w,
                              top + PLOT_H - s->y[i] / ymax * PLOT_H);
    sp_textbuf_append(c->b, "\"/>\n");
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(s->y[i])) continue;
        char tip[800];
        snprintf(tip, sizeof tip, "%s at %g: speedup %.2fx (%s)", s->name ? s->name : "wall time",
                 pts[i].x, s->y[i], sp_results_display_label(pts[i].r));
        sp_textbuf_printf(c->b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"",
                          x0 + pts[i].x / xmax * w, top + PLOT_H - s->y[i] / ymax * PLOT_H, fill);
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
    size_t ns = 1;
    all[0].name = NULL;
    for (size_t i = 0; i < c->num_regions && ns < MAX_SERIES; i++)
        all[ns++].name = sp_mpi_region_name(c->regions[i]);
    double ymax = pts[n - 1].x / pts[0].x, xmax = pts[n - 1].x;
    for (size_t s = 0; s < ns; s++) {
        double tref = all[s].name ? region_time(ref, all[s].name) : wall_time(ref);
        for (size_t i = 0; i < n; i++) {
            double t = all[s].name ? region_time(pts[i].r, all[s].name) : wall_time(pts[i].r);
            all[s].y[i] = t > 0 && tref > 0 ? tref / t : NAN;
            if (isfinite(all[s].y[i]) && all[s].y[i] > ymax) ymax = all[s].y[i];
        }
    }
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
        draw_series(c, &all[s], pts, n, x0, w, top, xmax, ymax);
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
    sp_svg_note(c->b, x0, height - 8,
                "Speedup = reference time / run time; regions: the slowest rank's total.");
    sp_svg_end(c->b);
    free(all);
    return SP_OK;
}
