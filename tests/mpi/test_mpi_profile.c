/*
 * MPI scenarios, run under mpirun by ctest (argv[1] names the scenario):
 *   imbalance  rank r busy-waits (r+1)*T per call: per-rank counts exact,
 *              imbalance within tolerance, a region only even ranks enter;
 *   intercept  no sp_finalize(): MPI_Finalize() still yields a complete file;
 *   shift      rank 1's clock is shifted by 5 s: the stored offset finds it;
 *   timeout    rank 1 arrives late: both ranks save per-rank files;
 *   late       the same, but every rank goes straight on to MPI_Finalize (no
 *              other MPI call in between): the job ends normally, nobody waits
 *              a second timeout, and each rank's file holds its calls;
 *   late_intercept  rank 1 never calls sp_finalize: its MPI_Finalize does, late;
 *   nodir      the output directory is missing: every rank returns the status,
 *              and the fallback file in $TMPDIR holds every rank's calls.
 * Rank 0 checks the file with the plain HDF5 API and prints one line per
 * check; the exit status is 0 only if every check passed.
 */
#include <hdf5.h>
#include <math.h>
#include <mpi.h>
#include <scope_profiler/results.h>
#include <scope_profiler_mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../support/h5_inspect.h"
#include "mpi_test_support.h"

#define MS 1000000LL

/* A directory shared by all ranks: rank 0 creates it. */
static void shared_dir(char *dir, size_t size) {
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        const char *base = getenv("TMPDIR");
        snprintf(dir, size, "%s/sp_mpi_XXXXXX", base && *base ? base : "/tmp");
        if (!mkdtemp(dir)) dir[0] = '\0';
    }
    MPI_Bcast(dir, (int)size, MPI_CHAR, 0, MPI_COMM_WORLD);
}

typedef struct per_region {
    int64_t calls[64];
    int64_t total[64];
    int present[64];
} per_region;

/* Counts calls and totals per rank of one region in a written file. */
static int read_region(const char *path, const char *name, per_region *out) {
    memset(out, 0, sizeof *out);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) return -1;
    size_t nn, nr, n;
    char **names = h5i_read_strings(f, "/region_table/names", &nn);
    int64_t *ids = h5i_read_int64(f, "/rank_region_index/region_ids", &nr);
    int64_t *ranks = h5i_read_int64(f, "/rank_region_index/ranks", &n);
    int64_t *offsets = h5i_read_int64(f, "/rank_region_index/event_offsets", &n);
    int64_t *counts = h5i_read_int64(f, "/rank_region_index/event_counts", &n);
    int64_t *durations = h5i_read_int64(f, "/events/durations", &n);
    for (size_t r = 0; r < nr; r++) {
        if (strcmp(names[ids[r]], name) != 0 || ranks[r] >= 64) continue;
        out->present[ranks[r]] = 1;
        out->calls[ranks[r]] += counts[r];
        for (int64_t i = 0; i < counts[r]; i++)
            out->total[ranks[r]] += durations[offsets[r] + i];
    }
    h5i_free_strings(names, nn);
    free(ids);
    free(ranks);
    free(offsets);
    free(counts);
    free(durations);
    H5Fclose(f);
    return 0;
}

enum { CALLS = 10 };
static const int64_t T = 10 * MS;

static void record_imbalanced_work(int rank) {
    SP_REGION("setup") {
        busy_wait(MS);
    }
    for (int i = 0; i < CALLS; i++) {
        SP_REGION("work") {
            busy_wait((rank + 1) * T);
        }
        if (rank % 2 == 0) SP_REGION("only_even") {
            }
    }
}

/* The same facts through the analysis API, which must agree exactly with the
 * raw file: per-rank counts and totals, imbalance, partial regions. */
