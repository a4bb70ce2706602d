/*
 * bench_aggregate: aggregate mode against per-call recording, in one process
 * (ratios measured in the same run; CPU time, so that a loaded machine's
 * waits do not count). Prints:
 *   - the sp_begin+sp_end pair in both modes at 1 M pairs, and their ratio,
 *     for a lone region and for three siblings inside a parent;
 *   - aggregate mode at 100 M pairs (per-call mode is not run at 100 M: its
 *     memory there is the 1 M figure scaled, 16 B per call, said so);
 *   - memory: per-call resident growth for 1 M calls; aggregate state bytes
 *     and resident growth after 1 M and after 100 M calls.
 * Usage: bench_aggregate [rounds]   (SCOPE_PROFILER_* variables are ignored)
 */
#include <scope_profiler.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "bench_support.h"
#include "record/aggregate.h"

static double cpu_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static long resident_bytes(void) {
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
        fclose(f);
    }
    return resident * sysconf(_SC_PAGESIZE);
}

static void start(int aggregate, const char *path) {
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    opt.aggregate = aggregate;
    opt.journal = SP_JOURNAL_OFF;
    if (sp_setup(&opt) != SP_OK) {
        fprintf(stderr, "bench_aggregate: sp_setup failed\n");
        exit(1);
    }
}

static void finish(void) {
    sp_finalize_options quiet = {.quiet = 1};
    if (sp_finalize(&quiet) != SP_OK) {
        fprintf(stderr, "bench_aggregate: sp_finalize failed\n");
        exit(1);
    }
}

/* ns per pair of n lone pairs. */
static double lone_pairs(sp_region_t h, uint64_t n) {
    double t0 = cpu_s();
    for (uint64_t i = 0; i < n; i++) {
        sp_begin(h);
        sp_end(h);
    }
    return (cpu_s() - t0) * 1e9 / (double)n;
}

/* ns per pair: parent { a; b; c } n/4 times (n pairs). */
static double sibling_pairs(sp_region_t p, sp_region_t a, sp_region_t b, sp_region_t c,
                            uint64_t n) {
    double t0 = cpu_s();
    for (uint64_t i = 0; i < n / 4; i++) {
        sp_begin(p);
        sp_begin(a);
        sp_end(a);
        sp_begin(b);
        sp_end(b);
        sp_begin(c);
        sp_end(c);
        sp_end(p);
    }
    return (cpu_s() - t0) * 1e9 / (double)(n / 4 * 4);
}

typedef struct figures {
    double lone, siblings;
    long rss_growth;
} figures;

static figures run(int aggregate, uint64_t n, const char *path) {
    start(aggregate, path);
    sp_region_t h = sp_region("lone"), p = sp_region("parent"), a = sp_region("a"),
                b = sp_region("b"), c = sp_region("c");
    lone_pairs(h, 1000); /* first calls: attach, first chunks or nodes */
    sibling_pairs(p, a, b, c, 1000);
    long rss = resident_bytes();
    figures f;
    f.lone = lone_pairs(h, n);
    f.siblings = sibling_pairs(p, a, b, c, n);
    f.rss_growth = resident_bytes() - rss;
    finish();
    return f;
}

static double min2(double x, double y) {
    return x < y ? x : y;
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 3;
    if (rounds < 1) rounds = 1;
    static const char *const vars[] = {"SCOPE_PROFILER_AGGREGATE", "SCOPE_PROFILER_DISABLE",
                                       "SCOPE_PROFILER_OUTPUT",    "SCOPE_PROFILER_JOURNAL",
                                       "SCOPE_PROFILER_CLOCK",     "SCOPE_PROFILER_MEMORY_LIMIT"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
        unsetenv(vars[i]);
    char path[4096];
    bench_temp_path(path, sizeof path, "bench_aggregate");
    const uint64_t million = 1000000;
    figures per_call = {1e9, 1e9, 0}, agg = {1e9, 1e9, 0};
    for (int r = 0; r < rounds; r++) { /* interleaved, best of each */
        figures x = run(0, million, path);
        figures y = run(1, million, path);
        per_call.lone = min2(per_call.lone, x.lone);
        per_call.siblings = min2(per_call.siblings, x.siblings);
        per_call.rss_growth = x.rss_growth;
        agg.lone = min2(agg.lone, y.lone);
        agg.siblings = min2(agg.siblings, y.siblings);
        agg.rss_growth = y.rss_growth;
    }
    printf("pair cost, 1 M pairs, best of %d interleaved rounds (CPU time):\n", rounds);
    printf("  lone region:        per-call %6.2f ns   aggregate %6.2f ns   ratio %.2fx\n",
           per_call.lone, agg.lone, agg.lone / per_call.lone);
    printf("  3 siblings in a parent: per-call %6.2f ns   aggregate %6.2f ns   ratio %.2fx\n",
           per_call.siblings, agg.siblings, agg.siblings / per_call.siblings);
    printf("memory for 2 M calls (1 M lone + 1 M in the sibling loop):\n");
    printf("  per-call resident growth %ld KiB (%.1f B/call)\n", per_call.rss_growth / 1024,
           (double)per_call.rss_growth / 2e6);
    printf("  aggregate resident growth %ld KiB\n", agg.rss_growth / 1024);

    /* 100 M calls, aggregate only. */
    start(1, path);
    sp_region_t h = sp_region("lone"), p = sp_region("parent"), a = sp_region("a"),
                b = sp_region("b"), c = sp_region("c");
    lone_pairs(h, million);
    sibling_pairs(p, a, b, c, million);
    uint64_t bytes_1m = sp_internal_agg_bytes();
    long rss_1m = resident_bytes();
    double lone = lone_pairs(h, 50 * million);
    double siblings = sibling_pairs(p, a, b, c, 50 * million);
    uint64_t bytes_100m = sp_internal_agg_bytes();
    long rss_100m = resident_bytes();
    finish();
    printf("aggregate mode at 100 M calls (50 M lone + 50 M in the sibling loop):\n");
    printf("  pair cost: lone %.2f ns, siblings %.2f ns\n", lone, siblings);
    printf("  aggregate state: %llu B after 2 M calls, %llu B after 102 M calls\n",
           (unsigned long long)bytes_1m, (unsigned long long)bytes_100m);
    printf("  resident growth from 2 M to 102 M calls: %ld KiB\n", (rss_100m - rss_1m) / 1024);
    printf("  per-call mode would hold about %.0f MiB for 100 M calls (16 B per call, scaled "
           "from the 1 M run, not measured)\n",
           100e6 * 16 / 1048576.0);
    unlink(path);
    return 0;
}
