/*
 * Writing the index and the optional tables of a profile (writer.c commits
 * them after the event columns).
 */
#ifndef SP_FORMAT_WRITER_TABLES_H
#define SP_FORMAT_WRITER_TABLES_H

#include <hdf5.h>

#include "model/model.h"

/* The summary_statistics compound (FORMAT.md 2.3): in memory (sp_row_stats)
 * and the packed little-endian layout fixed on disk. Close with H5Tclose. */
hid_t sp_h5_stats_memory_type(void);
hid_t sp_h5_stats_file_type(void);

/* The /rank_region_index datasets under group, rows' offsets as given;
 * columns large enough to be chunked get shuffle + gzip at gzip_level (-1: none). */
int sp_write_index(hid_t group, const sp_model_row *rows, size_t n, int gzip_level);

/* /rank_region_index/summary_statistics (FORMAT.md 2.3) under group. */
int sp_write_summary_statistics(hid_t group, const sp_model_row *rows, size_t n, int gzip_level);

/* /thread_table. */
int sp_write_thread_table(hid_t file, const sp_thread_info *threads, size_t count,
                          int64_t time_origin_ns);

/* /scope_profiler_c/clock_offsets (extension_version 1). */
int sp_write_clock_offsets(hid_t file, const sp_clock_offset *offsets, size_t count);

/* /scope_profiler_c/thread_parents (extension_version 1), one value per
 * /thread_table row; nothing when no thread has a parent. */
int sp_write_thread_parents(hid_t file, const sp_thread_info *threads, size_t count);

/* /scope_profiler_c/thread_forks (extension_version 1): one row per fork
 * point; nothing when there are none. */
int sp_write_thread_forks(hid_t file, const sp_thread_fork *forks, size_t n);

/* /scope_profiler_c/message_bytes (extension_version 1), one value per
 * /rank_region_index row (-1: not counted); nothing when no row has bytes. */
int sp_write_message_bytes(hid_t file, const sp_model_row *rows, size_t n);

/* The /metadata group: its attributes in order (creation order tracked). */
int sp_write_metadata(hid_t file, const sp_meta_entry *meta, size_t count);

/* The metadata's start_time_ns (thread times are stored relative to it), or 0. */
int64_t sp_metadata_time_origin(const sp_meta_entry *meta, size_t count);

#endif
