/*
 * Moving one rank's rows, thread table and calls to rank 0, which appends
 * them to the writer as they arrive. Rank 0 asks each rank in turn ("go"),
 * so it never holds more than one rank's index and one chunk of calls.
 */
#ifndef SP_MPI_RANK_STREAM_H
#define SP_MPI_RANK_STREAM_H

#include <mpi.h>

#include "format/writer.h"
#include "model/model.h"

/* Calls per message: 3 columns x 8 bytes x 512 Ki = 12 MiB of buffers on rank 0. */
#define SP_MPI_EVENT_CHUNK (512u * 1024u)

/* Rank r != 0: waits for rank 0's "go", then sends its model. */
int sp_mpi_send_rank(MPI_Comm comm, const sp_model *m);

/* Rank 0: appends rank r's data (or, for r == 0, its own model m) to the
 * writer, mapping region ids through map[0..map_length). */
sp_status sp_mpi_receive_rank(MPI_Comm comm, int r, const sp_model *own, sp_writer *w,
                              const uint32_t *map, size_t map_length, sp_error *err);

#endif
