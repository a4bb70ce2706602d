/*
 * Waiting for MPI requests with a deadline, so that a rank that never comes
 * cannot hang the others forever (SCOPE_PROFILER_MPI_TIMEOUT).
 */
#ifndef SP_MPI_DEADLINE_H
#define SP_MPI_DEADLINE_H

#include <mpi.h>

/* SCOPE_PROFILER_MPI_TIMEOUT in seconds (default 600); 0 means no limit. */
double sp_mpi_timeout_seconds(void);

/* Waits for req until done (returns 1) or timeout_s passed (returns 0; the
 * request stays pending). */
int sp_mpi_wait_deadline(MPI_Request *req, double timeout_s);

#endif
