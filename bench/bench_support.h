/* Small helpers the benchmarks share: a clock and the resident-memory counters. */
#ifndef SP_BENCH_SUPPORT_H
#define SP_BENCH_SUPPORT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A profile path of this process in $TMPDIR (else /tmp): DIR/STEM_PID.h5. */
static inline void bench_temp_path(char *out, size_t size, const char *stem) {
    const char *dir = getenv("TMPDIR");
    snprintf(out, size, "%s/%s_%ld.h5", dir && *dir ? dir : "/tmp", stem, (long)getpid());
}

/* CLOCK_MONOTONIC in seconds. */
static inline double bench_now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A "Name:  123 kB" field of /proc/self/status in KiB, or -1. */
static inline long bench_status_kib(const char *field) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long value = -1;
    size_t n = strlen(field);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, field, n) == 0) value = atol(line + n);
    if (f) fclose(f);
    return value;
}

/* Resets the peak resident size (VmHWM) to the current one (Linux >= 4.0). */
static inline void bench_reset_peak(void) {
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (f) {
        fputs("5", f);
        fclose(f);
    }
}

#endif
