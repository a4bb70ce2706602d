/* Load imbalance: one panel per region with its per-rank totals, the mean as
 * a dashed line and the slowest rank marked; ranks beyond one per pixel
 * share a column, which shows the largest of them (so the slowest stays visible). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "plot/plot_internal.h"

#define PANEL_H    56.0
#define MAX_COL_W  40.0
#define PANEL_GAP  40.0 /* room for the rank labels and the next heading */
#define MAX_PANELS 24

typedef struct panel {
    const sp_mpi_region *mr;
    double imbalance;
} panel;

static int by_imbalance_desc(const void *a, const void *b) {
    double x = ((const panel *)a)->imbalance, y = ((const panel *)b)->imbalance;
    return x < y ? 1 : x > y ? -1 : 0;
}

static long rank_position(const sp_chart *c, uint32_t rank) {
    size_t lo = 0, hi = c->num_ranks;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c->ranks[mid] == rank) return (long)mid;
        if (c->ranks[mid] < rank)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* Per selected rank (c->ranks order) totals of the region, 0 where it has none. */
static int rank_totals(const sp_chart *c, const sp_mpi_region *mr, double *out, double *scratch) {
    size_t n = sp_mpi_region_num_ranks(mr);
    memset(out, 0, c->num_ranks * sizeof *out);
    sp_mpi_region_total_durations(mr, scratch, n);
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        long pos = rank_position(c, sp_mpi_region_rank_id(mr, i));
        if (pos >= 0) {
            out[pos] = scratch[i];
            any |= scratch[i] > 0;
        }
    }
    return any;
}

/* The rank under a column, for columns at least ~36 px apart (the first, the
 * last and evenly spaced ones between); a shared column names its first rank. */
static void rank_labels(sp_chart *c, double y, double x0, double cw, size_t cols) {
    size_t n = c->num_ranks, every = (size_t)ceil(36.0 / cw);
    if (every < 1) every = 1;
    for (size_t col = 0; col < cols; col++) {
        int last = col + 1 == cols;
        if (col % every != 0 && !last) continue;
        if (last && col % every != 0 && (col % every) * cw < 36.0) continue; /* too close */
        char text[16];
        snprintf(text, sizeof text, "%u", c->ranks[col * n / cols]);
        sp_svg_text(c->b, x0 + cw * ((double)col + 0.5), y, "middle", "sub", text, 0, -1);
    }
}

static void draw_panel(sp_chart *c, const sp_mpi_region *mr, const double *totals, double y,
                       double x0, double w) {
    const char *name = sp_mpi_region_name(mr);
    long region = sp_chart_region_index(c, mr);
    size_t n = c->num_ranks, slow = 0;
    double sum = 0, vmax = 0;
    for (size_t i = 0; i < n; i++) {
        sum += totals[i];
        if (totals[i] > totals[slow]) slow = i;
    }
    vmax = totals[slow] > 0 ? totals[slow] : 1e-9;
    double mean = sum / (double)n;
    char fill[8], v[32], m[32], head[900];
    sp_region_colour(name, fill);
    sp_format_seconds(totals[slow], v, sizeof v);
    sp_format_seconds(mean, m, sizeof m);
    snprintf(head, sizeof head, "%s \xC2\xB7 slowest rank %u: %s, mean %s (+%.1f%%)", name,
             c->ranks[slow], v, m, mean > 0 ? (totals[slow] / mean - 1) * 100 : 0.0);
    sp_svg_text(c->b, x0, y - 8, "start", "lb", head, w, region);
    size_t cols = n < (size_t)w ? n : (size_t)w;
    double cw = fmin(MAX_COL_W, w / (double)cols);
    double pw = cw * (double)cols; /* the panel's width */
    for (size_t col = 0; col < cols; col++) {
        size_t first = col * n / cols, last = (col + 1) * n / cols; /* ranks [first, last) */
        size_t best = first;
        for (size_t i = first; i < last; i++)
            if (totals[i] > totals[best]) best = i;
        double h = totals[best] / vmax * PANEL_H;
        char tip[900], t[32];
        sp_format_seconds(totals[best], t, sizeof t);
        if (last - first > 1)
            snprintf(tip, sizeof tip, "%s: ranks %u-%u, at most %s (rank %u)", name,
                     c->ranks[first], c->ranks[last - 1], t, c->ranks[best]);
        else
            snprintf(tip, sizeof tip, "%s: rank %u, %s", name, c->ranks[best], t);
        double bw = cw > 3 ? cw - 1 : cw;
        if (h > 0)
            sp_svg_rect(c->b, x0 + cw * (double)col, y + PANEL_H - h, bw, h, fill,
                        best == slow ? 1.0 : 0.75, region, tip);
        if (best == slow && h > 0)
            sp_textbuf_printf(c->b,
                              "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                              "class=\"mk\"/>\n",
                              x0 + cw * (double)col - 1, y + PANEL_H - h - 1, bw + 2, h + 2);
    }
    double my = y + PANEL_H - mean / vmax * PANEL_H;
    sp_textbuf_printf(c->b,
                      "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"id\">"
                      "<title>mean %s</title></line>\n",
                      x0, my, x0 + pw, my, m);
    sp_svg_line(c->b, x0, y + PANEL_H, x0 + pw, y + PANEL_H, "ax");
    rank_labels(c, y + PANEL_H + 12, x0, cw, cols);
}

