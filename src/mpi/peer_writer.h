/*
 * Adds the MPI peer records (peer_records.h) to the profile finalize wrote:
 * collective over the session's communicator, rank 0 writes
 * /scope_profiler_c/mpi_calls into `path` (docs/format.md). Does nothing
 * when no rank has a record.
 */
#ifndef SP_MPI_PEER_WRITER_H
#define SP_MPI_PEER_WRITER_H

#include <mpi.h>

void sp_mpi_peer_write(MPI_Comm comm, int rank, int size, const char *path);

#endif
