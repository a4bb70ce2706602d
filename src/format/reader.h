/*
 * The profile reader: FORMAT.md schemas 3 (columnar and aggregate), 2 and 1
 * into the columnar model, every time decoded to absolute int64 ns.
 *
 * It trusts nothing in the file: shapes, types and extents are checked
 * before anything is allocated, the index is checked against the columns
 * (sp_model_check_index plus equal column lengths and distinct rows), and
 * every call must lie in [0, INT64_MAX] with a duration >= 0, so that later
 * arithmetic on the model cannot overflow a row.
 *
 * Statuses (messages are one line starting with the path):
 *   SP_ERR_NO_SUCH_FILE   the path does not exist
 *   SP_ERR_PERMISSION     it exists but cannot be read
 *   SP_ERR_IO             other trouble reaching it (a directory; a file another
 *                         process holds the HDF5 write lock on)
 *   SP_ERR_NOT_HDF5       not an HDF5 file
 *   SP_ERR_NOT_A_PROFILE  HDF5, but neither /rank_region_index nor rank<N> groups
 *   SP_ERR_SCHEMA_TOO_NEW scope_profiler_schema above 3, or an unknown storage_layout
 *   SP_ERR_BAD_DATASET    a dataset of the wrong class or rank (a float or string
 *                         where integers belong, a 2-D column, a group for a dataset)
 *   SP_ERR_DAMAGED        HDF5 cannot open or read it, a required dataset is
 *                         missing, or index and columns disagree
 *   SP_ERR_OUT_OF_MEMORY
 *
 * Defaults for what older or smaller files leave out: source_lines and
 * exclusive_totals -1, source_files/source_texts "", tags and event_metadata
 * "[]". Statistics come from summary_statistics when it has every field
 * (matched by name, any integer or float width), else from the events; rows
 * of the aggregate layout without it get count/total/minimum/maximum from the
 * aggregate_* columns, mean = total / count and m2 = NaN (unknown).
 *
 * Last, the parts are checked against each other (plausibility.c,
 * docs/robustness.md): a call that cannot lie in the run is dropped and
 * counted in the metadata entry SP_CALLS_DROPPED_KEY, statistics that
 * describe other calls than their row holds are computed again from the
 * calls (SP_STATS_RECOMPUTED_KEY counts the rows); other contradictions are
 * SP_ERR_DAMAGED.
 */
#ifndef SP_FORMAT_READER_H
#define SP_FORMAT_READER_H

#include "model/model.h"
#include "scope_profiler/results.h"

#define SP_CALLS_DROPPED_KEY "calls_dropped_as_implausible"
#define SP_STATS_RECOMPUTED_KEY "statistics_recomputed_on_read"

/*
 * Reads the profile at path into *out (overwritten; free with sp_model_clear).
 * out->path is left NULL. On failure *out is empty and err says why.
 * HDF5's automatic error printing is off while it runs.
 */
sp_status sp_read_model(const char *path, sp_model *out, sp_error *err);

/*
 * The same, but only the events of the given ranks are read from the file
 * (ranks NULL: all), when the file allows it: schema 2 or 3 columnar with
 * summary_statistics for every row and no /events/thread_ids. The index, the metadata, the region
 * and thread tables are read whole; rows of other ranks keep their statistics and get
 * events_skipped (their event values are zeros). Otherwise the whole file is read.
 * out->num_events_loaded says how many events were read. Every analysis restricted to the chosen
 * ranks gives what a full read gives.
 */
sp_status sp_read_model_ranks(const char *path, const uint32_t *ranks, size_t num_ranks,
                              sp_model *out, sp_error *err);

/*
 * The same as sp_read_model, but the event columns stay in the file
 * (out->event_source, model/event_window.h) when the file allows it:
 * schema 2 or 3 columnar, summary_statistics for every row, no thread ids
 * and no clock offsets, and every call passing the read's checks without a
 * repair (one pass over the calls, a window at a time, checks that). Any
 * other file, damaged ones included, is read whole by sp_read_model, with
 * its messages.
 */
sp_status sp_read_model_streamed(const char *path, sp_model *out, sp_error *err);

/* sp_read with sp_read_model_streamed: for the passes that read the calls
 * window by window (events, the call walker of the exports, the Gantt
 * chart); other analyses need the model's columns (a model read whole). */
SP_INTERNAL_API sp_results *sp_read_streamed(const char *path, sp_error *err);

#endif
