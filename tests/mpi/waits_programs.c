/*
 * MPI programs with known wait states, for tests/mpi/check_waits.py (issue
 * 25). argv[1] names the scenario, argv[2] the output file; n exchanges, a
 * delay of D_MS ms in region "compute" on one rank:
 * Every step starts at the same time on every rank (pace()).
 *   pingpong    pairs (0,1), (2,3)...: rank 1 computes before
 *               it takes the ping and replies, so rank 0's MPI_Recv of the
 *               pong waits for it (Late Sender, n*d);
 *   ring        Irecv from the left, Isend to the right, Waitall:
 *               rank 1 computes first, rank 2's Waitall waits (n*d);
 *   anysource   rank 0 receives MPI_ANY_SOURCE/MPI_ANY_TAG from rank 1,
 *               which computes first (n*d);
 *   rendezvous  rank 0 MPI_Sends 4 MiB to rank 1, which computes before
 *               posting its MPI_Recv (Late Receiver, n*d);
 *   allreduce, barrier  the last rank computes before each collective: every
 *               other rank waits d per call;
 *   outside     4 ranks, the slowest rank outside MPI waits (issue 25 item 4):
 *               rank r spends PREPARE_MS[r] in region "prepare", then in
 *               region "step" computes WORK_MS[r] and calls MPI_Allreduce;
 *               rank 1 computes longest, but rank 0 enters "step" first and
 *               waits in the Allreduce, so its "step" is the longest;
 *   threads     MPI_THREAD_MULTIPLE, 2 ranks: each rank's main thread and a
 *               second thread play ping-pong at once (tags 7 and 8); only
 *               rank 1's second thread computes before it replies, so rank
 *               0's second thread waits for it (Late Sender, n*d).
 * The wrappers record the MPI calls (options.mpi_calls).
 */
#include <mpi.h>
#include <pthread.h>
#include <scope_profiler.h>
#include <scope_profiler_mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_test_support.h"

enum { N = 8, D_MS = 60, PERIOD_MS = 160, BIG = 4 << 20 };

/* Step i starts on every rank at the same time (one machine: one monotonic
 * clock), so the late rank is late by its delay only, not by how late a
 * loaded machine let it leave the previous step. */
static int64_t first_step_ns;
static void pace(int i) {
    int64_t left = first_step_ns + (int64_t)i * PERIOD_MS * 1000000 - now_ns();
    if (left > 0) busy_wait(left);
}

static void work(int ms) {
    SP_SCOPE("compute");
    busy_wait((int64_t)ms * 1000000);
}

static void compute(void) {
    work(D_MS);
}

