/*
 * bench_pmpi: the cost of the PMPI wrappers (docs/parallel.md §5). Two cheap
 * workloads on one rank, each timed as PMPI_* directly (unwrapped), through
 * the wrappers while off, and while on (recording a region per call):
 *   barrier   MPI_Barrier(MPI_COMM_SELF)
 *   self      zero-byte MPI_Irecv + MPI_Isend to self, MPI_Wait on both
 *             (4 wrapped calls per round)
 * Prints ns per wrapped call (the best of 7 repetitions: this machine is
 * shared) and the overhead over the unwrapped call.
 *   build/bench/bench_pmpi [rounds]        (or under mpirun -np 1)
 */
#include <mpi.h>
#include <scope_profiler_mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench_support.h"

enum { REPEATS = 7 };
typedef enum { UNWRAPPED, WRAPPED } route;

static void barrier_round(route how) {
    if (how == UNWRAPPED)
        PMPI_Barrier(MPI_COMM_SELF);
    else
        MPI_Barrier(MPI_COMM_SELF);
}

static void self_round(route how) {
    MPI_Request r[2];
    char byte = 0, in = 0;
    if (how == UNWRAPPED) {
        PMPI_Irecv(&in, 0, MPI_CHAR, 0, 1, MPI_COMM_SELF, &r[0]);
        PMPI_Isend(&byte, 0, MPI_CHAR, 0, 1, MPI_COMM_SELF, &r[1]);
        PMPI_Wait(&r[0], MPI_STATUS_IGNORE);
        PMPI_Wait(&r[1], MPI_STATUS_IGNORE);
    } else {
        MPI_Irecv(&in, 0, MPI_CHAR, 0, 1, MPI_COMM_SELF, &r[0]);
        MPI_Isend(&byte, 0, MPI_CHAR, 0, 1, MPI_COMM_SELF, &r[1]);
        MPI_Wait(&r[0], MPI_STATUS_IGNORE);
        MPI_Wait(&r[1], MPI_STATUS_IGNORE);
    }
}

/* Best ns per call over REPEATS runs of `rounds` rounds of `calls` calls. */
static double time_calls(void (*round)(route), route how, long rounds, int calls) {
    double best = 1e30;
    for (int rep = 0; rep < REPEATS; rep++) {
        double t0 = bench_now_s();
        for (long i = 0; i < rounds; i++)
            round(how);
        double ns = (bench_now_s() - t0) * 1e9 / ((double)rounds * calls);
        if (ns < best) best = ns;
    }
    return best;
}

typedef struct workload {
    const char *name;
    void (*round)(route);
    int calls; /* wrapped calls per round */
} workload;

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    long rounds = argc > 1 ? atol(argv[1]) : 100000;
    char path[4096];
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/bench_pmpi_%d.h5", dir && *dir ? dir : "/tmp", (int)getpid());
    const workload loads[] = {{"barrier", barrier_round, 1}, {"self", self_round, 4}};
    double ns[2][3];
    for (int on = 0; on <= 1; on++) {
        sp_options opt = SP_OPTIONS_INIT;
        opt.file_path = path;
        opt.mpi_calls = on;
        if (sp_mpi_setup(&opt, MPI_COMM_WORLD) != SP_OK) return 1;
        for (int w = 0; w < 2; w++) {
            if (!on) ns[w][0] = time_calls(loads[w].round, UNWRAPPED, rounds, loads[w].calls);
            ns[w][1 + on] = time_calls(loads[w].round, WRAPPED, rounds, loads[w].calls);
        }
        sp_finalize_options quiet = {.quiet = 1};
        sp_finalize(&quiet);
    }
    unlink(path);
    printf("ns per MPI call, best of %d x %ld rounds (%s)\n", REPEATS, rounds,
           getenv("SCOPE_PROFILER_MPI_CALLS") ? "SCOPE_PROFILER_MPI_CALLS is set: it overrides"
                                              : "wrappers off, then on");
    printf("%-8s %10s %10s %10s %12s %12s\n", "workload", "unwrapped", "off", "on", "off - unwr",
           "on - unwr");
    for (int w = 0; w < 2; w++)
        printf("%-8s %10.1f %10.1f %10.1f %12.1f %12.1f\n", loads[w].name, ns[w][0], ns[w][1],
               ns[w][2], ns[w][1] - ns[w][0], ns[w][2] - ns[w][0]);
    MPI_Finalize();
    return 0;
}
