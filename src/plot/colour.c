/* Region colours from a hash of the name: stable across charts and runs. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
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

void sp_region_colour(const char *name, char out[8]) {
    if (strcmp(name, "scope_profiler.session") == 0) { /* the whole session: neutral */
        snprintf(out, 8, "#a9b3bd");
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
