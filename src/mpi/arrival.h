/*
 * The collective finalize's arrival check: did every rank reach sp_finalize
 * within SCOPE_PROFILER_MPI_TIMEOUT? A rank that gives up leaves its
 * nonblocking collectives pending; they are completed later (settled), before
 * the communicator is freed and before MPI_Finalize, and a rank that arrives
 * late learns from them that the others gave up.
 */
#ifndef SP_MPI_ARRIVAL_H
#define SP_MPI_ARRIVAL_H

#include <mpi.h>

typedef enum sp_arrival {
    SP_ARRIVAL_ALL,        /* every rank is here and going on */
    SP_ARRIVAL_TIMED_OUT,  /* this rank gave up waiting */
    SP_ARRIVAL_ABANDONED,  /* this rank is late: the others had given up */
} sp_arrival;

sp_arrival sp_mpi_arrival_check(MPI_Comm comm, double timeout_s);

/* Completes a check left pending on a timeout (blocking, like MPI_Finalize
 * itself); a no-op when nothing is pending. */
void sp_mpi_arrival_settle(void);

#endif
