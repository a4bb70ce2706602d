/*
 * The profile writer: FORMAT.md schema 3, columnar. Streams events so that
 * the caller never needs all of them at once (the MPI library appends rank
 * by rank), and commits atomically: the file is written under a temporary
 * name in the target's directory, fsync'ed, then renamed over the target.
 */
#ifndef SP_FORMAT_WRITER_H
#define SP_FORMAT_WRITER_H

#include "common/visibility.h"
#include <stdint.h>

#include "format/atomic_file.h"
#include "model/model.h"

typedef struct sp_write_options {
    sp_compression compression;
    int compression_level; /* with SP_COMPRESSION_GZIP */
} sp_write_options;

/* Events below this count are not compressed under SP_COMPRESSION_AUTO. */
#define SP_AUTO_COMPRESSION_MIN_EVENTS 16384
#define SP_AUTO_GZIP_LEVEL             4

typedef struct sp_writer sp_writer;

/* The gzip level of the event columns for this many events (-1: none); the
 * parallel writer of src/mpi/ creates its columns with the same policy. */
SP_INTERNAL_API int sp_writer_gzip_level(uint64_t total_events, const sp_write_options *options);

/* Event-column chunk length (512 KiB of int64). */
#define SP_EVENT_CHUNK_ELEMENTS 65536u

/*
 * Creates the temporary file for `path`. The totals fix the event columns'
 * length; has_thread_ids adds /events/thread_ids. Errors: SP_ERR_NO_DIRECTORY,
 * SP_ERR_PERMISSION, SP_ERR_DISK_FULL, SP_ERR_IO, SP_ERR_HDF5.
 */
SP_INTERNAL_API sp_writer *sp_writer_create(const char *path, uint64_t total_events,
                                            int has_thread_ids, const sp_write_options *options,
                                            sp_error *err);

/* Optional: the target as it was when the run started (kept until commit);
 * if another process writes it meanwhile, both are kept and *saved_as
 * (malloc'ed) names ours. */
SP_INTERNAL_API void sp_writer_guard_target(sp_writer *w, const sp_target_id *since,
                                            char **saved_as);

/* The region table (region ids index it). */
SP_INTERNAL_API sp_status sp_writer_put_regions(sp_writer *w, char *const *names, size_t count,
                                                sp_error *err);

/* /metadata attributes, in order. */
SP_INTERNAL_API sp_status sp_writer_put_metadata(sp_writer *w, const sp_meta_entry *meta,
                                                 size_t count, sp_error *err);

/*
 * Appends rows and their events: row i's events are starts/durations
 * [rows[i].offset, rows[i].offset + rows[i].count) of the given arrays
 * (thread_ids may be NULL). The rows' offsets in the file are assigned here.
 */
SP_INTERNAL_API sp_status sp_writer_append(sp_writer *w, const sp_model_row *rows, size_t num_rows,
                                           const int64_t *starts, const int64_t *durations,
                                           const int64_t *thread_ids, sp_error *err);

/* Streaming: rows first (their offsets are assigned in order), then their
 * events in row order, in as many pieces as convenient (thread_ids may be
 * NULL: thread 0). sp_writer_append() is both for rows whose events are
 * slices [offset, offset + count) of the given arrays. */
SP_INTERNAL_API sp_status sp_writer_add_rows(sp_writer *w, const sp_model_row *rows,
                                             size_t num_rows, sp_error *err);
SP_INTERNAL_API sp_status sp_writer_add_events(sp_writer *w, const int64_t *starts,
                                               const int64_t *durations, const int64_t *thread_ids,
                                               size_t n, sp_error *err);

/* The summary statistics of row `row` (counted from 0 over the rows added),
 * for a caller that learns them only while it streams the row's events. */
SP_INTERNAL_API sp_status sp_writer_set_row_stats(sp_writer *w, size_t row,
                                                  const sp_row_stats *stats, sp_error *err);

/* Optional tables, written at commit: threads accumulate over calls (the table
 * is written only when the file has thread ids); clock offsets replace. */
SP_INTERNAL_API sp_status sp_writer_put_threads(sp_writer *w, const sp_thread_info *threads,
                                                size_t count, sp_error *err);

/* Adds fork points (model.h sp_thread_fork), written with the thread table. */
SP_INTERNAL_API sp_status sp_writer_put_forks(sp_writer *w, const sp_thread_fork *forks,
                                              size_t count, sp_error *err);
SP_INTERNAL_API sp_status sp_writer_put_clock_offsets(sp_writer *w, const sp_clock_offset *offsets,
                                                      size_t count, sp_error *err);

/* Writes the index, closes, syncs and renames into place. Frees w either way. */
SP_INTERNAL_API sp_status sp_writer_commit(sp_writer *w, sp_error *err);

/* Discards the temporary file. Frees w. */
SP_INTERNAL_API void sp_writer_abort(sp_writer *w);

/* Writes a whole model in one go. */
SP_INTERNAL_API sp_status sp_write_model(const sp_model *m, const char *path,
                                         const sp_write_options *options, sp_error *err);
/* The same with sp_writer_guard_target(). */
SP_INTERNAL_API sp_status sp_write_model_guarded(const sp_model *m, const char *path,
                                                 const sp_write_options *options,
                                                 const sp_target_id *since, char **saved_as,
                                                 sp_error *err);

#endif
