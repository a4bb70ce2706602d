/* Writes a big run for the report's browser test: CALLS calls of 341
 * regions in about 7,000 call paths (11 phases, each calling 30 of the
 * regions, each of those 20 more), three calls per stack.
 *   make_big_run FILE CALLS */
#include <scope_profiler.h>
#include <stdio.h>
#include <stdlib.h>

#define NUM_REGIONS 341
#define NUM_PHASES  11

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: make_big_run FILE CALLS\n");
        return 2;
    }
    long calls = atol(argv[2]);
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = argv[1];
    if (sp_setup(&opt) != SP_OK) return 1;
    sp_region_t regions[NUM_REGIONS];
    for (int i = 0; i < NUM_REGIONS; i++) {
        char name[64];
        if (i < NUM_PHASES)
            snprintf(name, sizeof name, "phase_%02d", i);
        else
            snprintf(name, sizeof name, "kernel_%03d", i);
        regions[i] = sp_region(name);
    }
    unsigned long seed = 12345;
    for (long n = 0; n < calls; n += 3) {
        seed = seed * 6364136223846793005ul + 1442695040888963407ul;
        unsigned a = (unsigned)(n / 3 % NUM_PHASES), b = (unsigned)(seed >> 33) % 30,
                 c = (unsigned)(seed >> 45) % 20;
        sp_begin(regions[a]);
        sp_begin(regions[NUM_PHASES + (a * 30 + b) % (NUM_REGIONS - NUM_PHASES)]);
        sp_begin(regions[NUM_PHASES + (a * 7 + b * 11 + c * 13) % (NUM_REGIONS - NUM_PHASES)]);
        sp_end(regions[NUM_PHASES + (a * 7 + b * 11 + c * 13) % (NUM_REGIONS - NUM_PHASES)]);
        sp_end(regions[NUM_PHASES + (a * 30 + b) % (NUM_REGIONS - NUM_PHASES)]);
        sp_end(regions[a]);
    }
    sp_finalize_options quiet = {.quiet = 1};
    return sp_finalize(&quiet) == SP_OK ? 0 : 1;
}
