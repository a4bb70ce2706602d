/*
 * One call of an empty function, in three builds of this source:
 * bench_run_functions_plain (the call alone), _annotated (an sp_begin/sp_end
 * pair in the function's body) and _instrumented (built with -finstrument-functions, run
 * under the preload library with SCOPE_PROFILER_FUNCTIONS=1). Prints ns per
 * call of the measured loop; bench_run_functions (bench_run_functions_cost.c)
 * runs all three, in wall time and under callgrind (--toggle-collect=measure:
 * only the measured loop is counted), and subtracts the plain loop.
 *   usage: bench_run_functions_X [CALLS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifdef SP_BENCH_ANNOTATED
#include <scope_profiler.h>

#include "bench_support.h"
#endif

#define NOT_HOOKED __attribute__((noinline, no_instrument_function))

__attribute__((noinline)) int leaf(int x);
NOT_HOOKED int loop(long calls, int acc);
NOT_HOOKED int warm_up(long calls, int acc);
NOT_HOOKED int measure(long calls, int acc);

#ifdef SP_BENCH_ANNOTATED
static sp_region_t region;
#endif

/* Annotated as a user annotates a function: the pair in its body, on a handle.
 * bench_instructions times the same pair back to back in a loop, where the
 * compiler keeps the thread-local offset and the handle in registers across
 * iterations and the pair needs no stack frame; a function annotated once
 * pays those on every call, and that is what the hooks stand in for. */
__attribute__((noinline)) int leaf(int x) {
#ifdef SP_BENCH_ANNOTATED
    sp_begin(region);
#endif
    __asm__ volatile("" ::: "memory");
#ifdef SP_BENCH_ANNOTATED
    sp_end(region);
#endif
    return x + 1;
}

NOT_HOOKED int loop(long calls, int acc) {
    for (long i = 0; i < calls; i++)
        acc = leaf(acc);
    return acc;
}

/* the first calls (the thread's attach, the function's name) outside the measured loop */
NOT_HOOKED int warm_up(long calls, int acc) {
    return loop(calls, acc);
}

NOT_HOOKED int measure(long calls, int acc) {
    return loop(calls, acc);
}

NOT_HOOKED static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

NOT_HOOKED int main(int argc, char **argv) {
    long calls = argc > 1 ? atol(argv[1]) : 2000000;
#ifdef SP_BENCH_ANNOTATED
    char path[4096];
    bench_temp_path(path, sizeof path, "bench_run_annotated");
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    opt.compression = SP_COMPRESSION_NONE;
    if (sp_setup(&opt) != SP_OK) return 1;
    region = sp_region("leaf");
#endif
    int acc = warm_up(1000, 0);
    double t0 = now_s();
    acc = measure(calls, acc);
    double t = now_s() - t0;
    printf("%.2f ns per call (%ld calls, acc %d)\n", t / (double)calls * 1e9, calls, acc);
#ifdef SP_BENCH_ANNOTATED
    sp_finalize_options fo = SP_FINALIZE_OPTIONS_INIT;
    fo.quiet = 1;
    sp_finalize(&fo);
    remove(path);
#endif
    return 0;
}
