/*
 * Writing a model in the aggregate layout (FORMAT.md §3, as the Python
 * package's aggregation mode lays it out) plus our histogram extension:
 * for the aggregate recorder (issue 17) and for tests. Not atomic: the file
 * is created in place (the recorder will commit through atomic_file.h).
 */
#ifndef SP_FORMAT_WRITE_AGGREGATE_H
#define SP_FORMAT_WRITE_AGGREGATE_H

#include "common/visibility.h"
#include "model/model.h"

/* Region table, /rank_region_index with region_ids, ranks, aggregate_counts,
 * aggregate_totals, aggregate_minimums, aggregate_maximums (and
 * aggregate_exclusives when every row has one), scalar /metadata entries,
 * and /scope_profiler_c/histograms when the model has histograms. Rows'
 * count and stats.total/minimum/maximum are written. SP_ERR_HDF5 or
 * SP_ERR_OUT_OF_MEMORY with err set. */
SP_INTERNAL_API sp_status sp_write_aggregate_model(const sp_model *m, const char *path,
                                                   sp_error *err);

#endif
