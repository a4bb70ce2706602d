/*
 * bench_big_read: a 1,000-rank profile with 200 regions and 10 M calls in all
 * (50 per rank and region; gzip as the default policy writes it), read back:
 * the time to open it (sp_read), to summarise it (sp_results_summary), and
 * to open and summarise ranks 0-9 only (reading the whole file, and reading
 * only those ranks' events as inspect --ranks does), with the events read.
 *   build/bench/bench_big_read [ranks [regions [calls_per_row [keep.h5]]]]
 * With keep.h5 the file is written there and kept (to time the CLI on it).
 * Target (issue 17): open + summary under 2 s. Issue 29 item 6 measures
 * `bench_big_read 16384 200 2 keep.h5` (the file's bytes per call printed
 * here; the CLI's inspect/stats/report timed on keep.h5 with /usr/bin/time).
 */
#include <scope_profiler.h>
#include <scope_profiler/results.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "model/results_model.h"
#include "bench_big_profile.h"
#include "bench_support.h"

/* CPU time of the process (the machine may be shared: wall time is printed too). */
static double cpu_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void fail(const char *what, const sp_error *err) {
    fprintf(stderr, "bench_big_read: %s: %s\n", what, err->message);
    exit(1);
}

int main(int argc, char **argv) {
    uint32_t ranks = argc > 1 ? (uint32_t)atol(argv[1]) : 1000;
    uint32_t regions = argc > 2 ? (uint32_t)atol(argv[2]) : 200;
    uint64_t calls = argc > 3 ? (uint64_t)atoll(argv[3]) : 50;
    char path[4096];
    const char *dir = getenv("TMPDIR");
    const char *keep = argc > 4 ? argv[4] : NULL;
    if (keep)
        snprintf(path, sizeof path, "%s", keep);
    else
        snprintf(path, sizeof path, "%s/bench_big_read_%ld.h5", dir && *dir ? dir : "/tmp",
                 (long)getpid());
    double t0 = bench_now_s();
    bench_write_big_profile(path, ranks, regions, calls);
    printf("== %u ranks x %u regions x %llu calls = %llu calls (written in %.2f s)\n", ranks,
           regions, (unsigned long long)calls,
           (unsigned long long)((uint64_t)ranks * regions * calls), bench_now_s() - t0);
    struct stat sb;
    uint64_t total_calls = (uint64_t)ranks * regions * calls;
    if (stat(path, &sb) == 0)
        printf("file: %.1f MiB, %.1f bytes per call (issue 29 target: under 30)\n",
               (double)sb.st_size / (1024.0 * 1024.0),
               total_calls ? (double)sb.st_size / (double)total_calls : 0.0);

    sp_error err = {0};
    t0 = bench_now_s();
    double c0 = cpu_s();
    sp_results *r = sp_read(path, &err);
    if (!r) fail("read", &err);
    double t_open = bench_now_s() - t0;
    t0 = bench_now_s();
    sp_summary_rows *rows = sp_results_summary(r, NULL, 0, &err);
    if (!rows) fail("summary", &err);
    double t_summary = bench_now_s() - t0;
    printf("all ranks:  open %.3f s, summary %.3f s, total %.3f s wall, %.3f s CPU (%zu rows)\n",
           t_open, t_summary, t_open + t_summary, cpu_s() - c0, rows->count);
    sp_summary_rows_free(rows);
    sp_results_free(r);

    uint32_t selected[10];
    for (uint32_t i = 0; i < 10; i++)
        selected[i] = i;
    sp_filter filter = {0};
    filter.ranks = selected;
    filter.num_ranks = 10;
    for (int selective = 0; selective < 2; selective++) {
        t0 = bench_now_s();
        c0 = cpu_s();
        r = selective ? sp_read_ranks(path, selected, 10, &err) : sp_read(path, &err);
        if (!r) fail("read", &err);
        double t_read = bench_now_s() - t0;
        rows = sp_results_summary(r, &filter, 0, &err);
        if (!rows) fail("summary", &err);
        uint64_t loaded = sp_results_model(r)->num_events_loaded;
        printf("ranks 0-9 (%s): open %.3f s + summary %.3f s wall, %.3f s CPU; %llu events "
               "read (%.1f MiB of event columns)\n",
               selective ? "reading those ranks only" : "whole file read", t_read,
               bench_now_s() - t0 - t_read, cpu_s() - c0, (unsigned long long)loaded,
               (double)loaded * 16.0 / (1024.0 * 1024.0));
        sp_summary_rows_free(rows);
        sp_results_free(r);
    }
    if (!keep) unlink(path);
    return 0;
}
