/*
 * The program that `scope-profiler calibrate` runs in its tests and for the
 * figures of docs/compare.md: 200 calls of the region "step", each a fixed
 * amount of arithmetic (no clock in the loop, so a slower machine shows as a
 * longer call), made longer by the fraction in SP_CALIBRATE_SLOWDOWN (0.05:
 * +5 %), the known regression the calibration must catch.
 *   calibrate_target [ITERATIONS_PER_CALL]
 */
#include <scope_profiler.h>
#include <stdio.h>
#include <stdlib.h>

#define CALLS 200

static volatile double sink;

static void work(long iterations) {
    double x = 1.0;
    for (long i = 0; i < iterations; i++)
        x = x * 1.0000001 + 1e-9;
    sink += x;
}

int main(int argc, char **argv) {
    long iterations = argc > 1 ? strtol(argv[1], NULL, 10) : 40000;
    const char *s = getenv("SP_CALIBRATE_SLOWDOWN");
    double slowdown = s ? strtod(s, NULL) : 0.0;
    if (iterations <= 0 || !(slowdown > -1.0)) {
        fprintf(stderr, "calibrate_target: bad iteration count or SP_CALIBRATE_SLOWDOWN\n");
        return 2;
    }
    long per_call = (long)((double)iterations * (1.0 + slowdown) + 0.5);
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = "calibrate_target.h5";
    opt.label = "calibrate";
    if (sp_setup(&opt) != SP_OK) return 1;
    for (int k = 0; k < CALLS; k++) {
        SP_REGION("step") {
            work(per_call);
        }
    }
    return sp_finalize(NULL) == SP_OK ? 0 : 1;
}
