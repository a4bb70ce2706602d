/*
 * bench_export: writes a profile of N calls (default 10 million; the time-step
 * loop of bench_read_summary), reads it, then exports it in every format
 * (scope_profiler/export.h) to a sink that counts and discards the bytes, so
 * the figures are the exporter's own cost, not the disk's. Prints, per format:
 * seconds, bytes per call, and the peak resident memory above the results.
 *   build/bench/bench_export [calls]
 */
#define _GNU_SOURCE
#include <scope_profiler.h>
#include <scope_profiler/export.h>
#include <scope_profiler/results.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_profile.h"
#include "bench_support.h"

static double cpu_now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static ssize_t count_bytes(void *cookie, const char *buf, size_t size) {
    (void)buf;
    *(unsigned long long *)cookie += size;
    return (ssize_t)size;
}

static void measure(const sp_results *r, sp_export_format format, long calls) {
    unsigned long long bytes = 0;
    cookie_io_functions_t io = {NULL, count_bytes, NULL, NULL};
    FILE *out = fopencookie(&bytes, "w", io);
    if (!out) {
        perror("fopencookie");
        exit(1);
    }
    long before = bench_status_kib("VmRSS:");
    bench_reset_peak();
    sp_export_options options = {0};
    sp_export_estimate est;
    sp_error err;
    double t0 = bench_now_s(), c0 = cpu_now_s();
    if (sp_export_estimate_size(r, format, &options, &est, &err) != SP_OK ||
        sp_export_write(r, format, &options, out, &err) != SP_OK) {
        fprintf(stderr, "bench_export: %s\n", err.message);
        exit(1);
    }
    fflush(out);
    double t = bench_now_s() - t0, cpu = cpu_now_s() - c0;
    long peak = bench_status_kib("VmHWM:");
    fclose(out);
    printf("%-13s %6.2f s (cpu %5.2f s)  %6.1f bytes/call  %10llu bytes (estimate %+.1f%%)  peak "
           "+%.1f MiB\n",
           sp_export_format_name(format), t, cpu, (double)bytes / (double)calls, bytes,
           100.0 * ((double)est.bytes / (double)bytes - 1), (peak - before) / 1024.0);
}

int main(int argc, char **argv) {
    long calls = argc > 1 ? atol(argv[1]) : 10000000;
    char path[4096];
    bench_temp_path(path, sizeof path, "bench_export");
    unsetenv("SCOPE_PROFILER_OUTPUT");
    unsetenv("SCOPE_PROFILER_DISABLE");
    bench_write_nested_profile(path, calls);
    sp_results *r = bench_read_or_die("bench_export", path);
    unlink(path);
    long total = 0;
    for (size_t i = 0; i < sp_results_num_regions(r); i++)
        total += (long)sp_mpi_region_num_calls(sp_results_region_at(r, i));
    printf("== export %ld calls (4 nested regions and the session root), results %.0f MiB\n", total,
           bench_status_kib("VmRSS:") / 1024.0);
    static const sp_export_format formats[] = {SP_EXPORT_PERFETTO, SP_EXPORT_CHROME_TRACE,
                                               SP_EXPORT_SPEEDSCOPE, SP_EXPORT_FOLDED};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        measure(r, formats[i], total);
    sp_results_free(r);
    return 0;
}
