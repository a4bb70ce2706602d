#include "common/duration_text.h"

#include <math.h>
#include <stdio.h>

static const sp_time_unit units[] = {
    {1.0, "s"}, {1e3, "ms"}, {1e6, "\xC2\xB5s"}, {1e9, "ns"}};

static size_t unit_index(double max_seconds) {
    double m = fabs(max_seconds);
    if (m >= 1.0 || m == 0.0 || !isfinite(m)) return 0;
    if (m >= 1e-3) return 1;
    if (m >= 1e-6) return 2;
    return 3;
}

sp_time_unit sp_time_unit_for(double max_seconds) {
    return units[unit_index(max_seconds)];
}

void sp_format_duration(double seconds, int ascii, char *out, size_t size) {
    if (!isfinite(seconds)) {
        snprintf(out, size, "-");
        return;
    }
    if (seconds == 0.0) {
        snprintf(out, size, "0 s");
        return;
    }
    size_t u = unit_index(seconds);
    double v = seconds * units[u].per_second;
    /* 999.7 µs rounds to 1000 µs: it reads as 1.00 ms */
    if (u > 0 && fabs(v) >= 999.5) v = seconds * units[--u].per_second;
    double a = fabs(v);
    int decimals = a >= 99.95 ? 0 : a >= 9.995 ? 1 : 2;
    const char *suffix = ascii && u == 2 ? "us" : units[u].suffix;
    snprintf(out, size, "%.*f %s", decimals, v, suffix);
}

void sp_format_seconds(double seconds, char *out, size_t size) {
    sp_format_duration(seconds, 0, out, size);
}
