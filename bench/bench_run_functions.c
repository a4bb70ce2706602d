/*
 * Cost of one -finstrument-functions call under scope-profiler run
 * --functions against one annotated sp_begin/sp_end pair (issue 24: at most
 * 1.5x). One source, three builds: bench_run_functions_plain (neither),
 * _annotated (sp_begin/sp_end around the call) and _instrumented (built with
 * -finstrument-functions, run under the preload library). Prints ns per call
 * of the loop; bench_run_functions.sh subtracts the plain loop.
 *   usage: bench_run_functions_X [CALLS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifdef SP_BENCH_ANNOTATED
#include <scope_profiler.h>
#endif

__attribute__((noinline)) int leaf(int x) {
    __asm__ volatile("" ::: "memory");
    return x + 1;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

__attribute__((no_instrument_function)) int main(int argc, char **argv) {
    long calls = argc > 1 ? atol(argv[1]) : 2000000;
#ifdef SP_BENCH_ANNOTATED
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = "bench_run_annotated.h5";
    sp_setup(&opt);
    sp_region_t r = sp_region("leaf");
#endif
    int acc = 0;
    double t0 = now_s();
    for (long i = 0; i < calls; i++) {
#ifdef SP_BENCH_ANNOTATED
        sp_begin(r);
        acc = leaf(acc);
        sp_end(r);
#else
        acc = leaf(acc);
#endif
    }
    double t = now_s() - t0;
    printf("%.2f ns per call (%ld calls, acc %d)\n", t / (double)calls * 1e9, calls, acc);
#ifdef SP_BENCH_ANNOTATED
    sp_finalize_options fo = SP_FINALIZE_OPTIONS_INIT;
    fo.quiet = 1;
    sp_finalize(&fo);
#endif
    return 0;
}
