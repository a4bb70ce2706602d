#include "mpi/arrival.h"

#include "mpi/deadline.h"

/* At most one check is pending; its buffers must outlive the call. */
static struct {
    enum { NOTHING, BARRIER, VOTE } stage;
    MPI_Comm comm;
    MPI_Request request;
    int mine, all;
} pending;

/* Everyone arrives (a barrier), then everyone votes on going on (a minimum):
 * a rank that timed out votes 0 when it settles, so the late one sees 0. */
sp_arrival sp_mpi_arrival_check(MPI_Comm comm, double timeout_s) {
    sp_mpi_arrival_settle();
    pending.comm = comm;
    pending.stage = BARRIER;
    if (MPI_Ibarrier(comm, &pending.request) != MPI_SUCCESS) {
        pending.stage = NOTHING;
        return SP_ARRIVAL_TIMED_OUT;
    }
    if (!sp_mpi_wait_deadline(&pending.request, timeout_s)) return SP_ARRIVAL_TIMED_OUT;
    pending.mine = 1;
    pending.all = 0;
    pending.stage = VOTE;
    if (MPI_Iallreduce(&pending.mine, &pending.all, 1, MPI_INT, MPI_MIN, comm,
                       &pending.request) != MPI_SUCCESS) {
        pending.stage = NOTHING;
        return SP_ARRIVAL_TIMED_OUT;
    }
    if (!sp_mpi_wait_deadline(&pending.request, timeout_s)) return SP_ARRIVAL_TIMED_OUT;
    pending.stage = NOTHING;
    return pending.all == 1 ? SP_ARRIVAL_ALL : SP_ARRIVAL_ABANDONED;
}

void sp_mpi_arrival_settle(void) {
    if (pending.stage == BARRIER) {
        MPI_Wait(&pending.request, MPI_STATUS_IGNORE);
        pending.mine = 0;
        if (MPI_Iallreduce(&pending.mine, &pending.all, 1, MPI_INT, MPI_MIN, pending.comm,
                           &pending.request) != MPI_SUCCESS)
            pending.stage = NOTHING;
        else
            pending.stage = VOTE;
    }
    if (pending.stage == VOTE) MPI_Wait(&pending.request, MPI_STATUS_IGNORE);
    pending.stage = NOTHING;
}
