/*
 * Rank clock alignment: an MPI profile stores each rank's raw timestamps and,
 * as our extension, each rank's offset to rank 0's clock
 * (/scope_profiler_c/clock_offsets). The results put every rank on rank 0's
 * clock once, when they are built, so that everything comparing ranks
 * (time_origin, first starts, region order, events, the table) agrees.
 */
#ifndef SP_ANALYSIS_CLOCK_ALIGNMENT_H
#define SP_ANALYSIS_CLOCK_ALIGNMENT_H

#include "model/model.h"

/* Adds each rank's offset to its starts, row start/end extremes and thread spans. */
void sp_align_rank_clocks(sp_model *m);

/* The offset sp_align_rank_clocks added to rank's times (0 without one);
 * *hint speeds up repeated lookups (start it at 0). */
int64_t sp_rank_clock_offset(const sp_model *m, uint32_t rank, size_t *hint);

#endif
