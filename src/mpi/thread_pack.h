/*
 * One thread-table entry, and a rank's fork points, as ranks send them to
 * each other (the stream writer's index and the parallel writer's tail): the
 * same fields in the same order on both sides.
 */
#ifndef SP_MPI_THREAD_PACK_H
#define SP_MPI_THREAD_PACK_H

#include <stdint.h>

#include "model/model.h"
#include "common/blob.h"

void sp_thread_pack_put(sp_blob *b, const sp_thread_info *t);

/* Reads one entry into *t for `rank` (the name malloc'ed; on a short buffer
 * in->failed is set). */
void sp_thread_pack_get(sp_blob_reader *in, sp_thread_info *t, uint32_t rank);

/* A rank's fork points (docs/parallel.md §1): their count, then each. */
void sp_forks_pack_put(sp_blob *b, const sp_model *m);

/* Reads them for `rank` into a malloc'ed *forks (NULL when none); 0 on a
 * short buffer or out of memory. */
int sp_forks_pack_get(sp_blob_reader *in, uint32_t rank, sp_thread_fork **forks, size_t *n);

#endif
