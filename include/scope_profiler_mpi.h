/*
 * scope_profiler_mpi.h: MPI support (libscope_profiler_mpi).
 *
 * Link with -lscope_profiler_mpi (CMake: ScopeProfiler::scope_profiler_mpi,
 * pkg-config: scope_profiler_mpi). Serial programs never need it.
 *
 *     MPI_Init(&argc, &argv);
 *     sp_mpi_setup(&opt, MPI_COMM_WORLD);   // collective
 *     ... SP_REGION("solve") { ... } ...
 *     sp_finalize(NULL);                    // collective: one file for all ranks
 *     MPI_Finalize();
 *
 * Once this library is linked, sp_finalize() is collective whenever MPI is
 * initialized (and not yet finalized): every rank's calls, with their rank
 * numbers, end up in the single file named by file_path, written by rank 0,
 * which streams the other ranks' data rank by rank so that its memory stays
 * bounded. Each rank's clock offset to rank 0 is measured by ping-pong at
 * setup and at finalize and stored (docs/mpi.md). Without MPI initialized,
 * sp_finalize() behaves as in a serial program.
 *
 * If the program calls MPI_Finalize() while a session is still recording,
 * the library (through the PMPI interface) finalizes the profile first.
 *
 * With options->mpi_calls (or SCOPE_PROFILER_MPI_CALLS=1), sp_mpi_setup()
 * also times the common MPI calls (MPI_Send, Recv, Isend, Irecv, Sendrecv,
 * Wait, Waitall, Waitany, Bcast, Reduce, Allreduce, Gather, Allgather,
 * Scatter, Alltoall, Barrier) as regions named after the call, on the
 * calling thread, with the bytes each rank's calls passed
 * (sp_mpi_region_message_bytes); the library's own MPI traffic is not
 * recorded. Off, a wrapped call costs a branch (docs/parallel.md).
 *
 * A rank that never reaches sp_finalize(): the others wait up to
 * SCOPE_PROFILER_MPI_TIMEOUT seconds (default 600; 0 waits forever), then
 * each writes its own calls to NAME.rank<N>.h5 next to the target (join them
 * with `scope-profiler merge`) and sp_finalize() returns SP_ERR_MPI.
 */
#ifndef SCOPE_PROFILER_MPI_H
#define SCOPE_PROFILER_MPI_H

#include <mpi.h>
#include <scope_profiler.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * sp_setup() for an MPI program, collective over `comm` (which is
 * duplicated; MPI_COMM_NULL means MPI_COMM_WORLD). MPI must be initialized.
 * Every rank must pass the same options (rank 0's file_path and metadata
 * are the ones used). Returns SP_ERR_MPI if MPI is not initialized or a
 * call fails, else what sp_setup() returns.
 */
SP_API sp_status sp_mpi_setup(const sp_options *options, MPI_Comm comm);

/** This process's rank in the profiling communicator (0 without MPI). */
SP_API int sp_mpi_rank(void);

#ifdef __cplusplus
}
#endif

#endif /* SCOPE_PROFILER_MPI_H */
