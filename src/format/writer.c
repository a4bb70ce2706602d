#include "format/writer.h"

#include <errno.h>
#include <unistd.h>
#include <hdf5.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "format/atomic_file.h"
#include "format/chunk_compress.h"
#include "format/guarded_driver.h"
#include "format/h5_write.h"
#include "format/writer_tables.h"

#define SCHEMA_VERSION 3
/* Events per chunk of the event columns, also the staging size. */
#define EVENT_CHUNK_ELEMENTS SP_EVENT_CHUNK_ELEMENTS

struct sp_writer {
    char *path;
    char *tmp_path;
    const sp_target_id *since;
    char **saved_as;
    hid_t file;
    uint64_t total_events;
    uint64_t announced_events; /* sum of the counts of the rows added so far */
    uint64_t written_events;   /* events streamed so far */
    uint64_t flushed_events;   /* events already in the file */
    hid_t ds_starts, ds_durations, ds_threads;
    /* One chunk's worth of events waiting to be written. */
    int64_t *stage_deltas, *stage_durations, *stage_threads;
    size_t staged;
    /* Compressed columns: we compress each chunk (in parallel) and write it raw. */
    int gzip_level;        /* -1: HDF5 writes the columns as they are */
    int index_gzip_level;  /* the policy's level for the index columns that are chunked */
    size_t chunk_elements; /* the columns' chunk length */
    sp_chunk_job jobs[3];  /* deltas, durations, thread ids */
    /* The index, written at commit. */
    sp_model_row *rows;
    size_t num_rows, max_rows;
    /* Where the next streamed event goes: row, events left in it, previous start. */
    size_t stream_row;
    uint64_t stream_left;
    int64_t stream_previous;
    /* Optional tables, written at commit. */
    sp_thread_info *threads;
    size_t num_threads;
    int64_t time_origin_ns; /* /metadata start_time_ns: thread times are stored relative to it */
    sp_clock_offset *offsets;
    size_t num_offsets;
    sp_thread_fork *forks;
    size_t num_forks;
    int io_errno; /* first failed write, from the guarded driver */
    H5E_auto2_t saved_handler;
    void *saved_data;
};

/* Classifies a failure: the driver's errno tells a full disk from other trouble. */
static sp_status hdf5_failure(sp_writer *w, sp_error *err, const char *what) {
    int e = w->io_errno ? w->io_errno : errno;
    sp_status st = (e == ENOSPC || e == EDQUOT || e == EFBIG) ? SP_ERR_DISK_FULL : SP_ERR_HDF5;
    if (st == SP_ERR_DISK_FULL)
        return sp_error_set(err, st, "cannot write %s: %s; free some space or write elsewhere",
                            w->path, strerror(e));
    if (w->io_errno)
        return sp_error_set(err, SP_ERR_IO, "cannot write %s: %s; check the file system", w->path,
                            strerror(e));
    return sp_error_set(err, st, "cannot write %s: the HDF5 library failed while writing %s",
                        w->path, what);
}

static void free_rows(sp_writer *w) {
    for (size_t i = 0; i < w->num_rows; i++) {
        free(w->rows[i].source_file);
        free(w->rows[i].source_text);
        free(w->rows[i].tags);
        free(w->rows[i].event_metadata);
    }
    free(w->rows);
    w->rows = NULL;
    w->num_rows = 0;
}

static void free_jobs(sp_writer *w) {
    for (size_t i = 0; i < 3; i++) {
        free(w->jobs[i].shuffled);
        free(w->jobs[i].out);
    }
}

static void free_tables(sp_writer *w) {
    for (size_t i = 0; i < w->num_threads; i++)
        free(w->threads[i].name);
    free(w->threads);
    free(w->offsets);
    free(w->forks);
}

static void release(sp_writer *w) {
    if (w->ds_starts >= 0) H5Dclose(w->ds_starts);
    if (w->ds_durations >= 0) H5Dclose(w->ds_durations);
    if (w->ds_threads >= 0) H5Dclose(w->ds_threads);
    if (w->file >= 0) H5Fclose(w->file);
    H5Eset_auto2(H5E_DEFAULT, w->saved_handler, w->saved_data);
    free_rows(w);
    free_tables(w);
    free_jobs(w);
    free(w->stage_deltas);
    free(w->stage_durations);
    free(w->stage_threads);
    free(w->tmp_path);
    free(w->path);
    free(w);
}

