/*
 * bench_mpi_finalize: collective finalize of P ranks x N calls each
 * (default 1 million), run under mpirun. Rank 0 prints the finalize time
 * and its peak resident memory during finalize above what it held before
 * (its own calls included in the "before").
 *   mpirun -np 4 build/bench/bench_mpi_finalize [calls_per_rank]
 */
#include <mpi.h>
#include <scope_profiler_mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_support.h"

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long calls = argc > 1 ? atol(argv[1]) : 1000000;
    char path[4096];
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/bench_mpi_%d.h5", dir && *dir ? dir : "/tmp", (int)getppid());
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    sp_mpi_setup(&opt, MPI_COMM_WORLD);
    sp_region_t regions[4] = {sp_region("a"), sp_region("b"), sp_region("c"), sp_region("d")};
    for (long i = 0; i < calls; i++) {
        sp_begin(regions[i % 4]);
        sp_end(regions[i % 4]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    long before = bench_status_kib("VmRSS:");
    bench_reset_peak();
    sp_finalize_options quiet = {.quiet = 1};
    double t0 = bench_now_s();
    sp_status st = sp_finalize(&quiet);
    double t = bench_now_s() - t0;
    long peak = bench_status_kib("VmHWM:");
    if (rank == 0) {
        printf("finalize of %d ranks x %ld calls: %.3f s (status %s)\n", size, calls, t,
               sp_status_string(st));
        printf("rank 0 peak resident memory during finalize: %.1f MiB above the %.1f MiB it "
               "held before\n",
               (peak - before) / 1024.0, before / 1024.0);
        unlink(path);
    }
    MPI_Finalize();
    return st == SP_OK ? 0 : 1;
}
