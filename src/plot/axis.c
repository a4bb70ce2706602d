/* Readable time axes: a unit per axis (s, ms, µs, ns), 1-2-5 tick steps,
 * labels spaced so that they never overlap. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plot/plot_internal.h"

#define MIN_LABEL_GAP_PX 80.0

int sp_nice_ticks(double lo, double hi, int max_ticks, double *ticks, int cap, double *step) {
    if (max_ticks < 2) max_ticks = 2;
    if (!(hi > lo)) hi = lo + 1e-9;
    double raw = (hi - lo) / (max_ticks - 1);
    double mag = pow(10, floor(log10(raw)));
    double s = mag;
    static const double factors[] = {1, 2, 5, 10};
    for (size_t i = 0; i < 4; i++) {
        s = factors[i] * mag;
        if (s >= raw) break;
    }
    *step = s;
    int n = 0;
    for (double t = ceil(lo / s - 1e-9) * s; t <= hi + s * 1e-9 && n < cap; t += s)
        ticks[n++] = fabs(t) < s * 1e-9 ? 0.0 : t;
    return n;
}

void sp_format_tick(double seconds, sp_time_unit u, double step, char *out, size_t size) {
    double v = seconds * u.per_second, st = step * u.per_second;
    int decimals = 0;
    while (decimals < 6 && fabs(st - round(st * pow(10, decimals)) / pow(10, decimals)) > st * 1e-6)
        decimals++;
    snprintf(out, size, "%.*f %s", decimals, v, u.suffix);
}

void sp_svg_time_axis(sp_textbuf *b, double x0, double w, double y, double t0, double t1,
                      double grid_top) {
    double ticks[64], step;
    int max_ticks = (int)(w / MIN_LABEL_GAP_PX) + 1;
    if (max_ticks > 64) max_ticks = 64;
    int n = sp_nice_ticks(t0, t1, max_ticks, ticks, 64, &step);
    sp_time_unit u = sp_time_unit_for(t1 - t0 > fabs(t1) ? t1 - t0 : (fabs(t1) > 0 ? t1 : step));
    double span = t1 > t0 ? t1 - t0 : 1;
    sp_svg_line(b, x0, y, x0 + w, y, "ax");
    for (int i = 0; i < n; i++) {
        double x = x0 + (ticks[i] - t0) / span * w;
        if (x < x0 - 0.5 || x > x0 + w + 0.5) continue;
        char label[48];
        sp_format_tick(ticks[i], u, step, label, sizeof label);
        if (grid_top < y) sp_svg_line(b, x, grid_top, x, y, "gr");
        sp_svg_line(b, x, y, x, y + 4, "ax");
        const char *anchor = i == 0 && x - x0 < 20 ? "start" : (x0 + w - x < 20 ? "end" : "middle");
        sp_svg_text(b, x, y + 16, anchor, "lb", label, 0, -1);
    }
}