void sp_writer_abort(sp_writer *w) {
    if (!w) return;
    char *tmp = w->tmp_path;
    w->tmp_path = NULL;
    release(w);
    sp_atomic_abort(tmp);
    free(tmp);
}

void sp_writer_guard_target(sp_writer *w, const sp_target_id *since, char **saved_as) {
    w->since = since;
    w->saved_as = saved_as;
}

static hid_t create_event_column(sp_writer *w, hid_t group, const char *name, int gzip_level) {
    hsize_t dims = w->total_events;
    hid_t space = H5Screate_simple(1, &dims, NULL);
    hid_t dcpl = sp_h5_dcpl(w->total_events, sizeof(int64_t), EVENT_CHUNK_ELEMENTS, gzip_level);
    hid_t ds = -1;
    if (space >= 0 && dcpl >= 0)
        ds = H5Dcreate2(group, name, H5T_STD_I64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (dcpl >= 0) H5Pclose(dcpl);
    if (space >= 0) H5Sclose(space);
    return ds;
}

static int prepare_jobs(sp_writer *w) {
    for (size_t i = 0; i < 3; i++) {
        sp_chunk_job *job = &w->jobs[i];
        job->chunk_elements = w->chunk_elements;
        job->level = w->gzip_level;
        job->shuffled = malloc(w->chunk_elements * sizeof(int64_t));
        job->out = malloc(sp_chunk_bound(w->chunk_elements));
        if (!job->shuffled || !job->out) return 0;
    }
    return 1;
}

int sp_writer_gzip_level(uint64_t total_events, const sp_write_options *o) {
    switch (o ? o->compression : SP_COMPRESSION_AUTO) {
    case SP_COMPRESSION_NONE:
        return -1;
    case SP_COMPRESSION_GZIP:
        return o->compression_level;
    default:
        return total_events >= SP_AUTO_COMPRESSION_MIN_EVENTS ? SP_AUTO_GZIP_LEVEL : -1;
    }
}

sp_writer *sp_writer_create(const char *path, uint64_t total_events, int has_thread_ids,
                            const sp_write_options *options, sp_error *err) {
    sp_writer *w = calloc(1, sizeof *w);
    if (!w) {
        sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "cannot write %s: out of memory", path);
        return NULL;
    }
    w->file = w->ds_starts = w->ds_durations = w->ds_threads = -1;
    H5Eget_auto2(H5E_DEFAULT, &w->saved_handler, &w->saved_data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* errors become statuses, not stack dumps */
    w->total_events = total_events;
    w->path = strdup(path);
    w->stage_deltas = malloc(EVENT_CHUNK_ELEMENTS * sizeof(int64_t));
    w->stage_durations = malloc(EVENT_CHUNK_ELEMENTS * sizeof(int64_t));
    if (has_thread_ids) w->stage_threads = malloc(EVENT_CHUNK_ELEMENTS * sizeof(int64_t));
    if (!w->path || !w->stage_deltas || !w->stage_durations ||
        (has_thread_ids && !w->stage_threads)) {
        sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "cannot write %s: out of memory", path);
        release(w);
        return NULL;
    }
    w->tmp_path = sp_atomic_begin(path, err);
    if (!w->tmp_path) {
        release(w);
        return NULL;
    }
    errno = 0;
    hid_t fapl = sp_guarded_fapl(&w->io_errno);
    w->file = fapl >= 0 ? H5Fcreate(w->tmp_path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl) : -1;
    if (fapl >= 0) H5Pclose(fapl);
    if (w->file < 0) {
        hdf5_failure(w, err, "the file header");
        sp_writer_abort(w);
        return NULL;
    }
    int gzip_level = sp_writer_gzip_level(total_events, options);
    /* Small columns are contiguous (FORMAT.md 2.2), and contiguous ones carry no filter. */
    w->gzip_level = total_events * sizeof(int64_t) > SP_CONTIGUOUS_MAX_BYTES ? gzip_level : -1;
    w->index_gzip_level = gzip_level;
    w->chunk_elements = total_events < EVENT_CHUNK_ELEMENTS ? total_events : EVENT_CHUNK_ELEMENTS;
    if (w->gzip_level >= 0 && !prepare_jobs(w)) {
        sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "cannot write %s: out of memory", path);
        sp_writer_abort(w);
        return NULL;
    }
    hid_t events = H5Gcreate2(w->file, "events", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (events >= 0) {
        w->ds_starts = create_event_column(w, events, "start_deltas", gzip_level);
        w->ds_durations = create_event_column(w, events, "durations", gzip_level);
        if (has_thread_ids)
            w->ds_threads = create_event_column(w, events, "thread_ids", gzip_level);
        H5Gclose(events);
    }
    if (events < 0 || w->ds_starts < 0 || w->ds_durations < 0 ||
        (has_thread_ids && w->ds_threads < 0) ||
        sp_h5_attr_int64(w->file, "scope_profiler_schema", SCHEMA_VERSION) < 0 ||
        sp_h5_attr_string(w->file, "storage_layout", "columnar") < 0) {
        hdf5_failure(w, err, "the event columns");
        sp_writer_abort(w);
        return NULL;
    }
    return w;
}

