/*
 * Which writer an MPI finalize uses: SCOPE_PROFILER_MPI_WRITER overrides
 * sp_options.mpi_writer; the parallel writer needs this library's parallel
 * variant (libscope_profiler_mpi_parallel) and a process with one HDF5
 * library loaded. Every rank must take the same path, so the choice is agreed.
 */
#ifndef SP_MPI_WRITER_CHOICE_H
#define SP_MPI_WRITER_CHOICE_H

#include <mpi.h>
#include <scope_profiler.h>

/* sp_mpi_setup(): keeps the option for the finalize. */
void sp_mpi_writer_remember(const sp_options *options);

/* Collective: 1 if every rank can and wants to write in parallel, else 0;
 * rank 0 explains on stderr when parallel was asked for and cannot be used.
 * auto_parallel (rank 0's value counts) is what "auto" means for this run:
 * see sp_mpi_writer_auto(). */
int sp_mpi_writer_parallel(MPI_Comm comm, int rank, int auto_parallel);

/* What "auto" picks, measured (docs/mpi.md, "Writers"): parallel, except for
 * an uncompressed file of a run on one node, where rank 0's stream through
 * shared memory is faster than MPI-IO (nothing spreads over nodes there). */
int sp_mpi_writer_auto(int64_t num_nodes, int compressed);

/* The HDF5 libraries loaded in this process: their number, and their file
 * names joined by ", " into names (may be NULL). */
int sp_mpi_loaded_hdf5_libraries(char *names, size_t size);

#endif
