/* Region colours: the regions with the most time take twelve distinct
 * palette colours in order of time; the rest a colour hashed from the name. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_internal.h"

static uint32_t fnv1a(const char *s) {
    uint32_t h = 2166136261u;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 16777619u;
    }
    return h;
}

static double hue_channel(double p, double q, double t) {
    if (t < 0) t += 1;
    if (t > 1) t -= 1;
    if (t < 1.0 / 6) return p + (q - p) * 6 * t;
    if (t < 0.5) return q;
    if (t < 2.0 / 3) return p + (q - p) * (2.0 / 3 - t) * 6;
    return p;
}

/* Twelve hues far apart, each light enough for dark text or dark enough for white. */
static const char *const PALETTE[SP_PALETTE_SIZE] = {
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948",
    "#b07aa1", "#ff9da7", "#9c755f", "#2f4b7c", "#bcbd22", "#17becf"};

/* The palette of the results being drawn (one rendering at a time per thread). */
static _Thread_local const sp_palette *active;

typedef struct ranked {
    const char *name;
    double total;
} ranked;

static int by_total_desc(const void *a, const void *b) {
    double x = ((const ranked *)a)->total, y = ((const ranked *)b)->total;
    return x < y ? 1 : x > y ? -1 : 0;
}

void sp_palette_build(const sp_results *r, sp_palette *out) {
    *out = (sp_palette){0};
    size_t n = sp_results_num_regions(r), k = 0;
    ranked *list = malloc((n ? n : 1) * sizeof *list);
    if (!list) return; /* hashed colours only */
    for (size_t i = 0; i < n; i++) {
        const char *name = sp_results_region_name(r, i);
        if (!name || strcmp(name, "scope_profiler.session") == 0) continue;
        double t = sp_mpi_region_total_duration(sp_results_region_at(r, i));
        list[k++] = (ranked){name, isfinite(t) ? t : 0};
    }
    qsort(list, k, sizeof *list, by_total_desc);
    for (size_t i = 0; i < k && i < SP_PALETTE_SIZE; i++)
        out->names[out->count++] = list[i].name;
    free(list);
}

const sp_palette *sp_palette_use(const sp_palette *p) {
    const sp_palette *before = active;
    active = p;
    return before;
}

void sp_region_colour(const char *name, char out[8]) {
    if (strcmp(name, "scope_profiler.session") == 0) { /* the whole session: neutral */
        snprintf(out, 8, "#a9b3bd");
        return;
    }
    for (size_t i = 0; active && i < active->count; i++)
        if (strcmp(active->names[i], name) == 0) {
            snprintf(out, 8, "%s", PALETTE[i]);
            return;
        }
    uint32_t h = fnv1a(name);
    h ^= h >> 15; /* spread the low bits of short names */
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    double hue = (double)(h % 360) / 360.0;
    double sat = 0.50 + 0.20 * (double)((h >> 9) % 8) / 7.0;
    double light = 0.48 + 0.14 * (double)((h >> 13) % 8) / 7.0;
    double q = light < 0.5 ? light * (1 + sat) : light + sat - light * sat;
    double p = 2 * light - q;
    int r = (int)lround(255 * hue_channel(p, q, hue + 1.0 / 3));
    int g = (int)lround(255 * hue_channel(p, q, hue));
    int bl = (int)lround(255 * hue_channel(p, q, hue - 1.0 / 3));
    snprintf(out, 8, "#%02x%02x%02x", r & 255, g & 255, bl & 255);
}

int sp_colour_is_dark(const char *fill) {
    unsigned r = 0, g = 0, b = 0;
    if (sscanf(fill, "#%02x%02x%02x", &r, &g, &b) != 3) return 0;
    return 0.299 * r + 0.587 * g + 0.114 * b < 140;
}
