#include "mpi/clock_sync.h"

#include "record/clock.h"

#define ROUNDS   8
#define TAG_PING 7101
#define TAG_PONG 7102

/* Rank 0's side with one peer: returns the estimate of the round with the
 * shortest round trip. */
static int measure_peer(MPI_Comm comm, int peer, int64_t *offset, int64_t *uncertainty) {
    int64_t best_rtt = INT64_MAX;
    for (int round = 0; round < ROUNDS; round++) {
        int64_t t0 = sp_internal_clock_now_ns(), t1 = 0;
        int rc = MPI_Send(&t0, 1, MPI_INT64_T, peer, TAG_PING, comm);
        if (rc == MPI_SUCCESS)
            rc = MPI_Recv(&t1, 1, MPI_INT64_T, peer, TAG_PONG, comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) return rc;
        int64_t t2 = sp_internal_clock_now_ns();
        int64_t rtt = t2 - t0;
        if (rtt < best_rtt) {
            best_rtt = rtt;
            /* the peer read t1 halfway through the round trip, as far as we know */
            *offset = t0 + rtt / 2 - t1;
            *uncertainty = rtt / 2 + 1;
        }
    }
    return MPI_SUCCESS;
}

static int answer_peer(MPI_Comm comm) {
    for (int round = 0; round < ROUNDS; round++) {
        int64_t ping;
        int rc = MPI_Recv(&ping, 1, MPI_INT64_T, 0, TAG_PING, comm, MPI_STATUS_IGNORE);
        int64_t t1 = sp_internal_clock_now_ns();
        if (rc == MPI_SUCCESS) rc = MPI_Send(&t1, 1, MPI_INT64_T, 0, TAG_PONG, comm);
        if (rc != MPI_SUCCESS) return rc;
    }
    return MPI_SUCCESS;
}

int sp_mpi_clock_sync(MPI_Comm comm, int rank, int size, int64_t *offset, int64_t *uncertainty) {
    if (rank != 0) return answer_peer(comm);
    offset[0] = 0;
    uncertainty[0] = 0;
    for (int peer = 1; peer < size; peer++) {
        int rc = measure_peer(comm, peer, &offset[peer], &uncertainty[peer]);
        if (rc != MPI_SUCCESS) return rc;
    }
    return MPI_SUCCESS;
}
