/*
 * bench_record: the recording side's costs, with ratios measured in the same
 * run (these machines are noisy). Prints:
 *   - a handle sp_begin+sp_end pair against the two bare timestamp reads it
 *     needs (TSC and CLOCK_MONOTONIC modes);
 *   - by-name pairs against handle pairs;
 *   - disabled pairs against an empty loop;
 *   - memory per recorded call (resident set growth);
 *   - finalize time for N calls (default 10 million), compressed and not.
 * Usage: bench_record [calls]   (SCOPE_PROFILER_* variables are ignored)
 */
#include <scope_profiler.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int64_t mono_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
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

static const char *tmp_profile(void) {
    static char path[4096];
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/bench_record_%ld.h5", dir && *dir ? dir : "/tmp",
             (long)getpid());
    return path;
}

static void start(const char *clock, int disable, sp_compression compression) {
    setenv("SCOPE_PROFILER_CLOCK", clock, 1);
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = tmp_profile();
    opt.disable = disable;
    opt.compression = compression;
    if (sp_setup(&opt) != SP_OK) {
        fprintf(stderr, "bench_record: sp_setup failed\n");
        exit(1);
    }
}

static double finish(void) {
    sp_finalize_options quiet = {.quiet = 1};
    double t0 = now_s();
    sp_status st = sp_finalize(&quiet);
    double t = now_s() - t0;
    if (st != SP_OK && st != SP_ERR_NOT_ACTIVE) {
        fprintf(stderr, "bench_record: sp_finalize: %s\n", sp_status_string(st));
        exit(1);
    }
    unlink(tmp_profile());
    return t;
}

static volatile uint64_t sink;

/* ns per iteration of two bare reads of the counter (what a pair cannot avoid). */
static double bare_reads_ns(int tsc, long n) {
    uint64_t acc = 0;
    double t0 = now_s();
    for (long i = 0; i < n; i++) {
#if defined(__x86_64__)
        if (tsc) {
            uint64_t a = __rdtsc();
            uint64_t b = __rdtsc();
            acc += b - a;
            continue;
        }
#endif
        int64_t a = mono_ns();
        int64_t b = mono_ns();
        acc += (uint64_t)(b - a);
    }
    sink += acc;
    return (now_s() - t0) * 1e9 / (double)n;
}

typedef enum { BY_HANDLE, BY_HANDLE_RESERVED, BY_NAME, BY_NAME_RUNTIME, DISABLED, EMPTY } pair_kind;

/* A name the compiler cannot see: the by-name functions' per-thread cache. */
static char runtime_name[16] = "bench";

/* ns per sp_begin+sp_end pair over one session of n pairs. */
static double pair_ns(pair_kind kind, const char *clock, long n) {
    if (kind != EMPTY) start(clock, kind == DISABLED, SP_COMPRESSION_AUTO);
    sp_region_t h = sp_region("bench");
    if (kind == BY_HANDLE_RESERVED) sp_reserve(h, (uint64_t)n);
    double t0 = now_s();
    switch (kind) {
    case BY_HANDLE:
    case BY_HANDLE_RESERVED:
    case DISABLED:
        for (long i = 0; i < n; i++) {
            sp_begin(h);
            sp_end(h);
        }
        break;
    case BY_NAME:
        for (long i = 0; i < n; i++) {
            sp_begin_name("bench");
            sp_end_name("bench");
        }
        break;
    case BY_NAME_RUNTIME:
        for (long i = 0; i < n; i++) {
            sp_begin_name(runtime_name);
            sp_end_name(runtime_name);
        }
        break;
    case EMPTY:
        for (long i = 0; i < n; i++)
            __asm__ volatile("" ::: "memory");
        break;
    }
    double t = (now_s() - t0) * 1e9 / (double)n;
    if (kind != EMPTY) finish();
    return t;
}

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, compare_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#define ROUNDS 11

