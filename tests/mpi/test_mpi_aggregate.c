/*
 * Aggregate mode under MPI (issue 17 item 2): every rank runs a known
 * workload on a test clock (durations exact, integers only), rank 0 writes
 * one aggregate file; check_mpi_aggregate.py recomputes every rank's
 * durations and checks the file's per-rank counts, totals, minimums and
 * maximums and that its histograms, per rank and merged over ranks, equal
 * the histograms of those durations and of their union.
 * Usage: mpirun -np N test_mpi_aggregate OUT.h5
 */
#include <mpi.h>
#include <scope_profiler.h>
#include <scope_profiler_mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/companion.h"

static uint64_t fake_now = 1000000;
static uint64_t fake_ticks(void) {
    return fake_now;
}

/* The same generator as check_mpi_aggregate.py: 100 ns to about 1 ms, skewed. */
static uint64_t next_duration(uint64_t *state) {
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t x = (*state >> 33) % 1000;
    return 100 + x * x;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const sp_companion *core = sp_companion_interface(SP_COMPANION_VERSION);
    if (!core || argc < 2) {
        fprintf(stderr, "test_mpi_aggregate: no core table or no path\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    core->clock_test_source(fake_ticks);
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = argv[1];
    opt.aggregate = 1;
    opt.clock = SP_CLOCK_MONOTONIC;
    if (sp_mpi_setup(&opt, MPI_COMM_WORLD) != SP_OK) MPI_Abort(MPI_COMM_WORLD, 3);
    sp_region_t step = sp_region("step"), solve = sp_region("solve"), io = sp_region("io");
    /* rank 1 registers io first: the ranks' region ids differ */
    if (rank == 1) sp_region("io");
    uint64_t state = 1000 + (uint64_t)rank;
    int steps = 2000 + 500 * rank;
    for (int i = 0; i < steps; i++) {
        sp_begin(step);
        fake_now += 5;
        sp_begin(solve);
        fake_now += next_duration(&state);
        sp_end(solve);
        if (i % 3 == 0) {
            sp_begin(io);
            fake_now += next_duration(&state) / 4;
            sp_end(io);
        }
        fake_now += 5;
        sp_end(step);
    }
    sp_finalize_options quiet = {.quiet = 1};
    sp_status st = sp_finalize(&quiet);
    core->clock_test_source(NULL);
    MPI_Finalize();
    if (st != SP_OK) {
        fprintf(stderr, "rank %d: sp_finalize: %s\n", rank, sp_status_string(st));
        return 1;
    }
    return 0;
}
