/* Hyperslab reads of the event columns, one window of rows at a time. */
#include "format/event_source.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "format/guarded_driver.h"
#include "format/read_internal.h"
#include "model/event_window.h"

enum { COL_STARTS, COL_DURATIONS, COL_THREADS, COL_CALLS, COL_PARENTS, NUM_COLS };

/* A cached block of raw (undecoded) values: events [index * len, + len) of every column. */
typedef struct block {
    uint64_t index;
    uint64_t used; /* the source's clock at its last use (least recently used goes first) */
    int valid;
    int64_t *values[NUM_COLS];
} block;

typedef struct stream_source {
    struct sp_event_source base; /* first: the model holds a pointer to it */
    hid_t file;
    hid_t ds[NUM_COLS];    /* -1 until the file is opened */
    int present[NUM_COLS]; /* the column is in the file */
    const char *names[NUM_COLS];
    char *path;
    uint64_t num_events;
    /* Windows are copied out of blocks of the file's chunk length: the
     * passes that go region by region over the ranks (events, the Gantt
     * chart) come back to each rank's current chunk once per region. */
    uint64_t block_len;
    block *blocks;
    size_t num_blocks;
    uint64_t clock;
    char heap_damage[256]; /* the guarded driver's finding (format/guarded_driver.h) */
} stream_source;

/* The cache's budget: a block per rank (and a few more) up to this many bytes. */
#define BLOCK_CACHE_BYTES ((uint64_t)128 << 20)
#define DEFAULT_BLOCK_LEN ((uint64_t)65536)

static void close_source(struct sp_event_source *base) {
    stream_source *s = (stream_source *)base;
    for (int i = 0; i < NUM_COLS; i++)
        if (s->ds[i] >= 0) H5Dclose(s->ds[i]);
    if (s->file >= 0) H5Fclose(s->file);
    for (size_t i = 0; s->blocks && i < s->num_blocks; i++)
        for (int c = 0; c < NUM_COLS; c++)
            free(s->blocks[i].values[c]);
    free(s->blocks);
    free(s->base.tree_sorted);
    free(s->path);
    free(s);
}

