/*
 * One rule for every duration a person reads (text tables, the run summary,
 * the HTML report, chart labels; docs/cli.md "Units"): the value in the
 * largest unit of s, ms, µs, ns that keeps it at or above 1, with three
 * significant digits ("3.06 ms", "20.1 s", "300 µs", "22.0 ns"); seconds of
 * 1000 and more keep every integer digit ("4127 s"); 0 is "0 s". Machine
 * outputs (JSON, CSV) keep seconds at full precision instead.
 */
#ifndef SP_COMMON_DURATION_TEXT_H
#define SP_COMMON_DURATION_TEXT_H

#include <stddef.h>

/* A unit for durations up to max_seconds: "s", "ms", "µs" or "ns". */
typedef struct sp_time_unit {
    double per_second; /* 1, 1e3, 1e6, 1e9 */
    const char *suffix;
} sp_time_unit;

sp_time_unit sp_time_unit_for(double max_seconds);

/* The rule above into out; "-" for NaN or infinity. ascii: "us" for "µs". */
void sp_format_duration(double seconds, int ascii, char *out, size_t size);

/* sp_format_duration with "µs". */
void sp_format_seconds(double seconds, char *out, size_t size);

#endif
