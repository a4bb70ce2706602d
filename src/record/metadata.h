/*
 * Run metadata (docs/layout.md section 2.4). Minimal holds no user, host or path
 * data; full adds them.
 */
#ifndef SP_RECORD_METADATA_H
#define SP_RECORD_METADATA_H

#include "model/model.h"

typedef struct sp_metadata_input {
    sp_metadata_detail detail;
    const char *label; /* NULL = none */
    int64_t mpi_size;
    int64_t num_nodes;
    int64_t start_time_ns;
    int64_t finalize_time_ns;
    int64_t mpi_rank; /* >= 0: stored as "mpi_rank" (a per-process file of a launched job) */
} sp_metadata_input;

/* Appends the metadata attributes to m, in the order they are written. */
sp_status sp_metadata_collect(sp_model *m, const sp_metadata_input *in);

#endif
