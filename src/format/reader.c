#include "format/reader.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "format/event_source.h"
#include "format/vlen_guard.h"
#include "format/guarded_driver.h"
#include "format/lzf_filter.h"
#include "format/read_internal.h"

/* Existence, readability and the HDF5 signature, each with its own status. */
static sp_status check_file(const char *path, sp_error *err) {
    struct stat sb;
    if (stat(path, &sb) != 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            return sp_error_set(err, SP_ERR_NO_SUCH_FILE, "%s: no such file", path);
        if (errno == EACCES)
            return sp_error_set(err, SP_ERR_PERMISSION, "%s: permission denied", path);
        return sp_error_set(err, SP_ERR_IO, "%s: %s", path, strerror(errno));
    }
    if (S_ISDIR(sb.st_mode))
        return sp_error_set(err, SP_ERR_IO, "%s: is a directory, not a profile file", path);
    /* opening a FIFO would block until a writer comes; HDF5 needs to seek anyway */
    if (!S_ISREG(sb.st_mode))
        return sp_error_set(err, SP_ERR_IO,
                            "%s: is a %s, not a regular file; save the profile to a file first",
                            path, S_ISFIFO(sb.st_mode) ? "FIFO" : "special file");
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        if (errno == EACCES)
            return sp_error_set(err, SP_ERR_PERMISSION, "%s: permission denied", path);
        return sp_error_set(err, SP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    }
    close(fd);
#if H5_VERSION_GE(1, 12, 0)
    htri_t is_hdf5 = H5Fis_accessible(path, H5P_DEFAULT);
#else
    htri_t is_hdf5 = H5Fis_hdf5(path);
#endif
    if (is_hdf5 <= 0) return sp_error_set(err, SP_ERR_NOT_HDF5, "%s: not an HDF5 file", path);
    return SP_OK;
}

/* HDF5 locks files while writing them (h5py holds the lock until it closes). */
static sp_status open_failed(const char *path, sp_error *err) {
    if (errno == ENOMEM)
        return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "%s: out of memory while reading", path);
    if (errno == EWOULDBLOCK || errno == EAGAIN)
        return sp_error_set(err, SP_ERR_IO,
                            "%s: locked by another process (is it still being written?)", path);
    return sp_error_set(err, SP_ERR_DAMAGED,
                        "%s: damaged profile: HDF5 cannot open it (truncated or corrupted)", path);
}

/* The root's scope_profiler_schema: 0 when absent. */
static sp_status read_schema(sp_rd *rd, int64_t *schema) {
    *schema = 0;
    int rc = sp_rd_attr_int64(rd->file, "scope_profiler_schema", schema);
    if (rc < 0)
        return sp_error_set(rd->err, SP_ERR_BAD_DATASET,
                            "%s: the root attribute scope_profiler_schema is not an integer",
                            rd->path);
    if (rc == 1 && *schema > SP_READ_NEWEST_SCHEMA)
        return sp_error_set(rd->err, SP_ERR_SCHEMA_TOO_NEW,
                            "%s: written with profile schema %" PRId64
                            "; this version reads schemas up to %d (upgrade scope-profiler)",
                            rd->path, *schema, SP_READ_NEWEST_SCHEMA);
    if (rc == 1 && *schema < 1)
        return sp_rd_damaged(rd, "scope_profiler_schema is %" PRId64 ", not a schema number",
                             *schema);
    return SP_OK;
}

static sp_status read_layout(sp_rd *rd, sp_layout *layout) {
    *layout = SP_LAYOUT_COLUMNAR;
    if (H5Aexists(rd->file, "storage_layout") <= 0) return SP_OK;
    hid_t attr = H5Aopen(rd->file, "storage_layout", H5P_DEFAULT);
    char *value = NULL;
    int rc = attr >= 0 ? sp_rd_attr_string(attr, &value) : 0;
    if (attr >= 0) H5Aclose(attr);
    sp_status st = SP_OK;
    if (rc == -2)
        st = sp_rd_no_memory(rd);
    else if (!value)
        st = sp_error_set(rd->err, SP_ERR_BAD_DATASET,
                          "%s: the root attribute storage_layout is not a string", rd->path);
    else if (strcmp(value, "aggregate") == 0)
        *layout = SP_LAYOUT_AGGREGATE;
    else if (strcmp(value, "columnar") != 0)
        st = sp_error_set(rd->err, SP_ERR_SCHEMA_TOO_NEW,
                          "%s: unknown storage_layout \"%.100s\"; this version reads "
                          "\"columnar\" and \"aggregate\" (upgrade scope-profiler)",
                          rd->path, value);
    free(value);
    return st;
}

