/*
 * Clock alignment: CLOCK_MONOTONIC is per node, so rank 0 estimates every
 * rank's offset with ping-pongs (NTP-style: the round with the shortest
 * round trip wins; the uncertainty is half that round trip).
 */
#ifndef SP_MPI_CLOCK_SYNC_H
#define SP_MPI_CLOCK_SYNC_H

#include <mpi.h>
#include <stdint.h>

/* Collective over comm. On rank 0, offset[r] (ns to add to rank r's
 * timestamps to put them on rank 0's clock) and uncertainty[r] are filled
 * for every rank (size entries; rank 0's are 0). Returns MPI_SUCCESS or an
 * MPI error code. */
int sp_mpi_clock_sync(MPI_Comm comm, int rank, int size, int64_t *offset, int64_t *uncertainty);

#endif
