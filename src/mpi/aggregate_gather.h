/*
 * Aggregate mode's collective finalize: every rank's accumulators (a few
 * KiB per call path) are gathered on rank 0, which merges and writes the
 * one file; if that fails, every rank saves its own (per-rank files that
 * `scope-profiler merge` joins).
 */
#ifndef SP_MPI_AGGREGATE_GATHER_H
#define SP_MPI_AGGREGATE_GATHER_H

#include <mpi.h>

#include "record/session.h"

/* Collective; data holds this rank's aggregate model (stopped session).
 * Returns the status every rank returns. */
sp_status sp_mpi_aggregate_finalize(MPI_Comm comm, int rank, int size, sp_session_data *data,
                                    int64_t num_nodes);

#endif
