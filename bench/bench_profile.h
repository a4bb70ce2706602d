/* The benchmarks' reference workload, written as a profile file. */
#ifndef SP_BENCH_PROFILE_H
#define SP_BENCH_PROFILE_H

#include <scope_profiler.h>
#include <scope_profiler/results.h>
#include <stdio.h>
#include <stdlib.h>

/* timestep > (assemble, solve > (io)): 4 regions nesting three deep, `calls`
 * calls in all; work(work_arg), when given, runs inside each assemble. */
static inline void bench_write_nested_profile_with(const char *path, long calls, void (*work)(int),
                                                   int work_arg) {
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    sp_setup(&opt);
    sp_region_t step = sp_region("timestep"), assemble = sp_region("assemble"),
                solve = sp_region("solve"), io = sp_region("io");
    for (long i = 0; i < calls / 4; i++) {
        sp_begin(step);
        sp_begin(assemble);
        if (work) work(work_arg);
        sp_end(assemble);
        sp_begin(solve);
        sp_begin(io);
        sp_end(io);
        sp_end(solve);
        sp_end(step);
    }
    sp_finalize_options quiet = {.quiet = 1};
    sp_finalize(&quiet);
}

static inline void bench_write_nested_profile(const char *path, long calls) {
    bench_write_nested_profile_with(path, calls, NULL, 0);
}

/* Reads a profile, or says why not (prefixed with the benchmark's name) and exits. */
static inline sp_results *bench_read_or_die(const char *bench, const char *path) {
    sp_error err;
    sp_results *r = sp_read(path, &err);
    if (!r) {
        fprintf(stderr, "%s: %s\n", bench, err.message);
        exit(1);
    }
    return r;
}

#endif