static void check_with_analysis(const char *path, int size, const per_region *work,
                                double imbalance) {
    sp_error err;
    sp_results *r = sp_read(path, &err);
    CHECK(r != NULL, "sp_read: %s", err.message);
    if (!r) return;
    CHECK(sp_results_num_ranks(r) == (size_t)size, "num_ranks %zu", sp_results_num_ranks(r));
    const sp_mpi_region *w = sp_results_get(r, "work", &err);
    CHECK(w && sp_mpi_region_num_ranks(w) == (size_t)size, "work ranks");
    uint64_t calls[64];
    double totals[64];
    CHECK(sp_mpi_region_num_calls_per_rank(w, calls, 64) == (size_t)size, "calls per rank");
    CHECK(sp_mpi_region_total_durations(w, totals, 64) == (size_t)size, "totals per rank");
    for (int i = 0; i < size; i++) {
        uint32_t rank = sp_mpi_region_rank_id(w, (size_t)i);
        CHECK(calls[i] == CALLS, "rank %u: %llu calls per the analysis", rank,
              (unsigned long long)calls[i]);
        CHECK(fabs(totals[i] - work->total[rank] / 1e9) < 1e-12, "rank %u total", rank);
    }
    CHECK(fabs(sp_mpi_region_imbalance_pct(w) - imbalance) < 1e-9 * fabs(imbalance),
          "analysis imbalance %.12f vs %.12f", sp_mpi_region_imbalance_pct(w), imbalance);
    CHECK(sp_mpi_region_num_calls(w) == (uint64_t)(CALLS * size), "pooled calls");
    const sp_mpi_region *even = sp_results_get(r, "only_even", &err);
    CHECK(even && sp_mpi_region_num_ranks(even) == (size_t)(size + 1) / 2, "only_even ranks");
    if (even && size > 1) {
        CHECK(sp_mpi_region_rank(even, 1, &err) == NULL, "rank 1 has no only_even");
        CHECK(err.status == SP_ERR_NO_SUCH_RANK, "missing rank status %d", err.status);
        CHECK(strstr(err.message, "has no data for rank 1") != NULL, "message: %s", err.message);
    }
    /* ranks share rank 0's time axis: everybody's setup starts within a second */
    const sp_mpi_region *setup = sp_results_get(r, "setup", &err);
    double first = 1e300, last = -1e300;
    for (size_t i = 0; setup && i < sp_mpi_region_num_ranks(setup); i++) {
        const sp_rank_region *rr = sp_mpi_region_rank(setup, sp_mpi_region_rank_id(setup, i), &err);
        double t = rr ? sp_rank_region_first_start_time(rr) : 0;
        if (t < first) first = t;
        if (t > last) last = t;
    }
    CHECK(last - first < 1.0, "setup starts spread over %.3f s across ranks", last - first);
    sp_results_free(r);
}

static void check_imbalance(const char *path, int size) {
    per_region work, even, setup;
    CHECK(read_region(path, "work", &work) == 0, "cannot open %s", path);
    read_region(path, "only_even", &even);
    read_region(path, "setup", &setup);
    double sum = 0, max = 0;
    for (int r = 0; r < size; r++) {
        CHECK(work.calls[r] == CALLS, "rank %d: %lld work calls, expected %d", r,
              (long long)work.calls[r], CALLS);
        CHECK(setup.calls[r] == 1, "rank %d: %lld setup calls", r, (long long)setup.calls[r]);
        CHECK(even.present[r] == (r % 2 == 0), "rank %d: only_even present=%d", r, even.present[r]);
        /* each call lasts at least its wait; generous upper bound for loaded machines */
        CHECK(work.total[r] >= CALLS * (r + 1) * T, "rank %d: total %lld too short", r,
              (long long)work.total[r]);
        sum += (double)work.total[r];
        if (work.total[r] > max) max = (double)work.total[r];
    }
    double imbalance = (max / (sum / size) - 1.0) * 100.0;
    double exact = (2.0 * size / (size + 1.0) - 1.0) * 100.0; /* totals proportional to r+1 */
    /* wall-clock waits on an oversubscribed machine: a generous tolerance */
    CHECK(fabs(imbalance - exact) < 0.2 * exact, "imbalance %.2f%%, expected %.2f%%", imbalance,
          exact);
    printf("imbalance over %d ranks: %.2f%% (exact %.2f%%)\n", size, imbalance, exact);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    int64_t mpi_size = 0, nodes = 0, cores = 0, threads = 0;
    h5i_attr_int64(f, "/metadata", "mpi_size", &mpi_size);
    h5i_attr_int64(f, "/metadata", "num_nodes", &nodes);
    h5i_attr_int64(f, "/metadata", "total_cores", &cores);
    h5i_attr_int64(f, "/metadata", "omp_num_threads", &threads);
    CHECK(mpi_size == size, "mpi_size %lld", (long long)mpi_size);
    CHECK(nodes == 1, "num_nodes %lld", (long long)nodes);
    /* the machine's cores, not ranks x threads (oversubscribed ranks share them) */
    CHECK(cores == sysconf(_SC_NPROCESSORS_ONLN), "total_cores %lld", (long long)cores);
    const char *omp = getenv("OMP_NUM_THREADS");
    CHECK(threads == (omp ? atoi(omp) : 1), "omp_num_threads %lld without OpenMP",
          (long long)threads);
    CHECK(h5i_exists(f, "/scope_profiler_c/clock_offsets/offset_ns"), "no clock offsets");
    H5Fclose(f);
    check_with_analysis(path, size, &work, imbalance);
}

