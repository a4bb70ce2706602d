/*
 * Phase 2 of the parallel writer (parallel_writer.h): what rank 0 writes
 * alone, with the POSIX driver, after the collective phase closed the file.
 */
#ifndef SP_MPI_PARALLEL_TAIL_H
#define SP_MPI_PARALLEL_TAIL_H

#include <mpi.h>

#include "mpi/parallel_writer.h"

/* Rank 0's share of the ranks' rows, threads and fork points: what phase 1 did not
 * write (strings, message bytes), rows in rank order. */
typedef struct sp_parallel_tail {
    sp_model_row *rows;
    size_t num_rows;
    sp_thread_info *threads;
    size_t num_threads;
    sp_thread_fork *forks; /* every rank's fork points, rank order */
    size_t num_forks;
} sp_parallel_tail;

/* Collective: gathers every rank's strings and threads on rank 0 (others get
 * an empty tail). Returns 0, or -1 when this rank ran out of memory or the
 * index does not fit one MPI message (2 GiB). */
int sp_parallel_tail_gather(MPI_Comm comm, int rank, int size, const sp_model *own,
                            sp_parallel_tail *tail);
void sp_parallel_tail_free(sp_parallel_tail *tail);

/* Rank 0: opens tmp_path (written by phase 1) and adds the rest. */
sp_status sp_parallel_tail_write(const char *tmp_path, const char *path,
                                 const sp_parallel_input *in, const sp_parallel_tail *tail,
                                 int has_thread_ids, sp_error *err);

#endif
