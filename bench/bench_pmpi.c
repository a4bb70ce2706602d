/*
 * bench_pmpi: the cost of the PMPI wrappers (docs/parallel.md §5). Two cheap
 * workloads on one rank, each timed as PMPI_* directly (unwrapped), through
 * the wrappers while off, and while on (recording a region per call):
 *   barrier   MPI_Barrier(MPI_COMM_SELF)
 *   self      zero-byte MPI_Irecv + MPI_Isend to self, MPI_Wait on both
 *             (4 wrapped calls per round)
 * Prints ns per wrapped call and the overhead over the unwrapped call timed
 * just before it: medians of 7 repetitions, and the fastest "on" minus the
 * fastest unwrapped repetition (preemption only adds time: on a shared
 * machine the fastest runs are the cost without it).
 * Then the stored size of the peer records (/scope_profiler_c/mpi_calls,
 * issue 25) of the last session with the wrappers on, in bytes per call;
 * SCOPE_PROFILER_MPI_PEERS=0 runs the same without them, for the time.
 *   build/bench/bench_pmpi [rounds]        (or under mpirun -np 1)
 */
#include <hdf5.h>
#include <mpi.h>
#include <scope_profiler_mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench_support.h"
#include "mpi/peer_records.h"

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

/* ns per wrapped call of `rounds` rounds. */
static double time_calls(void (*round)(route), route how, long rounds, int calls) {
    double t0 = bench_now_s();
    for (long i = 0; i < rounds; i++)
        round(how);
    return (bench_now_s() - t0) * 1e9 / ((double)rounds * calls);
}

typedef struct workload {
    const char *name;
    void (*round)(route);
    int calls; /* wrapped calls per round */
} workload;

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

enum { UNWR_OFF, OFF, UNWR_ON, ON, COLUMNS };

static herr_t add_storage(hid_t group, const char *name, const H5L_info_t *info, void *total) {
    (void)info;
    hid_t set = H5Dopen2(group, name, H5P_DEFAULT);
    if (set < 0) return 0;
    *(hsize_t *)total += H5Dget_storage_size(set);
    H5Dclose(set);
    return 0;
}

/* The bytes the peer group takes in the file (0 when it has none). */
static double peer_bytes(const char *path) {
    hsize_t total = 0;
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0) return 0;
    if (H5Lexists(file, "/scope_profiler_c", H5P_DEFAULT) > 0 &&
        H5Lexists(file, "/scope_profiler_c/mpi_calls", H5P_DEFAULT) > 0) {
        hid_t g = H5Gopen2(file, "/scope_profiler_c/mpi_calls", H5P_DEFAULT);
        H5Literate(g, H5_INDEX_NAME, H5_ITER_NATIVE, NULL, add_storage, &total);
        H5Gclose(g);
    }
    H5Fclose(file);
    return (double)total;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    long rounds = argc > 1 ? atol(argv[1]) : 100000;
    char path[4096];
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/bench_pmpi_%d.h5", dir && *dir ? dir : "/tmp", (int)getpid());
    const workload loads[] = {{"barrier", barrier_round, 1}, {"self", self_round, 4}};
    double ns[2][COLUMNS][REPEATS], in_memory = 0;
    /* each repetition: a session with the wrappers off, then one with them on,
     * each timing the unwrapped calls right before the wrapped ones, so that
     * the machine's load changes hit both sides of a difference alike */
    for (int rep = 0; rep < REPEATS; rep++)
        for (int on = 0; on <= 1; on++) {
            sp_options opt = SP_OPTIONS_INIT;
            opt.file_path = path;
            opt.mpi_calls = on;
            if (sp_mpi_setup(&opt, MPI_COMM_WORLD) != SP_OK) return 1;
            for (int w = 0; w < 2; w++) {
                const workload *l = &loads[w];
                ns[w][on ? UNWR_ON : UNWR_OFF][rep] =
                    time_calls(l->round, UNWRAPPED, rounds, l->calls);
                ns[w][on ? ON : OFF][rep] = time_calls(l->round, WRAPPED, rounds, l->calls);
            }
            if (on) in_memory = (double)sp_peer_memory(); /* before finalize frees it */
            sp_finalize_options quiet = {.quiet = 1};
            sp_finalize(&quiet);
        }
    double stored = peer_bytes(path); /* the last session: wrappers on */
    unlink(path);
    printf("ns per MPI call, medians of %d repetitions x %ld rounds%s\n", REPEATS, rounds,
           getenv("SCOPE_PROFILER_MPI_CALLS") ? " (SCOPE_PROFILER_MPI_CALLS is set: it overrides)"
                                              : "");
    printf("%-8s %10s %10s %10s %12s %12s %16s\n", "workload", "unwrapped", "off", "on",
           "off - unwr", "on - unwr", "best on - best");
    for (int w = 0; w < 2; w++) {
        double off_diff[REPEATS], on_diff[REPEATS];
        for (int rep = 0; rep < REPEATS; rep++) {
            off_diff[rep] = ns[w][OFF][rep] - ns[w][UNWR_OFF][rep];
            on_diff[rep] = ns[w][ON][rep] - ns[w][UNWR_ON][rep];
        }
        double unwrapped = median(ns[w][UNWR_ON], REPEATS), off = median(ns[w][OFF], REPEATS),
               on = median(ns[w][ON], REPEATS);
        double best_on = ns[w][ON][0], best_unwrapped = ns[w][UNWR_ON][0];
        for (int rep = 1; rep < REPEATS; rep++) {
            best_on = ns[w][ON][rep] < best_on ? ns[w][ON][rep] : best_on;
            best_unwrapped =
                ns[w][UNWR_ON][rep] < best_unwrapped ? ns[w][UNWR_ON][rep] : best_unwrapped;
        }
        double best = best_on - best_unwrapped;
        printf("%-8s %10.1f %10.1f %10.1f %12.1f %12.1f %16.1f\n", loads[w].name, unwrapped, off,
               on, median(off_diff, REPEATS), median(on_diff, REPEATS), best);
    }
    double calls = (double)rounds * (loads[0].calls + loads[1].calls);
    printf("peer records: %.0f bytes stored for %.0f calls, %.2f bytes per call%s\n", stored, calls,
           stored / calls,
           getenv("SCOPE_PROFILER_MPI_PEERS") ? " (SCOPE_PROFILER_MPI_PEERS is set)" : "");
    printf("peer records in memory before finalize: %.0f bytes, %.2f bytes per call\n", in_memory,
           in_memory / calls);
    MPI_Finalize();
    return 0;
}