#define LATE_TIMEOUT_S 3.0
#define LATE_TIMEOUT_TEXT "3"
#define LATE_SLEEP_S 5 /* well past the others' timeout */

static int run(const char *scenario, const char *dir, int rank, int size) {
    char path[4200];
    snprintf(path, sizeof path, "%s/run.h5", dir);
    sp_options opt = SP_OPTIONS_INIT;
    if (strcmp(scenario, "nodir") == 0) {
        snprintf(path, sizeof path, "%s/missing/run.h5", dir);
        setenv("TMPDIR", dir, 1);
    }
    opt.file_path = path;
    sp_finalize_options quiet = {.quiet = 1};

    if (strcmp(scenario, "shift") == 0 && rank == 1)
        setenv("SCOPE_PROFILER_TEST_CLOCK_SHIFT_NS", "5000000000", 1);
    /* the late rank's test needs room between "no second wait" and one timeout
     * on a loaded machine: writing its file and MPI_Finalize took 1.4 s in CI */
    if (strncmp(scenario, "timeout", 7) == 0)
        setenv("SCOPE_PROFILER_MPI_TIMEOUT", "1", 1);
    if (strncmp(scenario, "late", 4) == 0)
        setenv("SCOPE_PROFILER_MPI_TIMEOUT", LATE_TIMEOUT_TEXT, 1);

    CHECK(sp_mpi_setup(&opt, MPI_COMM_WORLD) == SP_OK, "sp_mpi_setup failed");
    record_imbalanced_work(rank);

    if (strcmp(scenario, "intercept") == 0) {
        MPI_Finalize(); /* no sp_finalize(): the interception writes the file */
        if (rank == 0) check_imbalance(path, size);
        return 1;
    }
    if (strncmp(scenario, "late", 4) == 0) {
        if (rank == 1) sleep(LATE_SLEEP_S);
        int64_t t0 = now_ns();
        if (strcmp(scenario, "late") == 0 || rank == 0) {
            sp_status st = sp_finalize(&quiet);
            CHECK(st == SP_ERR_MPI, "rank %d: finalize returned %d, expected SP_ERR_MPI", rank, st);
        }
        MPI_Finalize(); /* must not crash, whatever is pending */
        double waited = (double)(now_ns() - t0) / 1e9;
        /* the late rank learns at once that the others gave up: no second full
         * timeout (which alone would take LATE_TIMEOUT_S) */
        if (rank == 1)
            CHECK(waited < 0.9 * LATE_TIMEOUT_S,
                  "late rank spent %.2f s in finalize (a second timeout of %.1f s)", waited,
                  LATE_TIMEOUT_S);
        char rank_path[4096];
        snprintf(rank_path, sizeof rank_path, "%s/run.rank%d.h5", dir, rank);
        per_region work;
        CHECK(read_region(rank_path, "work", &work) == 0, "rank %d: no %s", rank, rank_path);
        CHECK(work.calls[rank] == CALLS, "rank %d: %lld calls in its rank file", rank,
              (long long)work.calls[rank]);
        printf("%s: rank %d kept %lld calls, finalize took %.2f s\n", scenario, rank,
               (long long)work.calls[rank], waited);
        return 1;
    }
    if (strcmp(scenario, "nodir") == 0) {
        sp_status st = sp_finalize(&quiet);
        CHECK(st == SP_ERR_NO_DIRECTORY, "rank %d: finalize returned %d, expected %d", rank, st,
              SP_ERR_NO_DIRECTORY);
        int pid0 = (int)getpid();
        MPI_Bcast(&pid0, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (rank != 0) return 0;
        char fallback[4200];
        snprintf(fallback, sizeof fallback, "%s/run.%d.h5", dir, pid0);
        per_region work;
        CHECK(read_region(fallback, "work", &work) == 0, "no fallback file %s", fallback);
        for (int r = 0; r < size; r++)
            CHECK(work.calls[r] == CALLS, "rank %d: %lld calls in the fallback", r,
                  (long long)work.calls[r]);
        return 0;
    }
    if (strcmp(scenario, "timeout") == 0) {
        if (rank == 1) sleep(4);
        sp_status st = sp_finalize(&quiet);
        CHECK(st == SP_ERR_MPI, "rank %d: finalize returned %d, expected SP_ERR_MPI", rank, st);
        char rank_path[4096];
        snprintf(rank_path, sizeof rank_path, "%s/run.rank%d.h5", dir, rank);
        per_region work;
        CHECK(read_region(rank_path, "work", &work) == 0, "rank %d: no %s", rank, rank_path);
        CHECK(work.calls[rank] == CALLS, "rank %d: %lld calls in its rank file", rank,
              (long long)work.calls[rank]);
        /* the file holds one rank's calls: it counts one rank, not mpi_size (issue 22) */
        sp_error err;
        sp_results *own = sp_read(rank_path, &err);
        CHECK(own && sp_results_num_ranks(own) == 1 && sp_results_rank(own, 0) == (uint32_t)rank,
              "rank %d: its rank file reads as %zu rank(s)", rank,
              own ? sp_results_num_ranks(own) : 0);
        sp_results_free(own);
        return 0;
    }
    sp_status st = sp_finalize(&quiet);
    CHECK(st == SP_OK, "rank %d: sp_finalize returned %d", rank, st);
    CHECK(sp_finalize(&quiet) == SP_ERR_NOT_ACTIVE, "second finalize");
    if (rank != 0) return 0;
    check_imbalance(path, size);
    if (strcmp(scenario, "shift") == 0) {
        hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
        size_t n;
        int64_t *offset = h5i_read_int64(f, "/scope_profiler_c/clock_offsets/offset_ns", &n);
        int64_t *unc = h5i_read_int64(f, "/scope_profiler_c/clock_offsets/uncertainty_ns", &n);
        CHECK(n == (size_t)size, "%zu offsets", n);
        CHECK(offset[0] == 0, "rank 0 offset %lld", (long long)offset[0]);
        /* rank 1 runs 5 s ahead: adding -5 s puts it back on rank 0's clock */
        CHECK(llabs(offset[1] + 5000000000LL) <= unc[1] + 1000000, "rank 1 offset %lld +- %lld",
              (long long)offset[1], (long long)unc[1]);
        printf("rank 1 offset %lld ns +- %lld ns (shift -5000000000)\n", (long long)offset[1],
               (long long)unc[1]);
        for (size_t r = 2; r < n; r++)
            CHECK(llabs(offset[r]) <= unc[r] + 1000000, "rank %zu offset %lld", r,
                  (long long)offset[r]);
        free(offset);
        free(unc);
        H5Fclose(f);
    }
    return 0;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *scenario = argc > 1 ? argv[1] : "imbalance";
    char dir[4096];
    shared_dir(dir, sizeof dir);
    int finalized = run(scenario, dir, rank, size);
    int local = failures, all = 0;
    if (!finalized) {
        MPI_Reduce(&local, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
        MPI_Finalize();
    } else {
        all = local;
    }
    if (rank == 0) printf("%s on %d ranks: %s\n", scenario, size, all ? "FAILED" : "passed");
    return (rank == 0 ? all : local) ? 1 : 0;
}
