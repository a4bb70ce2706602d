/*
 * The last resort of an MPI run: a rank that cannot take part in the shared
 * file saves its own calls to NAME.rank<N>.h5 next to the target (or in
 * $TMPDIR), to be joined later with `scope-profiler merge`.
 */
#ifndef SP_MPI_RANK_FILE_H
#define SP_MPI_RANK_FILE_H

#include "record/session.h"

/* Writes data's model (rows of this rank) with metadata; reports on stderr. */
void sp_mpi_write_rank_file(sp_session_data *data, int rank, int size);

/* "dir/stem.rank<N>.h5" for "dir/stem.h5" (malloc'ed). */
char *sp_mpi_rank_file_path(const char *path, int rank);

#endif
