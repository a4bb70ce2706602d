#include <inttypes.h>
#include <stdlib.h>

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

static sp_status bad_call(sp_rd *rd, const sp_model *m, size_t row, uint64_t call,
                          const char *problem, int64_t value) {
    const sp_model_row *r = &m->rows[row];
    return sp_rd_damaged(
        rd, "call %" PRIu64 " of region \"%.200s\" on rank %" PRIu32 " %s (%" PRId64 " ns)", call,
        m->region_names[r->region], r->rank, problem, value);
}

/* Schema 3: starts hold per-row deltas (FORMAT.md 2.1); sums stay in range. */
static sp_status decode_deltas(sp_rd *rd, const sp_model *m, size_t row, int64_t *s) {
    const sp_model_row *r = &m->rows[row];
    int64_t start = 0;
    for (uint64_t i = 0; i < r->count; i++) {
        int64_t delta = s[i];
        if (i > 0 && delta > 0 && start > INT64_MAX - delta)
            return bad_call(rd, m, row, i, "starts past the int64 range, delta", delta);
        start =
            i == 0 ? delta : start + delta; /* start >= 0, so a negative delta cannot overflow */
        if (start < 0) return bad_call(rd, m, row, i, "starts at a negative time", start);
        s[i] = start;
    }
    return SP_OK;
}

/* Schemas 1 and 2: durations hold end times. */
static sp_status decode_ends(sp_rd *rd, const sp_model *m, size_t row, const int64_t *s,
                             int64_t *d) {
    const sp_model_row *r = &m->rows[row];
    for (uint64_t i = 0; i < r->count; i++) {
        int64_t start = s[i];
        int64_t end = d[i];
        if (start < 0) return bad_call(rd, m, row, i, "starts at a negative time", start);
        if (end < start) return bad_call(rd, m, row, i, "ends before it starts, end", end);
        d[i] = end - start;
    }
    return SP_OK;
}

static sp_status check_durations(sp_rd *rd, const sp_model *m, size_t row, const int64_t *s,
                                 const int64_t *d) {
    const sp_model_row *r = &m->rows[row];
    uint64_t total = 0;
    for (uint64_t i = 0; i < r->count; i++) {
        int64_t start = s[i];
        if (d[i] < 0) return bad_call(rd, m, row, i, "has a negative duration", d[i]);
        if (d[i] > INT64_MAX - start)
            return bad_call(rd, m, row, i, "ends past the int64 range, duration", d[i]);
        total += (uint64_t)d[i];
        if (total > INT64_MAX)
            return bad_call(rd, m, row, i, "makes the row's total overflow int64, duration", d[i]);
    }
    return SP_OK;
}

sp_status sp_rd_decode_row(sp_rd *rd, const sp_model *m, size_t row, int64_t *starts,
                           int64_t *durations) {
    sp_status st = m->schema >= 3 ? decode_deltas(rd, m, row, starts)
                                  : decode_ends(rd, m, row, starts, durations);
    return st ? st : check_durations(rd, m, row, starts, durations);
}

sp_status sp_rd_decode_times(sp_rd *rd, sp_model *m) {
    if (m->layout == SP_LAYOUT_AGGREGATE) return SP_OK;
    for (size_t row = 0; row < m->num_rows; row++) {
        if (m->rows[row].events_skipped) continue;
        uint64_t at = m->rows[row].offset;
        sp_status st = sp_rd_decode_row(rd, m, row, m->starts + at, m->durations + at);
        if (st) return st;
    }
    return SP_OK;
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
