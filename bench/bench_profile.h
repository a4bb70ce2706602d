/* The benchmarks' reference workload, written as a profile file. */
#ifndef SP_BENCH_PROFILE_H
#define SP_BENCH_PROFILE_H

#include <scope_profiler.h>

/* timestep > (assemble, solve > (io)): 4 regions nesting three deep, `calls` calls in all. */
static inline void bench_write_nested_profile(const char *path, long calls) {
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    sp_setup(&opt);
    sp_region_t step = sp_region("timestep"), assemble = sp_region("assemble"),
                solve = sp_region("solve"), io = sp_region("io");
    for (long i = 0; i < calls / 4; i++) {
        sp_begin(step);
        sp_begin(assemble);
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

#endif
