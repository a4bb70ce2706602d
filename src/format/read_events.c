#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/parallel_for.h"
#include "format/read_internal.h"

static sp_status optional_column(sp_rd *rd, const sp_model *m, const char *path,
                                 const char *ref_path, int64_t **out) {
    if (sp_rd_kind_of(rd->file, path) == SP_RD_ABSENT) return SP_OK;
    size_t n = 0;
    sp_status st = sp_rd_int64_column(rd, path, out, &n);
    return st ? st : sp_rd_same_length(rd, path, n, ref_path, m->num_events);
}

sp_status sp_rd_check_thread_ids(sp_rd *rd, const int64_t *ids, uint64_t first, uint64_t n) {
    for (uint64_t i = 0; ids && i < n; i++)
        if (ids[i] < -1)
            return sp_rd_damaged(rd,
                                 "/events/thread_ids[%" PRIu64 "] is %" PRId64
                                 " (a thread index, or -1 for unknown)",
                                 first + i, ids[i]);
    return SP_OK;
}

static sp_status check_thread_ids(sp_rd *rd, const sp_model *m) {
    return sp_rd_check_thread_ids(rd, m->thread_ids, 0, m->num_events);
}

sp_status sp_rd_events(sp_rd *rd, sp_model *m) {
    if (m->layout == SP_LAYOUT_AGGREGATE) return SP_OK;
    if (m->num_rows == 0 && sp_rd_kind_of(rd->file, "/events") == SP_RD_ABSENT) return SP_OK;
    int deltas = m->schema >= 3;
    const char *first = deltas ? "/events/start_deltas" : "/events/start_times";
    const char *second = deltas ? "/events/durations" : "/events/end_times";
    size_t n = 0, n2 = 0;
    sp_status st = sp_rd_int64_column(rd, first, &m->starts, &n);
    if (!st) st = sp_rd_int64_column(rd, second, &m->durations, &n2);
    if (!st) st = sp_rd_same_length(rd, second, n2, first, n);
    if (st) return st;
    m->num_events = n;
    m->num_events_loaded = n;
    st = optional_column(rd, m, "/events/thread_ids", first, &m->thread_ids);
    if (!st) st = optional_column(rd, m, "/events/call_ids", first, &m->call_ids);
    if (!st) st = optional_column(rd, m, "/events/parent_ids", first, &m->parent_ids);
    return st ? st : check_thread_ids(rd, m);
}

/* What is wrong with a row's call, found without touching the reader (so
 * that rows can be decoded on several threads); problem NULL when nothing. */
typedef struct call_fault {
    uint64_t call;
    const char *problem;
    int64_t value;
} call_fault;

static int fault(call_fault *f, uint64_t call, const char *problem, int64_t value) {
    *f = (call_fault){call, problem, value};
    return 0;
}

static sp_status bad_call(sp_rd *rd, const sp_model *m, size_t row, const call_fault *f) {
    const sp_model_row *r = &m->rows[row];
    return sp_rd_damaged(
        rd, "call %" PRIu64 " of region \"%.200s\" on rank %" PRIu32 " %s (%" PRId64 " ns)",
        f->call, m->region_names[r->region], r->rank, f->problem, f->value);
}

/* Schema 3: starts hold per-row deltas (FORMAT.md 2.1); sums stay in range. */
static int decode_deltas(const sp_model_row *r, int64_t *s, call_fault *f) {
    int64_t start = 0;
    for (uint64_t i = 0; i < r->count; i++) {
        int64_t delta = s[i];
        if (i > 0 && delta > 0 && start > INT64_MAX - delta)
            return fault(f, i, "starts past the int64 range, delta", delta);
        start =
            i == 0 ? delta : start + delta; /* start >= 0, so a negative delta cannot overflow */
        if (start < 0) return fault(f, i, "starts at a negative time", start);
        s[i] = start;
    }
    return 1;
}

/* Schemas 1 and 2: durations hold end times. */
static int decode_ends(const sp_model_row *r, const int64_t *s, int64_t *d, call_fault *f) {
    for (uint64_t i = 0; i < r->count; i++) {
        int64_t start = s[i];
        int64_t end = d[i];
        if (start < 0) return fault(f, i, "starts at a negative time", start);
        if (end < start) return fault(f, i, "ends before it starts, end", end);
        d[i] = end - start;
    }
    return 1;
}

static int check_durations(const sp_model_row *r, const int64_t *s, const int64_t *d,
                           call_fault *f) {
    uint64_t total = 0;
    for (uint64_t i = 0; i < r->count; i++) {
        int64_t start = s[i];
        if (d[i] < 0) return fault(f, i, "has a negative duration", d[i]);
        if (d[i] > INT64_MAX - start)
            return fault(f, i, "ends past the int64 range, duration", d[i]);
        total += (uint64_t)d[i];
        if (total > INT64_MAX)
            return fault(f, i, "makes the row's total overflow int64, duration", d[i]);
    }
    return 1;
}

static int decode_row(const sp_model *m, size_t row, int64_t *starts, int64_t *durations,
                      call_fault *f) {
    const sp_model_row *r = &m->rows[row];
    int ok = m->schema >= 3 ? decode_deltas(r, starts, f) : decode_ends(r, starts, durations, f);
    return ok && check_durations(r, starts, durations, f);
}

sp_status sp_rd_decode_row(sp_rd *rd, const sp_model *m, size_t row, int64_t *starts,
                           int64_t *durations) {
    call_fault f;
    return decode_row(m, row, starts, durations, &f) ? SP_OK : bad_call(rd, m, row, &f);
}

/* The rows decoded in parallel; the damage reported is that of the first
 * damaged row, as a serial decode would find it. */