/* Interleaved rounds: every ratio compares figures taken moments apart. */
static void overhead(long n) {
    printf("== hot path: medians of %d interleaved rounds of %ld pairs\n", ROUNDS, n);
    for (int tsc = 1; tsc >= 0; tsc--) {
        const char *clock = tsc ? "tsc" : "monotonic";
        double bare[ROUNDS], warm[ROUNDS], cold[ROUNDS], name[ROUNDS], runtime[ROUNDS];
        double warm_ratio[ROUNDS], cold_ratio[ROUNDS], name_ratio[ROUNDS], runtime_ratio[ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            bare[r] = bare_reads_ns(tsc, n);
            warm[r] = pair_ns(BY_HANDLE_RESERVED, clock, n);
            cold[r] = pair_ns(BY_HANDLE, clock, n);
            name[r] = pair_ns(BY_NAME, clock, n);
            runtime[r] = pair_ns(BY_NAME_RUNTIME, clock, n);
            runtime_ratio[r] = runtime[r] / cold[r];
            warm_ratio[r] = warm[r] / bare[r];
            cold_ratio[r] = cold[r] / bare[r];
            name_ratio[r] = name[r] / cold[r];
        }
        printf("clock %s:\n", clock);
        printf("  two bare reads                      %6.2f ns\n", median(bare, ROUNDS));
        printf("  handle pair, reserved buffers       %6.2f ns  = %.2fx the reads\n",
               median(warm, ROUNDS), median(warm_ratio, ROUNDS));
        printf("  handle pair, growing buffers        %6.2f ns  = %.2fx the reads "
               "(includes first touch of 16 new bytes)\n",
               median(cold, ROUNDS), median(cold_ratio, ROUNDS));
        printf("  by-name pair (literal), growing     %6.2f ns  = %.2fx the handle pair\n",
               median(name, ROUNDS), median(name_ratio, ROUNDS));
        printf("  by-name pair (runtime string)       %6.2f ns  = %.2fx the handle pair\n",
               median(runtime, ROUNDS), median(runtime_ratio, ROUNDS));
    }
    double disabled[ROUNDS], empty[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        disabled[r] = pair_ns(DISABLED, "tsc", n);
        empty[r] = pair_ns(EMPTY, "tsc", n);
    }
    double d = median(disabled, ROUNDS), e = median(empty, ROUNDS);
    printf("disabled pair %.2f ns per iteration; empty loop %.2f ns; difference %.2f ns\n", d, e,
           d - e);
}

static void memory_and_finalize(long n) {
    printf("== memory and finalize (%ld calls in one region)\n", n);
    for (int compressed = 1; compressed >= 0; compressed--) {
        start("tsc", 0, compressed ? SP_COMPRESSION_AUTO : SP_COMPRESSION_NONE);
        sp_region_t h = sp_region("bench");
        long before = resident_bytes();
        for (long i = 0; i < n; i++) {
            sp_begin(h);
            sp_end(h);
        }
        long after = resident_bytes();
        double t = finish();
        if (compressed)
            printf("memory per recorded call %.2f bytes (resident growth %.1f MiB)\n",
                   (double)(after - before) / (double)n, (double)(after - before) / 1048576.0);
        printf("finalize (%s) %.3f s for %ld calls (%.1f ns per call)\n",
               compressed ? "gzip 4 + shuffle, auto" : "uncompressed", t, n, t * 1e9 / (double)n);
    }
}

int main(int argc, char **argv) {
    long calls = argc > 1 ? atol(argv[1]) : 10000000;
    if (calls <= 0) {
        fprintf(stderr, "usage: bench_record [calls]\n");
        return 2;
    }
    static const char *const vars[] = {"SCOPE_PROFILER_OUTPUT", "SCOPE_PROFILER_DISABLE",
                                       "SCOPE_PROFILER_COMPRESSION", "SCOPE_PROFILER_QUIET"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
        unsetenv(vars[i]);
    memory_and_finalize(calls); /* first, while the process has no freed memory to reuse */
    overhead(calls / 5 > 0 ? calls / 5 : calls);
    return 0;
}
