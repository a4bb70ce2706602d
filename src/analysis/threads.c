/*
 * Per-thread summaries (issue 6): one entry per (rank, thread lane), from
 * the thread table when the file has one and from the calls themselves
 * (calls, time inside regions) in any case.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/internal.h"
#include "common/error.h"

typedef struct sp_lane_key {
    uint32_t rank;
    int64_t thread;
} lane_key;

static int compare_lanes(const void *a, const void *b) {
    const lane_key *x = a, *y = b;
    if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
    return (x->thread > y->thread) - (x->thread < y->thread);
}

static int64_t thread_of(const sp_model *m, uint64_t e) {
    return m->thread_ids ? m->thread_ids[e] : 0;
}

/* The distinct (rank, thread) lanes with calls or a thread-table row, sorted. */
static lane_key *collect_lanes(const sp_model *m, size_t *count) {
    size_t max = m->num_threads + m->num_rows + 1, n = 0;
    lane_key *lanes = malloc(max * sizeof *lanes);
    if (!lanes) return NULL;
    for (size_t i = 0; i < m->num_threads; i++)
        lanes[n++] = (lane_key){m->threads[i].rank, m->threads[i].index};
    for (size_t r = 0; r < m->num_rows; r++) {
        const sp_model_row *row = &m->rows[r];
        for (uint64_t e = 0; e < row->count; e++) {
            lane_key k = {row->rank, thread_of(m, row->offset + e)};
            int known = 0;
            for (size_t j = n; j-- > 0 && !known;) /* recent lanes first: calls come in runs */
                known = lanes[j].rank == k.rank && lanes[j].thread == k.thread;
            if (known) continue;
            if (n == max) {
                lane_key *grown = realloc(lanes, (max *= 2) * sizeof *lanes);
                if (!grown) {
                    free(lanes);
                    return NULL;
                }
                lanes = grown;
            }
            lanes[n++] = k;
        }
    }
    qsort(lanes, n, sizeof *lanes, compare_lanes);
    size_t unique = 0;
    for (size_t i = 0; i < n; i++)
        if (!unique || compare_lanes(&lanes[unique - 1], &lanes[i])) lanes[unique++] = lanes[i];
    *count = unique;
    return lanes;
}

/* The lanes, computed once per results object (the object is not shared
 * between threads, see results.h). */
static const lane_key *lanes_of(const sp_results *results, size_t *count) {
    sp_results *r = (sp_results *)results;
    if (!r->lanes) r->lanes = collect_lanes(&r->m, &r->num_lanes);
    *count = r->lanes ? r->num_lanes : 0;
    return r->lanes;
}

size_t sp_results_num_threads(const sp_results *results) {
    size_t n;
    lanes_of(results, &n);
    return n;
}

typedef struct interval {
    int64_t start, end;
} interval;

static int compare_intervals(const void *a, const void *b) {
    const interval *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

/* Calls of one lane and the length of the union of their intervals. */
static sp_status lane_calls(const sp_model *m, lane_key lane, uint64_t *calls, int64_t *covered) {
    size_t n = 0, max = 64;
    interval *spans = malloc(max * sizeof *spans);
    if (!spans) return SP_ERR_OUT_OF_MEMORY;
    for (size_t r = 0; r < m->num_rows; r++) {
        const sp_model_row *row = &m->rows[r];
        if (row->rank != lane.rank) continue;
        for (uint64_t e = row->offset; e < row->offset + row->count; e++) {
            if (thread_of(m, e) != lane.thread) continue;
            if (n == max) {
                interval *grown = realloc(spans, (max *= 2) * sizeof *spans);
                if (!grown) {
                    free(spans);
                    return SP_ERR_OUT_OF_MEMORY;
                }
                spans = grown;
            }
            spans[n++] = (interval){m->starts[e], sp_end_ns(m->starts[e], m->durations[e])};
        }
    }
    qsort(spans, n, sizeof *spans, compare_intervals);
    int64_t total = 0, open_start = 0, open_end = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        if (spans[i].start > open_end) { /* a gap: close the merged interval */
            if (open_end != INT64_MIN) total += open_end - open_start;
            open_start = spans[i].start;
            open_end = spans[i].end;
        } else if (spans[i].end > open_end) {
            open_end = spans[i].end;
        }
    }
    if (open_end != INT64_MIN) total += open_end - open_start;
    free(spans);
    *calls = n;
    *covered = total;
    return SP_OK;
}

static const sp_thread_info *table_row(const sp_model *m, lane_key lane) {
    for (size_t i = 0; i < m->num_threads; i++)
        if (m->threads[i].rank == lane.rank && m->threads[i].index == lane.thread)
            return &m->threads[i];
    return NULL;
}

sp_status sp_results_thread_summary(const sp_results *results, size_t index, sp_thread_summary *out,
                                    sp_error *err) {
    const sp_model *m = &results->m;
    if (m->layout == SP_LAYOUT_AGGREGATE)
        return sp_error_set(err, SP_ERR_UNAVAILABLE,
                            "%s holds aggregate statistics only (storage_layout \"aggregate\"): "
                            "per-thread summaries need per-call events",
                            sp_results_path(results));
    size_t n = 0;
    const lane_key *lanes = lanes_of(results, &n);
    if (!lanes) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    if (index >= n) {
        return sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "%s: no thread lane %zu (it has %zu)",
                            sp_results_path(results), index, n);
    }
    lane_key lane = lanes[index];
    memset(out, 0, sizeof *out);
    out->rank = lane.rank;
    out->index = lane.thread;
    out->name = "";
    out->native_id = -1;
    out->wall_time = out->cpu_time = NAN;
    const sp_thread_info *t = table_row(m, lane);
    if (t) {
        out->name = t->name;
        out->native_id = t->native_id;
        if (t->end_ns >= t->start_ns) out->wall_time = (double)(t->end_ns - t->start_ns) / 1e9;
        if (t->cpu_ns >= 0) out->cpu_time = (double)t->cpu_ns / 1e9;
    }
    int64_t covered = 0;
    sp_status st = lane_calls(m, lane, &out->num_calls, &covered);
    if (st) return sp_error_set(err, st, "out of memory");
    out->time_in_regions = (double)covered / 1e9;
    return SP_OK;
}

size_t sp_rank_region_thread_calls(const sp_rank_region *region, int64_t thread, uint64_t *out,
                                   size_t capacity) {
    const sp_model *m = &sp_rr_owner(region)->m;
    const sp_model_row *row = &m->rows[region->row];
    size_t n = 0;
    for (uint64_t i = 0; i < row->count; i++) {
        if (thread_of(m, row->offset + i) != thread) continue;
        if (out && n < capacity) out[n] = i;
        n++;
    }
    return n;
}
