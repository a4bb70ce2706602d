/*
 * MPI calls as regions and the step-by-step balance of real MPI runs, under
 * mpirun by ctest (argv[1] names the scenario):
 *   calls    options.mpi_calls: each of the 16 wrapped calls counted exactly,
 *            bytes summed exactly (MPI_IN_PLACE included), nested under the
 *            user's region, the library's own traffic absent, a second
 *            thread's calls on its own lane;
 *   env      SCOPE_PROFILER_MPI_CALLS=1 (ctest sets it) with the option off;
 *   off      nothing asks for the wrappers: no MPI region has a call;
 *   override the option asks, SCOPE_PROFILER_MPI_CALLS=0 (ctest) wins: none;
 *   static   rank 2 does 20 ms more work in each of 8 steps: static, rank 2;
 *   dynamic  the slow rank rotates (step k: rank k mod size): dynamic.
 * Rank 0 checks the file through the analysis API, one line per failure.
 */
#include <hdf5.h>
#include <mpi.h>
#include <pthread.h>
#include <scope_profiler/balance.h>
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

/* The calls of one region: 0 when the file has none. */
static uint64_t calls_of(const sp_results *r, const char *name) {
    const sp_mpi_region *reg = sp_results_get(r, name, NULL);
    return reg ? sp_mpi_region_num_calls(reg) : 0;
}

static int64_t bytes_of(const sp_results *r, const char *name) {
    const sp_mpi_region *reg = sp_results_get(r, name, NULL);
    return reg ? sp_mpi_region_message_bytes(reg) : -2;
}

/* --- calls ---------------------------------------------------------------- */

enum { SENDS = 3, DOUBLES = 100, ALLREDUCES = 2, INTS = 10, SELF_BARRIERS = 2 };

static void *barriers_on_self(void *unused) {
    (void)unused;
    for (int i = 0; i < SELF_BARRIERS; i++)
        MPI_Barrier(MPI_COMM_SELF);
    return NULL;
}

