/* Hyperslab reads of the event columns, one window of rows at a time. */
#include "format/event_source.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "format/guarded_driver.h"
#include "format/read_internal.h"
#include "model/event_window.h"

enum { COL_STARTS, COL_DURATIONS, COL_THREADS, COL_CALLS, COL_PARENTS, NUM_COLS };

typedef struct stream_source {
    struct sp_event_source base; /* first: the model holds a pointer to it */
    hid_t file;
    hid_t ds[NUM_COLS]; /* -1 when the column is absent */
    const char *names[NUM_COLS];
    char *path;
    char heap_damage[256];
} stream_source;

static void close_source(struct sp_event_source *base) {
    stream_source *s = (stream_source *)base;
    for (int i = 0; i < NUM_COLS; i++)
        if (s->ds[i] >= 0) H5Dclose(s->ds[i]);
    if (s->file >= 0) H5Fclose(s->file);
    free(s->base.tree_sorted);
    free(s->path);
    free(s);
}

static int grow(sp_event_window *w, uint64_t n, const stream_source *s) {
    if (n <= w->capacity) return 1;
    for (int i = 0; i < NUM_COLS; i++) {
        if (s->ds[i] < 0) continue;
        int64_t *p = realloc(w->owned[i], n * sizeof *p);
        if (!p) return 0;
        w->owned[i] = p;
    }
    w->capacity = n;
    return 1;
}

static sp_status read_slice(sp_rd *rd, hid_t ds, const char *path, uint64_t first, uint64_t n,
                            int64_t *out) {
    hsize_t start = first, count = n;
    hid_t file_space = H5Dget_space(ds);
    hid_t mem_space = H5Screate_simple(1, &count, NULL);
    herr_t rc = -1;
    if (file_space >= 0 && mem_space >= 0 &&
        H5Sselect_hyperslab(file_space, H5S_SELECT_SET, &start, NULL, &count, NULL) >= 0) {
        hid_t dxpl = sp_rd_transfer_plist(ds, n, sizeof *out);
        rc = H5Dread(ds, H5T_NATIVE_INT64, mem_space, file_space, dxpl, out);
        sp_rd_close_plist(dxpl);
    }
    if (mem_space >= 0) H5Sclose(mem_space);
    if (file_space >= 0) H5Sclose(file_space);
    if (rc >= 0) return SP_OK;
    return sp_rd_damaged(rd,
                         "cannot read %s (a damaged file, or a compression filter this "
                         "HDF5 library lacks)",
                         path);
}

static sp_status load_rows(sp_rd *rd, stream_source *s, const sp_model *m, size_t a, size_t b,
                           sp_event_window *w) {
    uint64_t first = m->rows[a].offset;
    uint64_t n = m->rows[b - 1].offset + m->rows[b - 1].count - first;
    if (!grow(w, n ? n : 1, s)) return sp_rd_no_memory(rd);
    for (int i = 0; i < NUM_COLS; i++) {
        if (s->ds[i] < 0 || !n) continue;
        sp_status st = read_slice(rd, s->ds[i], s->names[i], first, n, w->owned[i]);
        if (st) return st;
    }
    for (size_t r = a; r < b; r++) {
        uint64_t at = m->rows[r].offset - first;
        sp_status st =
            sp_rd_decode_row(rd, m, r, w->owned[COL_STARTS] + at, w->owned[COL_DURATIONS] + at);
        if (st) return st;
    }
    sp_status st = sp_rd_check_thread_ids(rd, s->ds[COL_THREADS] >= 0 ? w->owned[COL_THREADS] : NULL,
                                          first, n);
    if (st) return st;
    w->first = first;
    w->count = n;
    w->starts = w->owned[COL_STARTS];
    w->durations = w->owned[COL_DURATIONS];
    w->thread_ids = s->ds[COL_THREADS] >= 0 ? w->owned[COL_THREADS] : NULL;
    w->call_ids = s->ds[COL_CALLS] >= 0 ? w->owned[COL_CALLS] : NULL;
    w->parent_ids = s->ds[COL_PARENTS] >= 0 ? w->owned[COL_PARENTS] : NULL;
    w->row_begin = a;
    w->row_end = b;
    return SP_OK;
}

static sp_status load(struct sp_event_source *base, const sp_model *m, size_t a, size_t b,
                      sp_event_window *w, sp_error *err) {
    stream_source *s = (stream_source *)base;
    if (a >= b || b > m->num_rows)
        return sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "no rows [%zu, %zu) of %zu", a, b,
                            m->num_rows);
    H5E_auto2_t saved_handler;
    void *saved_data;
    H5Eget_auto2(H5E_DEFAULT, &saved_handler, &saved_data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    sp_rd rd = {s->file, s->path, err};
    sp_status st = load_rows(&rd, s, m, a, b, w);
    H5Eset_auto2(H5E_DEFAULT, saved_handler, saved_data);
    if (st && s->heap_damage[0] && st != SP_ERR_OUT_OF_MEMORY)
        st = sp_error_set(err, SP_ERR_DAMAGED, "%s: damaged profile: %s", s->path,
                          s->heap_damage);
    return st;
}

static const sp_event_source_ops STREAM_OPS = {load, close_source};

