/* Durations: one horizontal bar per region for a metric of its pooled calls,
 * largest first. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "plot/plot_internal.h"

#define BAR_H    20.0
#define MAX_BARS 200

typedef struct metric {
    const char *key, *title;
} metric;

static const metric METRICS[] = {{"total", "total time"},
                                 {"avg", "average per call"},
                                 {"min", "shortest call"},
                                 {"max", "longest call"},
                                 {"p95", "95th percentile"}};

static double value_of(const sp_summary_row *row, const char *key) {
    if (strcmp(key, "avg") == 0) return row->average_duration;
    if (strcmp(key, "min") == 0) return row->min_duration;
    if (strcmp(key, "max") == 0) return row->max_duration;
    if (strcmp(key, "p95") == 0) return row->has_percentiles ? row->p95_duration : NAN;
    return row->total_duration;
}

typedef struct bar {
    const sp_summary_row *row;
    double value;
} bar;

static int by_value_desc(const void *a, const void *b) {
    double x = ((const bar *)a)->value, y = ((const bar *)b)->value;
    if (isnan(x)) return isnan(y) ? 0 : 1;
    if (isnan(y)) return -1;
    return x < y ? 1 : x > y ? -1 : 0;
}

sp_status sp_chart_durations(sp_chart *c, sp_error *err) {
    const char *key = c->o->metric ? c->o->metric : "total";
    const metric *m = NULL;
    for (size_t i = 0; i < sizeof METRICS / sizeof METRICS[0]; i++)
        if (strcmp(METRICS[i].key, key) == 0) m = &METRICS[i];
    if (!m)
        return sp_error_set(err, SP_ERR_BAD_OPTION,
                            "unknown metric \"%s\": choose total, avg, min, max or p95", key);
    sp_summary_rows *rows = sp_results_summary(c->r, &c->o->filter, 0, err);
    if (!rows) return err ? err->status : SP_ERR_OUT_OF_MEMORY;
    bar *bars = malloc((rows->count ? rows->count : 1) * sizeof *bars);
    if (!bars) {
        sp_summary_rows_free(rows);
        return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    }
    size_t n = 0;
    for (size_t i = 0; i < rows->count; i++)
        if (rows->rows[i].num_calls)
            bars[n++] = (bar){&rows->rows[i], value_of(&rows->rows[i], key)};
    qsort(bars, n, sizeof *bars, by_value_desc);
    char title[64];
    snprintf(title, sizeof title, "Durations \xC2\xB7 %s", m->title);
    if (n == 0) {
        sp_chart_empty(c, title, "No calls in the selection.");
    } else {
        size_t shown = n < MAX_BARS ? n : MAX_BARS;
        double top = SP_PLOT_TITLE_H + 12, label_w = fmin(240, c->width * 0.28);
        double x0 = label_w + 10, w = c->width - x0 - 90;
        double vmax = isnan(bars[0].value) ? 0 : bars[0].value;
        if (!(vmax > 0)) vmax = 1e-9;
        double plot_h = BAR_H * (double)shown;
        int height = (int)(top + plot_h + SP_PLOT_AXIS_H + (shown < n ? 30 : 12));
        char *sub = sp_chart_subtitle(c);
        sp_svg_begin(c->b, c->width, height, c->standalone, title, sub);
        free(sub);
        sp_svg_time_axis(c->b, x0, w, top + plot_h + 2, 0, vmax, top);
        for (size_t i = 0; i < shown; i++) {
            const sp_summary_row *row = bars[i].row;
            long region = sp_results_find(c->r, row->name);
            double y = top + BAR_H * (double)i, v = bars[i].value;
            double bw = isnan(v) ? 0 : v / vmax * w;
            char fill[8], val[32], tip[800];
            sp_region_colour(row->name, fill);
            sp_format_seconds(v, val, sizeof val);
            snprintf(tip, sizeof tip, "%s: %s (%s), %llu call%s", row->name, val, m->title,
                     (unsigned long long)row->num_calls, row->num_calls == 1 ? "" : "s");
            sp_svg_text(c->b, label_w, y + BAR_H / 2 + 4, "end", "lb", row->name, label_w - 12,
                        region);
            sp_svg_rect(c->b, x0, y + 3, bw < 1 && bw > 0 ? 1 : bw, BAR_H - 6, fill, 1.0, region,
                        tip);
            sp_svg_text(c->b, x0 + bw + 5, y + BAR_H / 2 + 4, "start", "lb", val, 0, region);
        }
        if (shown < n) {
            char note[120];
            snprintf(note, sizeof note, "%zu smaller regions not drawn", n - shown);
            sp_svg_note(c->b, 12, top + plot_h + SP_PLOT_AXIS_H + 14, note);
        }
        sp_svg_end(c->b);
    }
    free(bars);
    sp_summary_rows_free(rows);
    return SP_OK;
}