sp_status sp_writer_put_regions(sp_writer *w, char *const *names, size_t count, sp_error *err) {
    hid_t group = H5Gcreate2(w->file, "region_table", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc =
        group >= 0 ? sp_h5_write_strings(group, "names", (const char *const *)names, count) : -1;
    if (group >= 0 && H5Gclose(group) < 0) rc = -1;
    return rc < 0 ? hdf5_failure(w, err, "/region_table") : SP_OK;
}

sp_status sp_writer_put_metadata(sp_writer *w, const sp_meta_entry *meta, size_t count,
                                 sp_error *err) {
    w->time_origin_ns = sp_metadata_time_origin(meta, count);
    return sp_write_metadata(w->file, meta, count) < 0 ? hdf5_failure(w, err, "/metadata") : SP_OK;
}

static int write_slab(hid_t ds, uint64_t offset, const int64_t *data, size_t n) {
    hsize_t start = offset, count = n;
    hid_t file_space = H5Dget_space(ds);
    hid_t mem_space = H5Screate_simple(1, &count, NULL);
    int rc = -1;
    if (file_space >= 0 && mem_space >= 0 &&
        H5Sselect_hyperslab(file_space, H5S_SELECT_SET, &start, NULL, &count, NULL) >= 0 &&
        H5Dwrite(ds, H5T_NATIVE_INT64, mem_space, file_space, H5P_DEFAULT, data) >= 0)
        rc = 0;
    if (mem_space >= 0) H5Sclose(mem_space);
    if (file_space >= 0) H5Sclose(file_space);
    return rc;
}

/* Compresses the staged chunk of every column at once and writes the chunks raw. */
static int write_compressed_stage(sp_writer *w) {
    const int64_t *columns[3] = {w->stage_deltas, w->stage_durations, w->stage_threads};
    hid_t datasets[3] = {w->ds_starts, w->ds_durations, w->ds_threads};
    size_t count = w->ds_threads >= 0 ? 3 : 2;
    for (size_t i = 0; i < count; i++) {
        w->jobs[i].values = columns[i];
        w->jobs[i].n = w->staged;
    }
    if (!sp_chunk_compress_all(w->jobs, count)) return -1;
    hsize_t offset = w->flushed_events;
    for (size_t i = 0; i < count; i++)
        if (H5Dwrite_chunk(datasets[i], H5P_DEFAULT, 0, &offset, w->jobs[i].out_size,
                           w->jobs[i].out) < 0)
            return -1;
    return 0;
}

static sp_status flush_stage(sp_writer *w, sp_error *err) {
    if (!w->staged) return SP_OK;
    errno = 0;
    int rc;
    if (w->gzip_level >= 0) {
        rc = write_compressed_stage(w);
    } else {
        rc = write_slab(w->ds_starts, w->flushed_events, w->stage_deltas, w->staged) < 0 ||
                     write_slab(w->ds_durations, w->flushed_events, w->stage_durations, w->staged) <
                         0 ||
                     (w->ds_threads >= 0 &&
                      write_slab(w->ds_threads, w->flushed_events, w->stage_threads, w->staged) < 0)
                 ? -1
                 : 0;
    }
    if (rc < 0 || w->io_errno) return hdf5_failure(w, err, "/events");
    w->flushed_events += w->staged;
    w->staged = 0;
    return SP_OK;
}

static sp_status out_of_memory(sp_writer *w, sp_error *err) {
    return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "cannot write %s: out of memory", w->path);
}