/* The other wrapped calls, once or twice each (bytes in check_calls). */
static void more_calls(int rank, int size, int right, int left) {
    double ten[10] = {0}, got[10];
    MPI_Request one;
    MPI_Isend(ten, 10, MPI_DOUBLE, right, 20, MPI_COMM_WORLD, &one);
    MPI_Recv(got, 10, MPI_DOUBLE, left, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&one, MPI_STATUS_IGNORE);
    int token = rank, from = -1, index;
    MPI_Request two[2];
    MPI_Irecv(&from, 1, MPI_INT, left, 21, MPI_COMM_WORLD, &two[0]);
    MPI_Isend(&token, 1, MPI_INT, right, 21, MPI_COMM_WORLD, &two[1]);
    MPI_Waitany(2, two, &index, MPI_STATUS_IGNORE);
    MPI_Waitany(2, two, &index, MPI_STATUS_IGNORE);
    CHECK(from == left, "rank %d: token %d from the left", rank, from);
    int five[5] = {rank, 1, 2, 3, 4};
    MPI_Bcast(five, 5, MPI_INT, 0, MPI_COMM_WORLD);
    CHECK(five[0] == 0, "rank %d: bcast gave %d", rank, five[0]);
    double three[3] = {1, 2, 3}, sum3[3];
    MPI_Reduce(three, sum3, 3, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    int pair[2] = {rank, rank}, *all = calloc((size_t)size * 2, sizeof *all);
    MPI_Allgather(pair, 2, MPI_INT, all, 2, MPI_INT, MPI_COMM_WORLD);
    CHECK(all[2 * (size - 1)] == size - 1, "rank %d: allgather", rank);
    /* the root scatters in place: its receive arguments are ignored (and here wrong) */
    for (int r = 0; r < size; r++)
        all[r] = 100 + r;
    int mine = -1;
    if (rank == 0)
        MPI_Scatter(all, 1, MPI_INT, MPI_IN_PLACE, 999, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    else
        MPI_Scatter(NULL, 0, MPI_INT, &mine, 1, MPI_INT, 0, MPI_COMM_WORLD);
    CHECK(rank == 0 || mine == 100 + rank, "rank %d: scatter gave %d", rank, mine);
    int *to = calloc((size_t)size, sizeof *to), *back = calloc((size_t)size, sizeof *back);
    MPI_Alltoall(to, 1, MPI_INT, back, 1, MPI_INT, MPI_COMM_WORLD);
    free(to);
    free(back);
    free(all);
}

/* Every rank: a ring exchange and collectives inside "exchange", one more
 * barrier outside it, and a thread's barriers on MPI_COMM_SELF. */
static void wrapped_calls(int rank, int size) {
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    double out[SENDS][DOUBLES], in[SENDS][DOUBLES];
    int values[INTS], sums[INTS];
    for (int i = 0; i < INTS; i++)
        values[i] = rank + i;
    SP_REGION("exchange") {
        MPI_Request requests[SENDS];
        for (int k = 0; k < SENDS; k++)
            MPI_Irecv(in[k], DOUBLES, MPI_DOUBLE, left, k, MPI_COMM_WORLD, &requests[k]);
        for (int k = 0; k < SENDS; k++) {
            for (int i = 0; i < DOUBLES; i++)
                out[k][i] = rank * 1000 + k * 100 + i;
            MPI_Send(out[k], DOUBLES, MPI_DOUBLE, right, k, MPI_COMM_WORLD);
        }
        MPI_Waitall(SENDS, requests, MPI_STATUSES_IGNORE);
        for (int k = 0; k < ALLREDUCES; k++)
            MPI_Allreduce(values, sums, INTS, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        int64_t pair[4] = {rank, rank, rank, rank}, back[4];
        MPI_Sendrecv(pair, 4, MPI_INT64_T, right, 9, back, 4, MPI_INT64_T, left, 9, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        /* the root gathers in place: its send arguments are ignored (and here wrong) */
        short *pieces = calloc((size_t)size, sizeof *pieces);
        pieces[rank] = (short)rank;
        if (rank == 0)
            MPI_Gather(MPI_IN_PLACE, 999, MPI_DOUBLE, pieces, 1, MPI_SHORT, 0, MPI_COMM_WORLD);
        else
            MPI_Gather(&pieces[rank], 1, MPI_SHORT, NULL, 0, MPI_SHORT, 0, MPI_COMM_WORLD);
        free(pieces);
    }
    SP_REGION("more") {
        more_calls(rank, size, right, left);
    }
    CHECK(in[SENDS - 1][DOUBLES - 1] == left * 1000 + (SENDS - 1) * 100 + DOUBLES - 1,
          "rank %d received %g", rank, in[SENDS - 1][DOUBLES - 1]);
    CHECK(sums[0] == size * (size - 1) / 2, "rank %d: allreduce gave %d", rank, sums[0]);
    pthread_t worker;
    if (pthread_create(&worker, NULL, barriers_on_self, NULL) == 0) pthread_join(worker, NULL);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* The calls of `name` per lane of `rank`, lane by lane, into out (sorted). */
static size_t lane_calls(const sp_results *r, const char *name, uint32_t rank, uint64_t *out,
                         size_t cap) {
    const sp_mpi_region *reg = sp_results_get(r, name, NULL);
    const sp_rank_region *rr = reg ? sp_mpi_region_rank(reg, rank, NULL) : NULL;
    size_t n = 0;
    for (size_t i = 0; rr && i < sp_results_num_threads(r); i++) {
        sp_thread_summary t;
        if (sp_results_thread_summary(r, i, &t, NULL) != SP_OK || t.rank != rank) continue;
        uint64_t c = sp_rank_region_thread_calls(rr, t.index, NULL, 0);
        if (c && n < cap) out[n++] = c;
    }
    for (size_t i = 1; i < n; i++) /* two or three values: insertion sort */
        for (size_t j = i; j > 0 && out[j - 1] > out[j]; j--) {
            uint64_t t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

static void check_calls(const sp_results *r, int size) {
    uint64_t n = (uint64_t)size;
    const struct {
        const char *name;
        uint64_t calls_per_rank;
        int64_t bytes_per_rank;
    } want[] = {
        {"MPI_Send", SENDS, SENDS * DOUBLES * 8},
        {"MPI_Irecv", SENDS + 1, SENDS * DOUBLES * 8 + 4},
        {"MPI_Waitall", 1, 0},
        {"MPI_Allreduce", ALLREDUCES, ALLREDUCES * INTS * 4},
        {"MPI_Sendrecv", 1, 2 * 4 * 8},
        {"MPI_Gather", 1, 2}, /* the root's own block in place: 1 short */
        {"MPI_Barrier", 1 + SELF_BARRIERS, 0},
        {"MPI_Isend", 2, 10 * 8 + 4},
        {"MPI_Recv", 1, 10 * 8},
        {"MPI_Wait", 1, 0},
        {"MPI_Waitany", 2, 0},
        {"MPI_Bcast", 1, 5 * 4},
        {"MPI_Reduce", 1, 3 * 8},
        {"MPI_Allgather", 1, 2 * 4},
        {"MPI_Scatter", 1, 4}, /* the root's own block in place: 1 int */
        {"MPI_Alltoall", 1, 4 * (int64_t)size},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const char *name = want[i].name;
        CHECK(calls_of(r, name) == want[i].calls_per_rank * n, "%s: %llu calls, want %llu", name,
              (unsigned long long)calls_of(r, name),
              (unsigned long long)(want[i].calls_per_rank * n));
        CHECK(bytes_of(r, name) == want[i].bytes_per_rank * size, "%s: %lld bytes, want %lld", name,
              (long long)bytes_of(r, name), (long long)(want[i].bytes_per_rank * size));
        const sp_mpi_region *reg = sp_results_get(r, name, NULL);
        for (int rank = 0; reg && rank < size; rank++) {
            const sp_rank_region *rr = sp_mpi_region_rank(reg, (uint32_t)rank, NULL);
            int64_t b = rr ? sp_rank_region_message_bytes(rr) : -2;
            CHECK(b == want[i].bytes_per_rank, "%s rank %d: %lld bytes, want %lld", name, rank,
                  (long long)b, (long long)want[i].bytes_per_rank);
        }
    }
    /* exact counts of MPI_Send, Recv, Gather, Reduce and Bcast: the library's own
     * traffic (clock sync, gathering the profile) is not recorded */
    CHECK(bytes_of(r, "exchange") == -1, "a user region has a byte count");
    /* nested under the user's region, not at the top level */
    sp_balance ranks, threads;
    const char *under = "scope_profiler.session > exchange > MPI_Send";
    CHECK(sp_results_path_balance(r, under, &ranks, &threads, NULL) == SP_OK && ranks.count == n,
          "no path \"%s\" on every rank", under);
    CHECK(sp_results_path_balance(r, "scope_profiler.session > MPI_Send", &ranks, &threads, NULL) ==
              SP_ERR_NO_SUCH_REGION,
          "MPI_Send also at the top level");
    CHECK(sp_results_path_balance(r, "scope_profiler.session > MPI_Barrier", &ranks, &threads,
                                  NULL) == SP_OK,
          "the barrier outside \"exchange\" is not under the session");
    /* the worker thread's barriers on its own lane: lanes with 1 and 2 calls */
    for (int rank = 0; rank < size; rank++) {
        uint64_t lanes[4] = {0};
        size_t nl = lane_calls(r, "MPI_Barrier", (uint32_t)rank, lanes, 4);
        CHECK(nl == 2 && lanes[0] == 1 && lanes[1] == SELF_BARRIERS,
              "rank %d: MPI_Barrier on %zu lanes (%llu, %llu), want 1 and %d", rank, nl,
              (unsigned long long)lanes[0], (unsigned long long)lanes[1], SELF_BARRIERS);
    }
}

/* The raw extension: one value per index row, -1 for the user's rows. */
static void check_extension(const char *path) {
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    CHECK(f >= 0, "cannot open %s", path);
    if (f < 0) return;
    size_t nr = 0, nb = 0, nn = 0;
    int64_t *ids = h5i_read_int64(f, "/rank_region_index/region_ids", &nr);
    int64_t *bytes = h5i_read_int64(f, "/scope_profiler_c/message_bytes/bytes", &nb);
    char **names = h5i_read_strings(f, "/region_table/names", &nn);
    CHECK(ids && bytes && names && nb == nr, "message_bytes has %zu values for %zu rows", nb, nr);
    for (size_t i = 0; ids && bytes && names && i < nr && i < nb; i++) {
        int mpi = strncmp(names[ids[i]], "MPI_", 4) == 0;
        CHECK(mpi ? bytes[i] >= 0 : bytes[i] == -1, "row %zu (%s): %lld", i, names[ids[i]],
              (long long)bytes[i]);
    }
    free(ids);
    free(bytes);
    h5i_free_strings(names, nn);
    H5Fclose(f);
}

static void check_no_mpi_regions(const sp_results *r) {
    const char *names[] = {"MPI_Send",     "MPI_Irecv",     "MPI_Waitall", "MPI_Allreduce",
                           "MPI_Sendrecv", "MPI_Gather",    "MPI_Barrier", "MPI_Isend",
                           "MPI_Recv",     "MPI_Wait",      "MPI_Waitany", "MPI_Bcast",
                           "MPI_Reduce",   "MPI_Allgather", "MPI_Scatter", "MPI_Alltoall"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        CHECK(calls_of(r, names[i]) == 0, "%s recorded with the wrappers off", names[i]);
    CHECK(calls_of(r, "exchange") > 0, "the user's region is missing");
}

/* --- static and dynamic ------------------------------------------------------ */

enum { STEPS = 8 };

static void steps(int rank, int size, int rotating) {
    for (int k = 0; k < STEPS; k++) {
        int slow = rotating ? k % size : 2;
        SP_REGION("step") {
            busy_wait(2 * MS + (rank == slow ? 20 * MS : 0));
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
}

static void check_steps(const sp_results *r, int rotating) {
    const sp_mpi_region *step = sp_results_get(r, "step", NULL);
    sp_step_balance s;
    CHECK(step && sp_mpi_region_step_balance(step, &s, NULL) == SP_OK, "no step balance");
    if (!step) return;
    printf("step: %s, straggler %u in %llu of %llu steps, %.3f s to gain\n",
           sp_imbalance_kind_name(s.kind), s.straggler, (unsigned long long)s.straggler_steps,
           (unsigned long long)s.steps, s.saved);
    CHECK(s.steps == STEPS, "%llu steps", (unsigned long long)s.steps);
    if (rotating) {
        CHECK(s.kind == SP_IMBALANCE_DYNAMIC, "rotating slow rank classified %s",
              sp_imbalance_kind_name(s.kind));
    } else {
        CHECK(s.kind == SP_IMBALANCE_STATIC, "slow rank 2 classified %s",
              sp_imbalance_kind_name(s.kind));
        CHECK(s.straggler == 2, "straggler %u, want 2", s.straggler);
    }
    /* each step loses about 20 ms × (1 - 1/size) to the slow rank */
    CHECK(s.saved > 0.5 * STEPS * 0.015, "only %.4f s to gain", s.saved);
}

/* --- driver ------------------------------------------------------------------ */

static void shared_path(char *path, size_t size, const char *scenario) {
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        const char *base = getenv("TMPDIR");
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/sp_mpi_calls_XXXXXX", base && *base ? base : "/tmp");
        if (mkdtemp(dir))
            snprintf(path, size, "%s/%s.h5", dir, scenario);
        else
            path[0] = '\0';
    }
    MPI_Bcast(path, (int)size, MPI_CHAR, 0, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *scenario = argc > 1 ? argv[1] : "calls";
    char path[4200];
    shared_path(path, sizeof path, scenario);
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    opt.mpi_calls = strcmp(scenario, "calls") == 0 || strcmp(scenario, "override") == 0;
    CHECK(provided == MPI_THREAD_MULTIPLE || strcmp(scenario, "calls") != 0,
          "MPI_THREAD_MULTIPLE not provided (%d)", provided);
    CHECK(sp_mpi_setup(&opt, MPI_COMM_WORLD) == SP_OK, "sp_mpi_setup failed");
    int stepping = strcmp(scenario, "static") == 0 || strcmp(scenario, "dynamic") == 0;
    if (stepping)
        steps(rank, size, strcmp(scenario, "dynamic") == 0);
    else
        wrapped_calls(rank, size);
    sp_results *results = NULL;
    sp_finalize_options fo = SP_FINALIZE_OPTIONS_INIT;
    fo.quiet = 1;
    fo.results = &results;
    CHECK(sp_finalize(&fo) == SP_OK, "sp_finalize failed");
    if (rank == 0) {
        CHECK(results != NULL, "no results from %s", path);
        if (results && stepping) check_steps(results, strcmp(scenario, "dynamic") == 0);
        if (results && (strcmp(scenario, "off") == 0 || strcmp(scenario, "override") == 0))
            check_no_mpi_regions(results);
        if (results && strcmp(scenario, "calls") == 0) {
            check_calls(results, size);
            check_extension(path);
        }
        if (results && strcmp(scenario, "env") == 0) {
            CHECK(calls_of(results, "MPI_Allreduce") == (uint64_t)(ALLREDUCES * size),
                  "env: %llu MPI_Allreduce calls",
                  (unsigned long long)calls_of(results, "MPI_Allreduce"));
            CHECK(bytes_of(results, "MPI_Send") == SENDS * DOUBLES * 8 * size,
                  "env: %lld MPI_Send bytes", (long long)bytes_of(results, "MPI_Send"));
        }
        sp_results_free(results);
        unlink(path);
        char *slash = strrchr(path, '/');
        if (slash) {
            *slash = '\0';
            rmdir(path);
        }
    }
    int local = failures, all = 0;
    MPI_Reduce(&local, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("%s on %d ranks: %s\n", scenario, size, all ? "FAILED" : "passed");
    MPI_Finalize();
    return rank == 0 ? all != 0 : 0;
}
