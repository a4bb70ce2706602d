/* Pixel merging: a lane never gets more bars than it has pixel columns, and
 * the merged bars of a lane are written as a few <path> elements (one per
 * colour and opacity step) with one tooltip each, so a lane of a million
 * short calls costs a few hundred bytes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/markup_escape.h"
#include "plot/plot_internal.h"

/* Calls closer than this many pixels to the pending merged bar join it. */
#define MERGE_GAP_PX 3.0

void sp_px_lane_init(sp_px_lane *l, sp_textbuf *b, double y, double h, const char *lane_label) {
    *l = (sp_px_lane){0};
    l->b = b;
    l->y = y;
    l->h = h;
    l->lane_label = lane_label;
    l->region = -1;
}

/* The group for fill at opacity step `step` (0-3), or NULL when the lane has
 * SP_PX_GROUPS groups already. */
static sp_px_group *group_of(sp_px_lane *l, const char *fill, int step) {
    for (size_t i = 0; i < l->num_groups; i++)
        if (l->groups[i].step == step && strcmp(l->groups[i].fill, fill) == 0) return &l->groups[i];
    if (l->num_groups == SP_PX_GROUPS) return NULL;
    sp_px_group *g = &l->groups[l->num_groups++];
    *g = (sp_px_group){0};
    g->path = (sp_textbuf)SP_TEXTBUF_INIT;
    snprintf(g->fill, sizeof g->fill, "%s", fill);
    g->step = step;
    g->region = -2; /* none yet */
    return g;
}

static void write_group(sp_px_lane *l, sp_px_group *g) {
    static const double OPACITY[4] = {0.35, 0.55, 0.8, 1.0};
    const char *d = sp_textbuf_str(&g->path);
    sp_textbuf_printf(l->b, "<path d=\"%s\" fill=\"%s\"", d ? d : "", g->fill);
    if (g->step < 3) sp_textbuf_printf(l->b, " fill-opacity=\"%.2f\"", OPACITY[g->step]);
    if (g->region >= 0) sp_textbuf_printf(l->b, " data-r=\"%ld\"", g->region);
    char tip[600];
    const char *what = l->lane_label ? l->lane_label : g->region >= 0 ? g->name : "several regions";
    snprintf(tip, sizeof tip, "%s: %llu call%s shorter than a pixel%s", what,
             (unsigned long long)g->calls, g->calls == 1 ? "" : "s",
             g->bars > 1 ? ", merged by pixel column" : "");
    sp_textbuf_append(l->b, "><title>");
    sp_markup_escape(l->b, tip);
    sp_textbuf_append(l->b, "</title></path>\n");
    l->bars++;
}

void sp_px_lane_flush(sp_px_lane *l) {
    if (!l->open) return;
    l->open = 0;
    double x = floor(l->x0), w = ceil(l->x1) - x;
    if (w < 1) w = 1;
    double busy = l->busy / w; /* the share of its pixels the calls fill */
    int step = busy < 0.25 ? 0 : busy < 0.5 ? 1 : busy < 0.85 ? 2 : 3;
    sp_px_group *g = group_of(l, l->fill, step);
    if (!g) { /* more colours than groups: a bar of its own */
        sp_svg_rect(l->b, x, l->y, w, l->h, l->fill, step == 3 ? 1.0 : 0.35 + 0.2 * step, l->region,
                    NULL);
        l->bars++;
        return;
    }
    sp_textbuf_printf(&g->path, "M%.0f %.1fh%.0fv%.1fh-%.0fz", x, l->y, w, l->h, w);
    g->calls += l->calls;
    g->bars++;
    if (g->region == -2) {
        g->region = l->region;
        g->name = l->name;
    } else if (g->region != l->region) {
        g->region = -1;
    }
}

void sp_px_lane_finish(sp_px_lane *l) {
    sp_px_lane_flush(l);
    for (size_t i = 0; i < l->num_groups; i++) {
        if (sp_textbuf_failed(&l->groups[i].path)) l->b->failed = 1;
        write_group(l, &l->groups[i]);
        sp_textbuf_free(&l->groups[i].path);
    }
    l->num_groups = 0;
}

void sp_px_lane_add(sp_px_lane *l, double x0, double x1, long region, const char *fill,
                    const char *name, const char *tip) {
    if (x1 < x0) x1 = x0;
    /* calls come in start order: the bar ending last started no later */
    if (x1 <= l->covered_to && strcmp(fill, l->covered_fill) == 0) return;
    if (x1 - x0 >= 1.0) {
        sp_px_lane_flush(l);
        sp_svg_rect(l->b, x0, l->y, x1 - x0, l->h, fill, 1.0, region, tip);
        l->bars++;
        if (x1 > l->covered_to || strcmp(fill, l->covered_fill) != 0) {
            l->covered_to = x1;
            snprintf(l->covered_fill, sizeof l->covered_fill, "%s", fill);
        }
        return;
    }
    if (l->open && x0 <= l->x1 + MERGE_GAP_PX) {
        if (x1 > l->x1) l->x1 = x1;
        l->busy += x1 - x0;
        l->calls++;
        if (region != l->region) {
            l->region = -1;
            snprintf(l->fill, sizeof l->fill, "#999999");
        }
        return;
    }
    sp_px_lane_flush(l);
    l->open = 1;
    l->x0 = x0;
    l->x1 = x1;
    l->busy = x1 - x0;
    l->calls = 1;
    l->region = region;
    l->name = name;
    snprintf(l->fill, sizeof l->fill, "%s", fill);
}
