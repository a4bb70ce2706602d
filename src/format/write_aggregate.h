/*
 * Writing a model in the aggregate layout (FORMAT.md §3, as the Python
 * package's aggregation mode lays it out) plus our histogram extension:
 * for the aggregate recorder (issue 17) and for tests. Committed like the
 * columnar writer (format/atomic_file.h): a temporary file beside the
 * target, fsync'ed and renamed over it.
 */
#ifndef SP_FORMAT_WRITE_AGGREGATE_H
#define SP_FORMAT_WRITE_AGGREGATE_H

#include "common/visibility.h"
#include "format/atomic_file.h"
#include "model/model.h"

/* Region table, /rank_region_index with region_ids, ranks, aggregate_counts,
 * aggregate_totals, aggregate_minimums, aggregate_maximums (and
 * aggregate_exclusives when every row has one), summary_statistics (every
 * row's, when every row has them, else no rows), the Python package's
 * per-call columns and /events with no rows, /metadata, /thread_table when
 * the model has threads, and /scope_profiler_c/histograms when it has
 * histograms. Errors as the columnar writer's (SP_ERR_HDF5, SP_ERR_IO,
 * SP_ERR_DISK_FULL, ...) with err set. `since`/`saved_as` as in
 * sp_atomic_commit_checked (NULL: no check). */
SP_INTERNAL_API sp_status sp_write_aggregate_model_guarded(const sp_model *m, const char *path,
                                                           const sp_target_id *since,
                                                           char **saved_as, sp_error *err);
SP_INTERNAL_API sp_status sp_write_aggregate_model(const sp_model *m, const char *path,
                                                   sp_error *err);

#endif