static sp_status keep_row(sp_writer *w, const sp_model_row *row, sp_error *err) {
    if (w->num_rows == w->max_rows) {
        size_t max = w->max_rows ? w->max_rows * 2 : 64;
        sp_model_row *grown = realloc(w->rows, max * sizeof *grown);
        if (!grown) return out_of_memory(w, err);
        w->rows = grown;
        w->max_rows = max;
    }
    sp_model_row *copy = &w->rows[w->num_rows];
    *copy = *row;
    copy->offset = w->announced_events;
    copy->source_file = sp_strdup(row->source_file);
    copy->source_text = sp_strdup(row->source_text);
    copy->tags = sp_strdup(row->tags ? row->tags : "[]");
    copy->event_metadata = sp_strdup(row->event_metadata ? row->event_metadata : "[]");
    w->num_rows++;
    w->announced_events += row->count;
    if (!copy->source_file || !copy->source_text || !copy->tags || !copy->event_metadata)
        return out_of_memory(w, err);
    return SP_OK;
}

sp_status sp_writer_add_rows(sp_writer *w, const sp_model_row *rows, size_t num_rows,
                             sp_error *err) {
    for (size_t r = 0; r < num_rows; r++) {
        if (rows[r].count > w->total_events - w->announced_events)
            return sp_error_set(err, SP_ERR_INVALID_ARGUMENT,
                                "cannot write %s: more events than announced", w->path);
        sp_status st = keep_row(w, &rows[r], err);
        if (st) return st;
    }
    return SP_OK;
}

sp_status sp_writer_add_events(sp_writer *w, const int64_t *starts, const int64_t *durations,
                               const int64_t *thread_ids, size_t n, sp_error *err) {
    if (n > w->announced_events - w->written_events)
        return sp_error_set(err, SP_ERR_INVALID_ARGUMENT,
                            "cannot write %s: events beyond the rows added", w->path);
    for (size_t i = 0; i < n; i++) {
        int first = 0;
        while (w->stream_left == 0) { /* the next row with calls */
            w->stream_left = w->rows[w->stream_row++].count;
            first = 1;
        }
        /* start_deltas: a row's first start is absolute, then differences (FORMAT.md 2.1) */
        w->stage_deltas[w->staged] = first ? starts[i] : starts[i] - w->stream_previous;
        w->stream_previous = starts[i];
        w->stream_left--;
        w->stage_durations[w->staged] = durations[i];
        if (w->stage_threads) w->stage_threads[w->staged] = thread_ids ? thread_ids[i] : 0;
        sp_status st;
        if (++w->staged == EVENT_CHUNK_ELEMENTS && (st = flush_stage(w, err))) return st;
    }
    w->written_events += n;
    return SP_OK;
}

sp_status sp_writer_append(sp_writer *w, const sp_model_row *rows, size_t num_rows,
                           const int64_t *starts, const int64_t *durations,
                           const int64_t *thread_ids, sp_error *err) {
    for (size_t r = 0; r < num_rows; r++) {
        const sp_model_row *row = &rows[r];
        sp_status st = sp_writer_add_rows(w, row, 1, err);
        if (!st)
            st =
                sp_writer_add_events(w, starts + row->offset, durations + row->offset,
                                     thread_ids ? thread_ids + row->offset : NULL, row->count, err);
        if (st) return st;
    }
    return SP_OK;
}

sp_status sp_writer_set_row_stats(sp_writer *w, size_t row, const sp_row_stats *stats,
                                  sp_error *err) {
    if (row >= w->num_rows)
        return sp_error_set(err, SP_ERR_INVALID_ARGUMENT,
                            "cannot write %s: statistics for row %zu of %zu", w->path, row,
                            w->num_rows);
    w->rows[row].stats = *stats;
    w->rows[row].has_stats = 1;
    return SP_OK;
}

sp_status sp_writer_put_threads(sp_writer *w, const sp_thread_info *threads, size_t count,
                                sp_error *err) {
    sp_thread_info *grown = realloc(w->threads, (w->num_threads + count + 1) * sizeof *grown);
    if (!grown) return out_of_memory(w, err);
    w->threads = grown;
    for (size_t i = 0; i < count; i++) {
        sp_thread_info *t = &w->threads[w->num_threads];
        *t = threads[i];
        t->name = sp_strdup(threads[i].name);
        if (!t->name) return out_of_memory(w, err);
        w->num_threads++;
    }
    return SP_OK;
}

/* Replaces *dst (of *n elements) with a copy of count elements of src; 0 when out of memory. */
static int copy_table(void **dst, size_t *n, const void *src, size_t count, size_t size) {
    free(*dst);
    *n = 0;
    *dst = malloc((count ? count : 1) * size);
    if (!*dst) return 0;
    memcpy(*dst, src, count * size);
    *n = count;
    return 1;
}