/* A file without the schema attribute: what its groups say it is, or 0. */
static sp_status guess_schema(sp_rd *rd, int has_index, int64_t *schema) {
    if (has_index) {
        *schema = sp_rd_kind_of(rd->file, "/events/start_times") != SP_RD_ABSENT ? 2 : 3;
        return SP_OK;
    }
    int legacy = 0;
    sp_status st = sp_rd_has_rank_groups(rd, &legacy);
    *schema = legacy;
    return st;
}

/* Checks shared by all schemas once rows and raw events are loaded. */
static sp_status finish_events(sp_rd *rd, sp_model *m) {
    sp_status st = sp_model_check_index(m, rd->path, rd->err);
    if (!st) st = sp_rd_check_unique_rows(rd, m);
    if (!st) st = sp_rd_decode_times(rd, m);
    return st;
}

/* The ranks a rank-selective read keeps (ranks NULL: all), sorted. */
typedef struct rank_choice {
    const uint32_t *ranks;
    size_t count;
    int stream; /* leave the event columns in the file (sp_read_model_streamed) */
} rank_choice;

static int compare_rank(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int chosen(const rank_choice *c, uint32_t rank) {
    return bsearch(&rank, c->ranks, c->count, sizeof rank, compare_rank) != NULL;
}

/* Marks the rows of ranks not chosen as skipped, when every row's facts can
 * come from its stored summary_statistics instead of its events; returns
 * whether it did. Without complete statistics everything is read, and so it
 * is with thread ids: the thread lanes of every rank are run-wide facts
 * (inspect's Threads section) that only the events give. */
static int skip_unchosen(sp_rd *rd, sp_model *m, const rank_choice *c) {
    if (!c->ranks || m->layout != SP_LAYOUT_COLUMNAR) return 0;
    if (sp_rd_kind_of(rd->file, "/events/thread_ids") != SP_RD_ABSENT) return 0;
    for (size_t i = 0; i < m->num_rows; i++)
        if (m->rows[i].count && !m->rows[i].has_stats) return 0;
    for (size_t i = 0; i < m->num_rows; i++)
        m->rows[i].events_skipped = (uint8_t)(m->rows[i].count && !chosen(c, m->rows[i].rank));
    return 1;
}

/* Rank-selective: the statistics come first, so that the rows whose events
 * are skipped can be known before /events is read. */
static sp_status read_indexed_selected(sp_rd *rd, sp_model *m, const rank_choice *c) {
    sp_status st = sp_rd_summary_statistics(rd, m);
    if (st) return st;
    if (!skip_unchosen(rd, m, c)) {
        m->num_events = 0;
        for (size_t i = 0; i < m->num_rows; i++) /* read again with the events */
            m->rows[i].has_stats = 0;
        st = sp_rd_events(rd, m);
        if (!st) st = finish_events(rd, m);
        if (!st) st = sp_rd_summary_statistics(rd, m);
        return st;
    }
    st = sp_rd_events_selected(rd, m);
    if (!st) st = sp_rd_check_unique_rows(rd, m);
    if (!st) st = sp_rd_decode_times(rd, m);
    return st;
}

/* What every read of an indexed file does once its rows hold their
 * statistics: check them, then the optional tables. */
static sp_status read_after_stats(sp_rd *rd, sp_model *m) {
    sp_status st = sp_rd_check_stats(rd, m);
    if (!st) st = sp_rd_thread_table(rd, m);
    if (!st) st = sp_rd_thread_forks(rd, m);
    if (!st) st = sp_rd_clock_offsets(rd, m);
    if (!st) st = sp_rd_message_bytes(rd, m);
    if (!st) st = sp_rd_histograms(rd, m);
    return st;
}

/* Streamed: everything but the calls; every failure (also "cannot be
 * streamed": clock offsets, thread ids, rows without stored statistics)
 * makes the caller read the file whole instead. */
static sp_status read_indexed_streamed(sp_rd *rd, sp_model *m) {
    if (m->layout != SP_LAYOUT_COLUMNAR ||
        sp_rd_kind_of(rd->file, "/events/thread_ids") != SP_RD_ABSENT ||
        sp_rd_kind_of(rd->file, "/scope_profiler_c/clock_offsets") != SP_RD_ABSENT)
        return SP_ERR_UNAVAILABLE;
    sp_status st = sp_rd_event_source_open(rd, m);
    if (!st) st = sp_rd_summary_statistics(rd, m);
    for (size_t i = 0; !st && i < m->num_rows; i++)
        if (m->rows[i].count && !m->rows[i].has_stats) st = SP_ERR_UNAVAILABLE;
    return st ? st : read_after_stats(rd, m);
}

static sp_status read_indexed(sp_rd *rd, sp_model *m, const rank_choice *c) {
    sp_status st = read_layout(rd, &m->layout);
    if (!st) st = sp_rd_region_table(rd, m);
    if (!st) st = sp_rd_index(rd, m);
    if (!st && c->stream) return read_indexed_streamed(rd, m);
    if (!st && c->ranks && m->layout == SP_LAYOUT_COLUMNAR) {
        st = read_indexed_selected(rd, m, c);
        if (!st) sp_rd_fill_missing_stats(m);
        return st ? st : read_after_stats(rd, m);
    }
    if (!st) st = sp_rd_events(rd, m);
    if (!st) st = finish_events(rd, m);
    if (!st) st = sp_rd_summary_statistics(rd, m);
    if (!st) sp_rd_fill_missing_stats(m);
    return st ? st : read_after_stats(rd, m);
}

static sp_status read_legacy(sp_rd *rd, sp_model *m) {
    sp_status st = sp_rd_schema1(rd, m);
    m->num_events_loaded = m->num_events;
    if (!st) st = finish_events(rd, m);
    if (!st) sp_rd_fill_missing_stats(m);
    return st;
}

static sp_status read_profile(sp_rd *rd, sp_model *m, const rank_choice *c) {
    int64_t schema = 0;
    sp_status st = read_schema(rd, &schema);
    if (st) return st;
    sp_rd_kind index = sp_rd_kind_of(rd->file, "/rank_region_index");
    if (index == SP_RD_DAMAGED)
        return sp_rd_damaged(rd, "/rank_region_index cannot be read: %s", sp_rd_damage_of_kind());
    int has_index = index == SP_RD_GROUP;
    if (schema == 0 && (st = guess_schema(rd, has_index, &schema))) return st;
    if (schema == 0)
        return sp_error_set(rd->err, SP_ERR_NOT_A_PROFILE,
                            "%s: no /rank_region_index or rank<N> groups: not a scope-profiler "
                            "profile",
                            rd->path);
    m->schema = schema;
    if (schema >= 2 && !has_index) return sp_rd_damaged(rd, "/rank_region_index is missing");
    if (c->stream && schema < 2) return SP_ERR_UNAVAILABLE;
    st = schema >= 2 ? read_indexed(rd, m, c) : read_legacy(rd, m);
    if (!st) st = sp_rd_metadata(rd, m);
    if (!st) st = sp_rd_thread_times(rd, m);
    return st ? st : sp_rd_plausibility(rd, m);
}

/* Names and paths in messages come from the file (or the caller) and may
 * hold newlines; the message must stay one line, so control characters are
 * escaped. */
static void make_one_line(sp_error *err) {
    if (!err) return;
    char copy[sizeof err->message];
    memcpy(copy, err->message, sizeof copy);
    size_t out = 0, cap = sizeof err->message - 1;
    for (const unsigned char *p = (const unsigned char *)copy; *p && out < cap; p++) {
        char esc[8];
        if (*p >= 0x20 && *p != 0x7f) {
            esc[0] = (char)*p;
            esc[1] = '\0';
        } else if (*p == '\n')
            snprintf(esc, sizeof esc, "\\n");
        else if (*p == '\t')
            snprintf(esc, sizeof esc, "\\t");
        else
            snprintf(esc, sizeof esc, "\\x%02x", *p);
        size_t len = strlen(esc);
        if (len > cap - out) break;
        memcpy(err->message + out, esc, len);
        out += len;
    }
    err->message[out] = '\0';
}

sp_status sp_read_model(const char *path, sp_model *out, sp_error *err) {
    return sp_read_model_ranks(path, NULL, 0, out, err);
}

static sp_status read_model(const char *path, const uint32_t *ranks, size_t num_ranks, int stream,
                            sp_model *out, sp_error *err) {
    memset(out, 0, sizeof *out);
    sp_error_clear(err);
    if (!path) return sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "sp_read: the path is NULL");
    uint32_t *sorted = NULL;
    if (ranks && num_ranks) { /* no ranks: all, as in sp_filter */
        sorted = malloc((num_ranks ? num_ranks : 1) * sizeof *sorted);
        if (!sorted) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "%s: out of memory", path);
        memcpy(sorted, ranks, num_ranks * sizeof *sorted);
        qsort(sorted, num_ranks, sizeof *sorted, compare_rank);
    }
    rank_choice choice = {sorted, sorted ? num_ranks : 0, stream};
    H5E_auto2_t saved_handler;
    void *saved_data;
    H5Eget_auto2(H5E_DEFAULT, &saved_handler, &saved_data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* failures become statuses, not stack dumps */
    sp_lzf_register();
    sp_status st = check_file(path, err);
    errno = 0;
    char heap_damage[256] = "";
    hid_t fapl = st ? -1 : sp_guarded_read_fapl(heap_damage, sizeof heap_damage);
    hid_t file = st ? -1 : H5Fopen(path, H5F_ACC_RDONLY, fapl >= 0 ? fapl : H5P_DEFAULT);
    if (fapl >= 0) H5Pclose(fapl);
    if (!st && file < 0) st = open_failed(path, err);
    if (!st) {
        sp_rd rd = {file, path, err};
        sp_vlen_guard_begin(file);
        st = read_profile(&rd, out, &choice);
        /* a string the guard refused names the damage better than the failed call */
        const char *refused = sp_vlen_guard_damage();
        if (sp_vlen_guard_out_of_memory())
            st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "%s: out of memory while reading", path);
        else if (refused && st != SP_ERR_OUT_OF_MEMORY)
            st = sp_error_set(err, SP_ERR_DAMAGED, "%s: damaged profile: %s", path, refused);
        sp_vlen_guard_end();
    }
    if (!st && !sorted) out->num_events_loaded = out->num_events;
    free(sorted);
    if (file >= 0) H5Fclose(file);
    H5Eset_auto2(H5E_DEFAULT, saved_handler, saved_data);
    /* the heap check in the file driver names the damage better than the failed call */
    if (st && st != SP_ERR_OUT_OF_MEMORY && heap_damage[0])
        st = sp_error_set(err, SP_ERR_DAMAGED, "%s: damaged profile: %s", path, heap_damage);
    if (st) {
        sp_model_clear(out);
        make_one_line(err);
    }
    return st;
}

sp_status sp_read_model_ranks(const char *path, const uint32_t *ranks, size_t num_ranks,
                              sp_model *out, sp_error *err) {
    return read_model(path, ranks, num_ranks, 0, out, err);
}

sp_status sp_read_model_streamed(const char *path, sp_model *out, sp_error *err) {
    int streamable = 0;
    sp_status st = read_model(path, NULL, 0, 1, out, err);
    if (!st) st = sp_event_source_check(out, &streamable, err);
    if (!st && streamable) return SP_OK;
    sp_model_clear(out);
    return read_model(path, NULL, 0, 0, out, err); /* today's read and its messages */
}
