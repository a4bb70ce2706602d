/*
 * The parallel writer (libscope_profiler_mpi_parallel only): the file the
 * stream writer writes (FORMAT.md schema 3, the same datasets, types and
 * storage), in two phases.
 *  1. Collective, through MPI-IO: every rank writes its slice of the event
 *     columns and of the numeric index columns, at offsets from MPI_Exscan.
 *  2. Rank 0 alone reopens the file with the POSIX driver and writes what
 *     parallel HDF5 cannot write collectively, the variable-length strings:
 *     root attributes, /metadata, /region_table, the index's string columns,
 *     /thread_table, and our /scope_profiler_c tables, gathered from the
 *     ranks (they grow with rows and threads, not with calls).
 * Rank 0 then commits the temporary file atomically, as the stream writer does.
 */
#ifndef SP_MPI_PARALLEL_WRITER_H
#define SP_MPI_PARALLEL_WRITER_H

#include <mpi.h>

#include "format/atomic_file.h"
#include "format/writer.h"
#include "model/model.h"
#include "mpi/region_union.h"

typedef struct sp_parallel_input {
    sp_model *own; /* this rank's rows, calls and threads (starts become deltas and back) */
    const sp_region_union *u;       /* rank 0: names and per-rank maps */
    const sp_meta_entry *meta;      /* rank 0 */
    size_t num_meta;                /* rank 0 */
    const sp_clock_offset *offsets; /* rank 0; NULL = none */
    size_t num_offsets;             /* rank 0 */
    const char *path;               /* rank 0: the target */
    sp_write_options options;       /* rank 0's count */
    const sp_target_id *since;      /* rank 0; may be NULL */
    char **saved_as;                /* rank 0; may be NULL */
} sp_parallel_input;

/* Collective. Returns the same status on every rank; err explains on rank 0
 * (the message of the rank that failed first). On failure nothing is left
 * behind: the temporary file is removed and the target is untouched. */
sp_status sp_mpi_write_parallel(MPI_Comm comm, int rank, int size, const sp_parallel_input *in,
                                sp_error *err);

#endif
