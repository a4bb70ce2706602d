/*
 * One thread-table entry as ranks send it to each other (the stream writer's
 * index and the parallel writer's tail): the same fields in the same order
 * on both sides.
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

#endif