sp_status sp_chart_imbalance(sp_chart *c, sp_error *err) {
    size_t n = c->num_ranks;
    panel *panels = malloc((c->num_regions ? c->num_regions : 1) * sizeof *panels);
    double *totals = malloc((n ? n : 1) * sizeof *totals);
    double *scratch = malloc((sp_results_num_data_ranks(c->r) + 1) * sizeof *scratch);
    if (!panels || !totals || !scratch) {
        free(panels);
        free(totals);
        free(scratch);
        return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    }
    size_t np = 0;
    for (size_t i = 0; i < c->num_regions && n; i++)
        if (rank_totals(c, c->regions[i], totals, scratch)) {
            double s = 0, mx = 0;
            for (size_t k = 0; k < n; k++) {
                s += totals[k];
                if (totals[k] > mx) mx = totals[k];
            }
            panels[np++] = (panel){c->regions[i], mx / (s / (double)n)};
        }
    qsort(panels, np, sizeof *panels, by_imbalance_desc);
    if (np == 0) {
        sp_chart_empty(c, "Load imbalance", "No calls in the selection.");
    } else {
        size_t shown = np < MAX_PANELS ? np : MAX_PANELS;
        double top = SP_PLOT_TITLE_H + 28, x0 = 12, w = c->width - 24;
        int height = (int)(top + (PANEL_H + PANEL_GAP) * (double)shown + 34);
        char *sub = sp_chart_subtitle(c);
        sp_svg_begin(c->b, c->width, height, c->standalone, "Load imbalance", sub);
        free(sub);
        for (size_t i = 0; i < shown; i++) {
            rank_totals(c, panels[i].mr, totals, scratch);
            draw_panel(c, panels[i].mr, totals, top + (PANEL_H + PANEL_GAP) * (double)i, x0, w);
        }
        char note[240];
        snprintf(note, sizeof note,
                 "Bars: each rank's total (%zu rank%s, left to right, rank under the bar); dashed: the mean; "
                 "outlined: the slowest rank.%s",
                 n, n == 1 ? "" : "s",
                 n > (size_t)w ? " Ranks sharing a pixel show their largest." : "");
        sp_svg_note(c->b, 12, height - 14, note);
        if (shown < np) {
            snprintf(note, sizeof note, "%zu more regions not drawn", np - shown);
            sp_svg_note(c->b, c->width * 0.7, height - 14, note);
        }
        sp_svg_end(c->b);
    }
    free(panels);
    free(totals);
    free(scratch);
    return SP_OK;
}
