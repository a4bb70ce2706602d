/*
 * The reader's stages, shared between its files. Each fills one part of the
 * model and returns SP_OK or an error with rd->err set; on error the caller
 * clears the model, so a stage may leave it half filled.
 */
#ifndef SP_FORMAT_READ_INTERNAL_H
#define SP_FORMAT_READ_INTERNAL_H

#include "common/error.h"
#include "common/text_buffer.h"
#include "format/h5_read.h"
#include "model/model.h"

#define SP_READ_NEWEST_SCHEMA 3

/* /region_table/names into region_names (schemas 2 and 3). */
sp_status sp_rd_region_table(sp_rd *rd, sp_model *m);

/* /rank_region_index into rows (m->layout chooses event_* or aggregate_* columns). */
sp_status sp_rd_index(sp_rd *rd, sp_model *m);

/* Whether an optional per-row column of n rows is used (*use): it must have
 * one row per index row, except that aggregate files may leave it empty
 * (as the Python writer does), which counts as absent. */
sp_status sp_rd_optional_rows(sp_rd *rd, const sp_model *m, const char *path, size_t n, int *use);

/* Moves the n strings of values (each owned) into one block shared by the
 * model's rows, each distinct value once, and points values[] there (the
 * model frees the block, not the rows' copies). On failure values are
 * unchanged. */
sp_status sp_rd_share_strings(sp_rd *rd, sp_model *m, char **values, size_t n);

/* The per-row string column at path (present), shared as by
 * sp_rd_share_strings; a fixed-length column is shared straight from the
 * read buffer (no allocation per value). *out NULL with *n 0 when the
 * column counts as absent (sp_rd_optional_rows); on failure *out is NULL. */
sp_status sp_rd_shared_string_column(sp_rd *rd, sp_model *m, const char *path, char ***out,
                                     size_t *n);

/* Rows must name distinct (rank, region) pairs. */
sp_status sp_rd_check_unique_rows(sp_rd *rd, const sp_model *m);

/* /events: schema 3 start_deltas + durations, schema 2 start_times + end_times,
 * kept raw in starts/durations until sp_rd_decode_times; plus the optional
 * thread_ids, call_ids, parent_ids. */
sp_status sp_rd_events(sp_rd *rd, sp_model *m);

/* The same for a rank-selective read: only the events of rows without
 * events_skipped are read (the others stay 0); checks the index against the
 * columns' lengths first. */
sp_status sp_rd_events_selected(sp_rd *rd, sp_model *m);

/*
 * Turns the raw columns into absolute starts and durations (schema 3: starts
 * hold start deltas; schemas 1 and 2: durations hold end times) and checks
 * that every call lies in [0, INT64_MAX] with a duration >= 0 and that no
 * row's total overflows. Needs a checked index.
 */
sp_status sp_rd_decode_times(sp_rd *rd, sp_model *m);

/* Rows per block of the read's parallel passes over the calls
 * (sp_parallel_for): about 64 Ki calls each. Without the calls in memory (a
 * streamed read) or with fewer than 128 Ki of them, all rows in one block,
 * so that no thread is started (a thread's stack and arena would only cost
 * address space, which a streamed read under a memory cap cannot spare). */
size_t sp_rd_rows_per_block(const sp_model *m);

/* One row's raw calls (starts and durations of the row, as sp_rd_decode_times
 * reads them) decoded and checked in place; the same errors. */
sp_status sp_rd_decode_row(sp_rd *rd, const sp_model *m, size_t row, int64_t *starts,
                           int64_t *durations);

/* Thread ids ids[0..n) (events first.. of /events/thread_ids) are -1 or more. */
sp_status sp_rd_check_thread_ids(sp_rd *rd, const int64_t *ids, uint64_t first, uint64_t n);

/* For a streamed read: whether the decoded calls of one row lie in the run
 * and its stored statistics are theirs, i.e. sp_rd_plausibility would
 * neither drop nor recompute anything for it. */
int sp_rd_row_plausible(const sp_model *m, const sp_model_row *row, const int64_t *starts,
                        const int64_t *durations);

/* /rank_region_index/summary_statistics when present and complete. */
sp_status sp_rd_summary_statistics(sp_rd *rd, sp_model *m);

/* Statistics for the rows that have none yet (from their events, or from
 * the aggregate columns). */
void sp_rd_fill_missing_stats(sp_model *m);

/* Plausibility of every row's statistics (from the file or computed). */
sp_status sp_rd_check_stats(sp_rd *rd, const sp_model *m);

/* Optional tables: /thread_table and /scope_profiler_c/clock_offsets (read
 * after the thread table: each offset must be applicable to the rank's
 * calls, statistics and threads without leaving the int64 range). */
sp_status sp_rd_thread_table(sp_rd *rd, sp_model *m);
sp_status sp_rd_clock_offsets(sp_rd *rd, sp_model *m);
/* /scope_profiler_c/thread_forks (after the thread table): fork points. */
sp_status sp_rd_thread_forks(sp_rd *rd, sp_model *m);
/* /scope_profiler_c/message_bytes, one value per row (after the index). */
sp_status sp_rd_message_bytes(sp_rd *rd, sp_model *m);
/* After the metadata: thread times stored relative to start_time_ns made
 * absolute, like every other time in the model. */
sp_status sp_rd_thread_times(sp_rd *rd, sp_model *m);

/* Extension /scope_profiler_c/histograms (after the index): per (rank,
 * thread, call path) duration histograms, whose counts must add up to every
 * index row's calls. */
sp_status sp_rd_histograms(sp_rd *rd, sp_model *m);

/* /metadata attributes, in creation order when tracked, else by name. */
sp_status sp_rd_metadata(sp_rd *rd, sp_model *m);

/* The whole legacy layout: rank<N>/regions/<name>/{start_times,end_times}. */
sp_status sp_rd_schema1(sp_rd *rd, sp_model *m);

/* *found: whether the root holds a rank<N> group (a schema-1 profile). */
sp_status sp_rd_has_rank_groups(sp_rd *rd, int *found);

/* The parts against each other, once everything is read (plausibility.c):
 * run times, ranks against mpi_size, schema-1 rank groups, calls outside
 * the run (dropped and counted), statistics against their calls. */
sp_status sp_rd_plausibility(sp_rd *rd, sp_model *m);

#endif