/* A 4 MiB chunk cache per column: the window being read and the next one. */
static hid_t open_dataset(hid_t file, const char *path) {
    hid_t dapl = H5Pcreate(H5P_DATASET_ACCESS);
    if (dapl >= 0) H5Pset_chunk_cache(dapl, H5D_CHUNK_CACHE_NSLOTS_DEFAULT, 4u << 20, 1.0);
    hid_t ds = H5Dopen2(file, path, dapl >= 0 ? dapl : H5P_DEFAULT);
    if (dapl >= 0) H5Pclose(dapl);
    return ds;
}

/* Checks one column as the whole read does before reading it; *n its length. */
static sp_status check_column(sp_rd *rd, const char *path, size_t *n) {
    hid_t ds;
    sp_status st = sp_rd_open_column(rd, path, &ds, n);
    if (st) return st;
    st = sp_rd_expect_class(rd, ds, path, H5T_INTEGER, "an integer dataset");
    if (!st) st = sp_rd_check_storage(rd, ds, path, *n, sizeof(int64_t));
    H5Dclose(ds);
    return st;
}

static sp_status open_columns(sp_rd *rd, const sp_model *m, stream_source *s) {
    int deltas = m->schema >= 3;
    s->names[COL_STARTS] = deltas ? "/events/start_deltas" : "/events/start_times";
    s->names[COL_DURATIONS] = deltas ? "/events/durations" : "/events/end_times";
    s->names[COL_THREADS] = "/events/thread_ids";
    s->names[COL_CALLS] = "/events/call_ids";
    s->names[COL_PARENTS] = "/events/parent_ids";
    size_t n = 0;
    sp_status st = check_column(rd, s->names[COL_STARTS], &n);
    for (int i = 1; !st && i < NUM_COLS; i++) {
        if (i > COL_DURATIONS && sp_rd_kind_of(rd->file, s->names[i]) == SP_RD_ABSENT) continue;
        size_t k = 0;
        st = check_column(rd, s->names[i], &k);
        if (!st) st = sp_rd_same_length(rd, s->names[i], k, s->names[COL_STARTS], n);
    }
    for (int i = 0; !st && i < NUM_COLS; i++) {
        if (i > COL_DURATIONS && sp_rd_kind_of(rd->file, s->names[i]) == SP_RD_ABSENT) continue;
        if ((s->ds[i] = open_dataset(s->file, s->names[i])) < 0)
            st = sp_rd_damaged(rd, "cannot open %s", s->names[i]);
    }
    if (!st) ((sp_model *)m)->num_events = n;
    return st;
}

sp_status sp_rd_event_source_open(sp_rd *rd, sp_model *m) {
    stream_source *s = calloc(1, sizeof *s);
    if (!s) return sp_rd_no_memory(rd);
    s->base.ops = &STREAM_OPS;
    for (int i = 0; i < NUM_COLS; i++)
        s->ds[i] = -1;
    s->path = sp_strdup(rd->path);
    s->base.tree_sorted = calloc(m->num_rows + 1, 1);
    /* a handle of its own, so that the columns stay readable after the read */
    s->file = H5Freopen(rd->file);
    m->event_source = &s->base;
    if (!s->path || !s->base.tree_sorted) return sp_rd_no_memory(rd);
    if (s->file < 0) return sp_rd_damaged(rd, "cannot open the file again for /events");
    sp_status st = open_columns(rd, m, s);
    if (!st) st = sp_model_check_index(m, rd->path, rd->err);
    if (!st) st = sp_rd_check_unique_rows(rd, m);
    for (size_t i = 0; !st && i < m->num_rows; i++)
        m->rows[i].events_skipped = (uint8_t)(m->rows[i].count > 0);
    return st;
}

/* Decoded calls end within int64 (sp_rd_decode_row), so start + duration is exact. */
static int row_tree_sorted(const int64_t *s, const int64_t *d, uint64_t n) {
    for (uint64_t i = 0; i + 1 < n; i++)
        if (s[i + 1] < s[i] || (s[i + 1] == s[i] && s[i + 1] + d[i + 1] > s[i] + d[i])) return 0;
    return 1;
}

sp_status sp_rd_event_source_check(sp_rd *rd, sp_model *m, int *streamable) {
    *streamable = 1;
    for (size_t i = 0; i < m->num_rows; i++)
        m->rows[i].events_skipped = 0;
    sp_event_window w = SP_EVENT_WINDOW_INIT;
    sp_status st = SP_OK;
    for (size_t a = 0, b; a < m->num_rows && *streamable; a = b) {
        b = sp_event_batch_end(m, a);
        st = sp_model_events(m, a, b, &w, rd->err);
        if (st) break;
        for (size_t r = a; r < b && *streamable; r++) {
            const sp_model_row *row = &m->rows[r];
            const int64_t *s = w.starts + (row->offset - w.first);
            const int64_t *d = w.durations + (row->offset - w.first);
            m->event_source->tree_sorted[r] = (uint8_t)row_tree_sorted(s, d, row->count);
            *streamable = sp_rd_row_plausible(m, row, s, d);
        }
    }
    sp_event_window_free(&w);
    if (st) *streamable = 0;
    return SP_OK;
}
