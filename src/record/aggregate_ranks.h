/*
 * Aggregate mode under MPI: every rank's accumulators go to rank 0, which
 * writes the one file (the data is per call path, not per call, so the
 * rank-0 path is the right one at any scale; docs/mpi.md).
 */
#ifndef SP_RECORD_AGGREGATE_RANKS_H
#define SP_RECORD_AGGREGATE_RANKS_H

#include <stddef.h>
#include <stdint.h>

#include "common/visibility.h"
#include "model/model.h"
#include "record/session.h"

/* A rank's aggregate model (rows, thread table, histograms) as bytes for
 * rank 0 (malloc'ed, *size set); NULL when out of memory. */
SP_INTERNAL_API unsigned char *sp_internal_agg_pack(const sp_model *m, size_t *size);

/* Rank 0: describes the run (metadata), merges the ranks' bytes (packs[r]
 * of sizes[r], region ids through map[r][0..map_length[r]) into names) and
 * writes the file as sp_internal_session_write does. SP_ERR_OUT_OF_MEMORY
 * also for bytes that do not parse. */
SP_INTERNAL_API sp_status sp_internal_agg_write_ranks(sp_session_data *data,
                                                      const unsigned char *const *packs,
                                                      const size_t *sizes, int num_ranks,
                                                      char *const *names, size_t num_names,
                                                      uint32_t *const *map,
                                                      const size_t *map_length, int64_t num_nodes);

#endif