static void pingpong(int rank, int size) {
    int peer = rank ^ 1, value = 0;
    for (int i = 0; i < N; i++) {
        pace(i);
        if (peer >= size) continue;
        if (rank % 2 == 0) {
            MPI_Send(&value, 1, MPI_INT, peer, 7, MPI_COMM_WORLD);
            MPI_Recv(&value, 1, MPI_INT, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            if (rank == 1) compute();
            MPI_Recv(&value, 1, MPI_INT, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&value, 1, MPI_INT, peer, 7, MPI_COMM_WORLD);
        }
    }
}

/* One thread's ping-pong with the same thread of the other rank (ranks 0 and 1). */
static void exchange(int rank, int tag, int late) {
    int value = 0;
    for (int i = 0; i < N; i++) {
        pace(i);
        if (rank == 0) {
            MPI_Send(&value, 1, MPI_INT, 1, tag, MPI_COMM_WORLD);
            MPI_Recv(&value, 1, MPI_INT, 1, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            if (late) compute();
            MPI_Recv(&value, 1, MPI_INT, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&value, 1, MPI_INT, 0, tag, MPI_COMM_WORLD);
        }
    }
}

static int world_rank;
static void *second_thread(void *arg) {
    (void)arg;
    SP_SCOPE("worker");
    exchange(world_rank, 8, 1);
    return NULL;
}

static void threads(int rank) {
    world_rank = rank;
    pthread_t t;
    if (pthread_create(&t, NULL, second_thread, NULL) != 0) MPI_Abort(MPI_COMM_WORLD, 1);
    exchange(rank, 7, 0);
    pthread_join(t, NULL);
}

static void ring(int rank, int size) {
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    double out[16] = {0}, in[16];
    for (int i = 0; i < N; i++) {
        pace(i);
        if (rank == 1) compute();
        MPI_Request req[2];
        MPI_Irecv(in, 16, MPI_DOUBLE, left, i, MPI_COMM_WORLD, &req[0]);
        MPI_Isend(out, 16, MPI_DOUBLE, right, i, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    }
}

static void anysource(int rank) {
    int value = 0;
    for (int i = 0; i < N; i++) {
        pace(i);
        if (rank == 0) {
            MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            compute();
            MPI_Send(&value, 1, MPI_INT, 0, i, MPI_COMM_WORLD);
        }
    }
}

static void rendezvous(int rank) {
    char *buf = calloc(BIG, 1);
    if (!buf) abort();
    for (int i = 0; i < N; i++) {
        pace(i);
        if (rank == 0) {
            MPI_Send(buf, BIG, MPI_CHAR, 1, 3, MPI_COMM_WORLD);
        } else if (rank == 1) {
            compute();
            MPI_Recv(buf, BIG, MPI_CHAR, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    free(buf);
}

static void collective(int rank, int size, int allreduce) {
    for (int i = 0; i < N; i++) {
        pace(i);
        if (rank == size - 1) compute();
        if (allreduce) {
            double x = rank, sum = 0;
            MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        } else {
            MPI_Barrier(MPI_COMM_WORLD);
        }
    }
}

/* Per step: arrivals at the Allreduce 10, 80, 60, 60 ms; "step" lasts about
 * 80, 60, 40, 40 ms, of which 10, 60, 20, 20 outside the waits. */
static const int PREPARE_MS[4] = {0, 20, 40, 40}, WORK_MS[4] = {10, 60, 20, 20};
static void outside(int rank) {
    for (int i = 0; i < N; i++) {
        pace(i);
        if (PREPARE_MS[rank % 4]) {
            SP_SCOPE("prepare");
            busy_wait((int64_t)PREPARE_MS[rank % 4] * 1000000);
        }
        SP_SCOPE("step");
        work(WORK_MS[rank % 4]);
        double x = rank, sum = 0;
        MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
}

int main(int argc, char **argv) {
    int provided = 0;
    if (argc > 1 && strcmp(argv[1], "threads") == 0) {
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
        if (provided != MPI_THREAD_MULTIPLE) {
            fprintf(stderr, "waits_programs: this MPI has no MPI_THREAD_MULTIPLE\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    } else {
        MPI_Init(&argc, &argv);
    }
    if (argc < 3) {
        fprintf(stderr, "usage: waits_programs SCENARIO OUTPUT.h5\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    sp_options o = SP_OPTIONS_INIT;
    o.file_path = argv[2];
    o.mpi_calls = 1;
    if (sp_mpi_setup(&o, MPI_COMM_WORLD) != SP_OK) MPI_Abort(MPI_COMM_WORLD, 1);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *s = argv[1];
    first_step_ns = now_ns() + 100000000;
    MPI_Bcast(&first_step_ns, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
    {
        SP_SCOPE("main");
        if (strcmp(s, "pingpong") == 0)
            pingpong(rank, size);
        else if (strcmp(s, "ring") == 0)
            ring(rank, size);
        else if (strcmp(s, "anysource") == 0)
            anysource(rank);
        else if (strcmp(s, "rendezvous") == 0)
            rendezvous(rank);
        else if (strcmp(s, "allreduce") == 0)
            collective(rank, size, 1);
        else if (strcmp(s, "barrier") == 0)
            collective(rank, size, 0);
        else if (strcmp(s, "threads") == 0)
            threads(rank);
        else if (strcmp(s, "outside") == 0)
            outside(rank);
        else
            MPI_Abort(MPI_COMM_WORLD, 2);
    }
    sp_status st = sp_finalize(NULL);
    MPI_Finalize();
    return st == SP_OK && !failures ? 0 : 1;
}