static int grow(sp_event_window *w, uint64_t n, const stream_source *s) {
    if (n <= w->capacity) return 1;
    for (int i = 0; i < NUM_COLS; i++) {
        if (!s->present[i]) continue;
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
    return rc >= 0 ? SP_OK : sp_rd_read_failed(rd, path);
}

/* The cached block `index`, read from the file when it is not cached. */
static sp_status get_block(sp_rd *rd, stream_source *s, uint64_t index, const block **out) {
    block *victim = &s->blocks[0];
    for (size_t i = 0; i < s->num_blocks; i++) {
        block *b = &s->blocks[i];
        if (b->valid && b->index == index) {
            b->used = ++s->clock;
            *out = b;
            return SP_OK;
        }
        if (!b->valid || (victim->valid && b->used < victim->used)) victim = b;
    }
    victim->valid = 0;
    uint64_t first = index * s->block_len;
    uint64_t n = s->num_events - first < s->block_len ? s->num_events - first : s->block_len;
    for (int c = 0; c < NUM_COLS; c++) {
        if (!s->present[c]) continue;
        if (!victim->values[c] && !(victim->values[c] = malloc(s->block_len * sizeof(int64_t))))
            return sp_rd_no_memory(rd);
        sp_status st = read_slice(rd, s->ds[c], s->names[c], first, n, victim->values[c]);
        if (st) return st;
    }
    victim->index = index;
    victim->valid = 1;
    victim->used = ++s->clock;
    *out = victim;
    return SP_OK;
}

/* The raw values of events [first, first + n) into the window's buffers. */
static sp_status copy_raw(sp_rd *rd, stream_source *s, uint64_t first, uint64_t n,
                          sp_event_window *w) {
    for (uint64_t e = first; e < first + n;) {
        const block *b = NULL;
        sp_status st = get_block(rd, s, e / s->block_len, &b);
        if (st) return st;
        uint64_t at = e % s->block_len, take = s->block_len - at;
        if (take > first + n - e) take = first + n - e;
        for (int c = 0; c < NUM_COLS; c++)
            if (s->present[c]) memcpy(w->owned[c] + (e - first), b->values[c] + at, take * 8);
        e += take;
    }
    return SP_OK;
}

static sp_status load_rows(sp_rd *rd, stream_source *s, const sp_model *m, size_t a, size_t b,
                           sp_event_window *w) {
    uint64_t first = m->rows[a].offset;
    uint64_t n = m->rows[b - 1].offset + m->rows[b - 1].count - first;
    if (!grow(w, n ? n : 1, s)) return sp_rd_no_memory(rd);
    sp_status st = copy_raw(rd, s, first, n, w);
    if (st) return st;
    for (size_t r = a; r < b; r++) {
        uint64_t at = m->rows[r].offset - first;
        st = sp_rd_decode_row(rd, m, r, w->owned[COL_STARTS] + at, w->owned[COL_DURATIONS] + at);
        if (st) return st;
    }
    st = sp_rd_check_thread_ids(rd, s->present[COL_THREADS] ? w->owned[COL_THREADS] : NULL, first,
                                n);
    if (st) return st;
    w->first = first;
    w->count = n;
    w->starts = w->owned[COL_STARTS];
    w->durations = w->owned[COL_DURATIONS];
    w->thread_ids = s->present[COL_THREADS] ? w->owned[COL_THREADS] : NULL;
    w->call_ids = s->present[COL_CALLS] ? w->owned[COL_CALLS] : NULL;
    w->parent_ids = s->present[COL_PARENTS] ? w->owned[COL_PARENTS] : NULL;
    w->row_begin = a;
    w->row_end = b;
    return SP_OK;
}

static hid_t open_dataset(hid_t file, const char *path);

/* The source's own handle on the file, opened at the first window (after
 * the read closed its own: a file opened twice would share one driver). */
static sp_status open_file(sp_rd *rd, stream_source *s) {
    s->heap_damage[0] = '\0';
    hid_t fapl = sp_guarded_read_fapl(s->heap_damage, sizeof s->heap_damage);
    s->file = H5Fopen(s->path, H5F_ACC_RDONLY, fapl >= 0 ? fapl : H5P_DEFAULT);
    if (fapl >= 0) H5Pclose(fapl);
    if (s->file < 0) return sp_rd_damaged(rd, "cannot open the file again to read /events");
    rd->file = s->file;
    for (int c = 0; c < NUM_COLS; c++)
        if (s->present[c] && (s->ds[c] = open_dataset(s->file, s->names[c])) < 0)
            return sp_rd_damaged(rd, "cannot open %s", s->names[c]);
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
    sp_status st = s->file < 0 ? open_file(&rd, s) : SP_OK;
    if (!st) st = load_rows(&rd, s, m, a, b, w);
    H5Eset_auto2(H5E_DEFAULT, saved_handler, saved_data);
    if (st && s->heap_damage[0] && st != SP_ERR_OUT_OF_MEMORY)
        st = sp_error_set(err, SP_ERR_DAMAGED, "%s: damaged profile: %s", s->path, s->heap_damage);
    return st;
}

static const sp_event_source_ops STREAM_OPS = {load, close_source};

/* No HDF5 chunk cache: the blocks are the cache, and a block that covers
 * whole chunks is decompressed straight into it. */
static hid_t open_dataset(hid_t file, const char *path) {
    hid_t dapl = H5Pcreate(H5P_DATASET_ACCESS);
    if (dapl >= 0) H5Pset_chunk_cache(dapl, 0, 0, 1.0);
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
    for (int i = 0; i < NUM_COLS; i++)
        s->present[i] = i <= COL_DURATIONS || sp_rd_kind_of(rd->file, s->names[i]) != SP_RD_ABSENT;
    if (!st) ((sp_model *)m)->num_events = n;
    s->num_events = n;
    return st;
}

/* The block length: the start column's chunk length (whole chunks are read at once). */
static uint64_t chunk_length(hid_t file, const char *path) {
    hid_t ds = H5Dopen2(file, path, H5P_DEFAULT);
    hid_t dcpl = ds >= 0 ? H5Dget_create_plist(ds) : -1;
    if (ds >= 0) H5Dclose(ds);
    hsize_t dim = 0;
    if (dcpl >= 0 && H5Pget_layout(dcpl) == H5D_CHUNKED && H5Pget_chunk(dcpl, 1, &dim) == 1 &&
        dim > 0 && dim <= ((uint64_t)1 << 22)) {
        H5Pclose(dcpl);
        return dim;
    }
    if (dcpl >= 0) H5Pclose(dcpl);
    return DEFAULT_BLOCK_LEN;
}

/* Room for a block per rank and four more, within BLOCK_CACHE_BYTES (at least two). */
static sp_status make_blocks(sp_rd *rd, const sp_model *m, stream_source *s) {
    s->block_len = chunk_length(rd->file, s->names[COL_STARTS]);
    int columns = 0;
    for (int c = 0; c < NUM_COLS; c++)
        columns += s->present[c];
    size_t ranks = 0;
    for (size_t i = 0; i < m->num_rows; i++)
        ranks += i == 0 || m->rows[i].rank != m->rows[i - 1].rank;
    uint64_t budget = BLOCK_CACHE_BYTES / (s->block_len * 8 * (uint64_t)columns);
    uint64_t in_file = (s->num_events + s->block_len - 1) / s->block_len;
    uint64_t want = ranks + 4;
    if (want > budget) want = budget;
    if (want > in_file) want = in_file;
    s->num_blocks = want < 2 ? 2 : (size_t)want;
    s->blocks = calloc(s->num_blocks, sizeof *s->blocks);
    return s->blocks ? SP_OK : sp_rd_no_memory(rd);
}

sp_status sp_rd_event_source_open(sp_rd *rd, sp_model *m) {
    stream_source *s = calloc(1, sizeof *s);
    if (!s) return sp_rd_no_memory(rd);
    s->base.ops = &STREAM_OPS;
    for (int i = 0; i < NUM_COLS; i++)
        s->ds[i] = -1;
    s->file = -1;
    s->path = sp_strdup(rd->path);
    s->base.tree_sorted = calloc(m->num_rows + 1, 1);
    m->event_source = &s->base;
    if (!s->path || !s->base.tree_sorted) return sp_rd_no_memory(rd);
    sp_status st = open_columns(rd, m, s);
    if (!st) st = make_blocks(rd, m, s);
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

sp_status sp_event_source_check(sp_model *m, int *streamable, sp_error *err) {
    *streamable = 1;
    for (size_t i = 0; i < m->num_rows; i++)
        m->rows[i].events_skipped = 0;
    sp_event_window w = SP_EVENT_WINDOW_INIT;
    sp_status st = SP_OK;
    for (size_t a = 0, b; a < m->num_rows && *streamable; a = b) {
        b = sp_event_batch_end(m, a);
        st = sp_model_events(m, a, b, &w, err);
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
    return st;
}