sp_status sp_writer_put_clock_offsets(sp_writer *w, const sp_clock_offset *offsets, size_t count,
                                      sp_error *err) {
    void *copy = w->offsets;
    int ok = copy_table(&copy, &w->num_offsets, offsets, count, sizeof *offsets);
    w->offsets = copy;
    return ok ? SP_OK : out_of_memory(w, err);
}

sp_status sp_writer_put_forks(sp_writer *w, const sp_thread_fork *forks, size_t count,
                              sp_error *err) {
    /* appended: the MPI stream writer adds every rank's */
    sp_thread_fork *grown = realloc(w->forks, (w->num_forks + count + 1) * sizeof *grown);
    if (!grown) return out_of_memory(w, err);
    w->forks = grown;
    memcpy(w->forks + w->num_forks, forks, count * sizeof *forks);
    w->num_forks += count;
    return SP_OK;
}

sp_status sp_writer_commit(sp_writer *w, sp_error *err) {
    sp_status st = flush_stage(w, err);
    if (!st && (w->written_events != w->total_events || w->announced_events != w->total_events))
        st = sp_error_set(err, SP_ERR_INVALID_ARGUMENT,
                          "cannot write %s: fewer events than announced", w->path);
    if (!st) {
        errno = 0;
        hid_t group =
            H5Gcreate2(w->file, "rank_region_index", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        int rc = group >= 0 ? sp_write_index(group, w->rows, w->num_rows, w->index_gzip_level) : -1;
        if (group >= 0 && H5Gclose(group) < 0) rc = -1;
        /* FORMAT.md: /thread_table only in files whose calls carry thread ids */
        if (rc == 0 && w->ds_threads >= 0 && w->num_threads)
            rc = sp_write_thread_table(w->file, w->threads, w->num_threads, w->time_origin_ns);
        if (rc == 0 && w->num_offsets)
            rc = sp_write_clock_offsets(w->file, w->offsets, w->num_offsets);
        if (rc == 0 && w->ds_threads >= 0 && w->num_threads)
            rc = sp_write_thread_parents(w->file, w->threads, w->num_threads);
        if (rc == 0 && w->ds_threads >= 0 && w->num_threads)
            rc = sp_write_thread_forks(w->file, w->forks, w->num_forks);
        if (rc == 0) rc = sp_write_message_bytes(w->file, w->rows, w->num_rows);
        if (rc < 0) st = hdf5_failure(w, err, "/rank_region_index");
    }
    if (!st) {
        /* Close everything now: a failure to flush must still abort the commit. */
        H5Dclose(w->ds_starts);
        H5Dclose(w->ds_durations);
        if (w->ds_threads >= 0) H5Dclose(w->ds_threads);
        w->ds_starts = w->ds_durations = w->ds_threads = -1;
        errno = 0;
        herr_t closed = H5Fclose(w->file);
        w->file = -1;
        if (closed < 0 || w->io_errno) st = hdf5_failure(w, err, "the file's last blocks");
    }
    if (st) {
        sp_writer_abort(w);
        return st;
    }
    st = sp_atomic_commit_checked(w->tmp_path, w->path, w->since, w->saved_as, err);
    release(w);
    return st;
}

sp_status sp_write_model(const sp_model *m, const char *path, const sp_write_options *options,
                         sp_error *err) {
    return sp_write_model_guarded(m, path, options, NULL, NULL, err);
}

sp_status sp_write_model_guarded(const sp_model *m, const char *path,
                                 const sp_write_options *options, const sp_target_id *since,
                                 char **saved_as, sp_error *err) {
    sp_writer *w = sp_writer_create(path, m->num_events, m->thread_ids != NULL, options, err);
    if (!w) return err ? err->status : SP_ERR_IO;
    sp_writer_guard_target(w, since, saved_as);
    sp_status st = sp_writer_put_regions(w, m->region_names, m->num_regions, err);
    if (!st) st = sp_writer_put_metadata(w, m->meta, m->num_meta, err);
    if (!st)
        st = sp_writer_append(w, m->rows, m->num_rows, m->starts, m->durations, m->thread_ids, err);
    if (!st && m->threads) st = sp_writer_put_threads(w, m->threads, m->num_threads, err);
    if (!st && m->clock_offsets)
        st = sp_writer_put_clock_offsets(w, m->clock_offsets, m->num_clock_offsets, err);
    if (!st && m->forks) st = sp_writer_put_forks(w, m->forks, m->num_forks, err);
    if (st) {
        sp_writer_abort(w);
        return st;
    }
    return sp_writer_commit(w, err);
}