typedef struct decode_job {
    sp_model *m;
    pthread_mutex_t lock;
    size_t bad_row; /* SIZE_MAX: none */
    call_fault bad;
} decode_job;

static void decode_rows(void *ctx, size_t first, size_t count) {
    decode_job *j = ctx;
    sp_model *m = j->m;
    for (size_t row = first; row < first + count; row++) {
        if (m->rows[row].events_skipped) continue;
        uint64_t at = m->rows[row].offset;
        call_fault f;
        if (decode_row(m, row, m->starts + at, m->durations + at, &f)) continue;
        pthread_mutex_lock(&j->lock);
        if (row < j->bad_row) {
            j->bad_row = row;
            j->bad = f;
        }
        pthread_mutex_unlock(&j->lock);
        return; /* the rest of this block cannot matter */
    }
}

/* About 64 Ki calls per block (many small rows share one). */
#define BLOCK_EVENTS ((uint64_t)1 << 16)

size_t sp_rd_rows_per_block(const sp_model *m) {
    if (!m->starts || m->num_events < 2 * BLOCK_EVENTS) return m->num_rows ? m->num_rows : 1;
    uint64_t per_row = m->num_events / (m->num_rows ? m->num_rows : 1) + 1;
    return per_row >= BLOCK_EVENTS ? 1 : (size_t)(BLOCK_EVENTS / per_row);
}

/* Whether the decoded rows' events are disjoint and in row order (so that
 * rows can be decoded at once); a selective read of a damaged file may come
 * here before the index check that guarantees it. */
static int rows_disjoint(const sp_model *m) {
    uint64_t end = 0;
    for (size_t i = 0; i < m->num_rows; i++) {
        const sp_model_row *r = &m->rows[i];
        if (r->events_skipped || r->count == 0) continue;
        if (r->offset < end || r->count > UINT64_MAX - r->offset) return 0;
        end = r->offset + r->count;
    }
    return 1;
}

sp_status sp_rd_decode_times(sp_rd *rd, sp_model *m) {
    if (m->layout == SP_LAYOUT_AGGREGATE || m->num_rows == 0) return SP_OK;
    decode_job j = {.m = m, .bad_row = SIZE_MAX};
    if (pthread_mutex_init(&j.lock, NULL) != 0) return sp_rd_no_memory(rd);
    /* rows whose events overlap (a damaged file) decode in row order: one
     * block, on the caller's thread (their decode depends on the order) */
    size_t grain = rows_disjoint(m) ? sp_rd_rows_per_block(m) : m->num_rows;
    sp_parallel_for(m->num_rows, grain, decode_rows, &j);
    pthread_mutex_destroy(&j.lock);
    return j.bad_row == SIZE_MAX ? SP_OK : bad_call(rd, m, j.bad_row, &j.bad);
}

/* The event ranges of the selected rows, merged where they touch. */
static sp_status selected_ranges(sp_rd *rd, const sp_model *m, sp_rd_range **out, size_t *n,
                                 uint64_t *events) {
    *n = 0;
    *events = 0;
    *out = malloc((m->num_rows ? m->num_rows : 1) * sizeof **out);
    if (!*out) return sp_rd_no_memory(rd);
    for (size_t i = 0; i < m->num_rows; i++) {
        const sp_model_row *r = &m->rows[i];
        if (r->events_skipped || r->count == 0) continue;
        *events += r->count;
        sp_rd_range *last = *n ? &(*out)[*n - 1] : NULL;
        if (last && last->first + last->count == r->offset)
            last->count += r->count;
        else
            (*out)[(*n)++] = (sp_rd_range){r->offset, r->count};
    }
    return SP_OK;
}

static sp_status optional_ranges(sp_rd *rd, const sp_model *m, const char *path,
                                 const char *ref_path, const sp_rd_range *ranges, size_t nr,
                                 int64_t **out) {
    if (sp_rd_kind_of(rd->file, path) == SP_RD_ABSENT) return SP_OK;
    size_t n = 0;
    sp_status st = sp_rd_int64_column_ranges(rd, path, ranges, nr, out, &n);
    return st ? st : sp_rd_same_length(rd, path, n, ref_path, m->num_events);
}

sp_status sp_rd_events_selected(sp_rd *rd, sp_model *m) {
    int deltas = m->schema >= 3;
    const char *first = deltas ? "/events/start_deltas" : "/events/start_times";
    const char *second = deltas ? "/events/durations" : "/events/end_times";
    hid_t ds;
    size_t n = 0, n2 = 0, nr = 0;
    /* the index is checked against the columns' lengths before any range is read */
    sp_status st = sp_rd_open_column(rd, first, &ds, &n);
    if (st) return st;
    H5Dclose(ds);
    m->num_events = n;
    st = sp_model_check_index(m, rd->path, rd->err);
    sp_rd_range *ranges = NULL;
    uint64_t wanted = 0;
    if (!st) st = selected_ranges(rd, m, &ranges, &nr, &wanted);
    if (!st) st = sp_rd_int64_column_ranges(rd, first, ranges, nr, &m->starts, &n);
    if (!st) st = sp_rd_int64_column_ranges(rd, second, ranges, nr, &m->durations, &n2);
    if (!st) st = sp_rd_same_length(rd, second, n2, first, n);
    if (!st) st = optional_ranges(rd, m, "/events/thread_ids", first, ranges, nr, &m->thread_ids);
    if (!st) st = optional_ranges(rd, m, "/events/call_ids", first, ranges, nr, &m->call_ids);
    if (!st) st = optional_ranges(rd, m, "/events/parent_ids", first, ranges, nr, &m->parent_ids);
    free(ranges);
    if (!st) m->num_events_loaded = wanted;
    return st ? st : check_thread_ids(rd, m);
}
