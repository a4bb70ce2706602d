/* Pixel merging: a lane never gets more bars than it has pixel columns. */
#include <math.h>
#include <stdio.h>

#include "plot/plot_internal.h"

void sp_px_lane_init(sp_px_lane *l, sp_textbuf *b, double y, double h, const char *lane_label) {
    *l = (sp_px_lane){0};
    l->b = b;
    l->y = y;
    l->h = h;
    l->lane_label = lane_label;
    l->region = -1;
}

void sp_px_lane_flush(sp_px_lane *l) {
    if (!l->open) return;
    double x = floor(l->x0), w = ceil(l->x1) - x;
    if (w < 1) w = 1;
    double opacity = l->busy / w;
    if (opacity < 0.3) opacity = 0.3;
    if (opacity > 1) opacity = 1;
    char tip[512];
    const char *what = l->lane_label ? l->lane_label : l->region >= 0 ? l->name : "several regions";
    snprintf(tip, sizeof tip, "%s: %llu call%s shorter than a pixel%s", what,
             (unsigned long long)l->calls, l->calls == 1 ? "" : "s",
             l->calls == 1 ? "" : ", merged");
    sp_svg_rect(l->b, x, l->y, w, l->h, l->fill, opacity, l->region, tip);
    l->bars++;
    l->open = 0;
}

void sp_px_lane_add(sp_px_lane *l, double x0, double x1, long region, const char *fill,
                    const char *name, const char *tip) {
    if (x1 < x0) x1 = x0;
    if (x1 - x0 >= 1.0) {
        sp_px_lane_flush(l);
        sp_svg_rect(l->b, x0, l->y, x1 - x0, l->h, fill, 1.0, region, tip);
        l->bars++;
        return;
    }
    if (l->open && floor(x0) <= floor(l->x1) + 1) {
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
