/*
 * bench_events: writes a profile of N calls (default 10 million), then times
 * `scope-profiler events FILE` into a file (CSV, then JSON), and the parts:
 * iterating the calls, and formatting their three floats with the shortest
 * round-trip repr(). Prints seconds and nanoseconds per call.
 *   build/bench/bench_events [calls]
 */
#include <scope_profiler.h>
#include <scope_profiler/results.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_profile.h"
#include "bench_support.h"
#include "common/py_float.h"

static void write_profile(const char *path, long calls) {
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    sp_setup(&opt);
    sp_region_t step = sp_region("timestep"), solve = sp_region("solve");
    for (long i = 0; i < calls / 2; i++) {
        sp_begin(step);
        sp_begin(solve);
        sp_end(solve);
        sp_end(step);
    }
    sp_finalize_options quiet = {.quiet = 1};
    sp_finalize(&quiet);
}

/* CPU seconds (user + system) of this process or of its finished children:
 * on a shared machine these, not the wall clock, say what the work costs. */
static double cpu_s(int who) {
    struct rusage u;
    getrusage(who, &u);
    return (double)u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + (double)u.ru_stime.tv_sec +
           u.ru_stime.tv_usec / 1e6;
}

static void time_parts(const char *path, long calls) {
    sp_error err;
    sp_results *r = bench_read_or_die("bench_events", path);
    sp_event_iter *it = sp_events_open(r, NULL, &err);
    sp_event e;
    double sum = 0, t0 = cpu_s(RUSAGE_SELF);
    while (sp_events_next(it, &e))
        sum += e.start;
    double t1 = cpu_s(RUSAGE_SELF);
    sp_events_close(it);
    it = sp_events_open(r, NULL, &err);
    char text[SP_PY_FLOAT_REPR_SIZE];
    size_t chars = 0;
    double t2 = cpu_s(RUSAGE_SELF);
    while (sp_events_next(it, &e))
        chars += sp_py_float_repr(e.start, text) + sp_py_float_repr(e.end, text) +
                 sp_py_float_repr(e.duration, text);
    double t3 = cpu_s(RUSAGE_SELF);
    sp_events_close(it);
    sp_results_free(r);
    printf("iterate %ld calls: %.3f s CPU (%.1f ns/call)%s\n", calls, t1 - t0,
           (t1 - t0) / calls * 1e9, sum < 0 ? "" : "");
    printf("repr() of start, end, duration: %.3f s CPU (%.1f ns per float, %zu chars)\n", t3 - t2,
           (t3 - t2) / (3.0 * calls) * 1e9, chars);
}

static void time_cli(const char *path, const char *out, long calls, const char *format) {
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s events %s --format %s > %s", SP_BENCH_CLI, path, format, out);
    double c0 = cpu_s(RUSAGE_CHILDREN), t0 = bench_now_s();
    int rc = system(cmd);
    double t1 = bench_now_s(), c1 = cpu_s(RUSAGE_CHILDREN);
    struct stat st;
    long long bytes = stat(out, &st) == 0 ? (long long)st.st_size : -1;
    printf("scope-profiler events --format %s: %.2f s wall, %.2f s CPU (%.0f ns/call), %.0f MB, "
           "exit %d\n",
           format, t1 - t0, c1 - c0, (c1 - c0) / calls * 1e9, bytes / 1e6, rc);
    unlink(out);
}

int main(int argc, char **argv) {
    long calls = argc > 1 ? atol(argv[1]) : 10000000;
    char path[4096], out[4200];
    bench_temp_path(path, sizeof path, "bench_events");
    snprintf(out, sizeof out, "%s.out", path);
    write_profile(path, calls);
    time_parts(path, calls);
    time_cli(path, out, calls, "csv");
    time_cli(path, out, calls, "json");
    unlink(path);
    return 0;
}
