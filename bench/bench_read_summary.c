/*
 * bench_read_summary: writes a profile of N calls (default 10 million; a
 * time-step loop with nested regions, compressed as the default policy
 * does), then reads it back and computes the full summary (call tree,
 * exclusive times, percentiles). Prints the time and the peak memory per
 * call of the read + summary, and the same with the summary table.
 *   build/bench/bench_read_summary [calls]
 */
#include <scope_profiler.h>
#include <scope_profiler/results.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_profile.h"
#include "bench_support.h"

static void measure(const char *path, long calls, int with_table) {
    long before = bench_status_kib("VmRSS:");
    bench_reset_peak();
    double t0 = bench_now_s();
    sp_error err;
    sp_results *r = bench_read_or_die("bench_read_summary", path);
    double t_read = bench_now_s() - t0;
    sp_summary_rows *rows = sp_results_summary(r, NULL, 0, &err);
    if (!rows) {
        fprintf(stderr, "bench_read_summary: %s\n", err.message);
        exit(1);
    }
    if (with_table) {
        FILE *null = fopen("/dev/null", "w");
        sp_print_summary(r, null, NULL, &err);
        fclose(null);
    }
    double t = bench_now_s() - t0;
    long peak = bench_status_kib("VmHWM:");
    printf("read %.3f s + summary%s %.3f s = %.3f s for %ld calls; peak %.1f bytes per call "
           "(%.1f MiB)\n",
           t_read, with_table ? " and table" : "", t - t_read, t, calls,
           (peak - before) * 1024.0 / (double)calls, (peak - before) / 1024.0);
    sp_summary_rows_free(rows);
    sp_results_free(r);
}

int main(int argc, char **argv) {
    long calls = argc > 1 ? atol(argv[1]) : 10000000;
    char path[4096];
    bench_temp_path(path, sizeof path, "bench_read");
    unsetenv("SCOPE_PROFILER_OUTPUT");
    unsetenv("SCOPE_PROFILER_DISABLE");
    bench_write_nested_profile(path, calls);
    printf("== read and summarise %ld calls (gzip-compressed, 4 nested regions)\n", calls);
    measure(path, calls, 0);
    measure(path, calls, 1);
    unlink(path);
    return 0;
}
