/*
 * demo: profiles a small workload the way the tutorial does (a setup phase,
 * then five time steps that assemble and solve), writes profiling_data.h5
 * and says where it is.
 */
#include <limits.h>
#include <scope_profiler.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Keeps the CPU busy for about `seconds` (sleeping would also do; this is visible in perf). */
static double spin(double seconds) {
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    double x = 0.0;
    do {
        for (int i = 0; i < 1000; i++)
            x += 1e-9 * i;
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while ((double)(t.tv_sec - t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - t0.tv_nsec) < seconds);
    return x;
}

static double assemble(int scale) {
    SP_PROFILE("assemble");
    return spin(0.004 * scale);
}

int main(int argc, char **argv) {
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = argc > 1 ? argv[1] : "profiling_data.h5";
    opt.label = "demo";
    if (sp_setup(&opt) != SP_OK) {
        fprintf(stderr, "demo: sp_setup failed\n");
        return 1;
    }
    double sink = 0.0;
    SP_REGION("setup") {
        sink += spin(0.02);
    }
    for (int step = 0; step < 5; step++) {
        SP_REGION("timestep") {
            sink += assemble(1 + step % 3);
            SP_REGION("solve") {
                sink += spin(0.003);
            }
        }
    }
    sp_status st = sp_finalize(NULL);
    if (st != SP_OK) {
        fprintf(stderr, "demo: sp_finalize: %s\n", sp_status_string(st));
        return 1;
    }
    char where[PATH_MAX];
    const char *path = sp_output_path();
    const char *written = realpath(path, where) ? where : path;
    printf("demo: wrote %s\n", written);
#ifdef SP_DEMO_CLI_DIR
    /* The hints above name `scope-profiler`; say where this build put it. */
    printf("demo: the scope-profiler tool is in %s; to use the hints above as printed:\n"
           "  export PATH=\"%s:$PATH\"\n"
           "demo: or run it by its path:\n"
           "  %s/scope-profiler inspect %s\n",
           SP_DEMO_CLI_DIR, SP_DEMO_CLI_DIR, SP_DEMO_CLI_DIR, written);
#endif
    return sink < 0.0; /* keeps the work from being optimised away */
}
