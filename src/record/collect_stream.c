#include "record/collect_stream.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "record/clock.h"
#include "record/collect_parts.h"
#include "record/registry.h"
#include "record/row_merge.h"

/* Events converted per piece handed to the writer (512 KiB per column). */
#define PIECE_EVENTS 65536u

struct sp_collect_stream {
    sp_thread **threads;
    uint32_t num_threads;
    sp_region_t *row_region; /* per row: its handle */
    int64_t *row_total;      /* per row: Σ durations, for the mean before the m2 pass */
    size_t num_rows;
    sp_row_merge *merge;
    int64_t *starts, *durations, *thread_ids;
};

/* A call's duration in ns: a negative span (cores' clocks a tick apart) is 0,
 * as record/collect.c stores it. */
static int64_t span_ns(int64_t start, uint64_t end_ticks) {
    int64_t end = sp_clock_to_ns(end_ticks);
    return end > start ? end - start : 0;
}

/* sp_row_stats_compute() over a row seen one call at a time, in row order,
 * with the row's total known beforehand (the same arithmetic, so the same bits). */
typedef struct stats_acc {
    sp_row_stats st;
    uint64_t seen, count;
    int64_t total;
    double mean, m2;
} stats_acc;

static void stats_begin(stats_acc *a, uint64_t count, int64_t total) {
    memset(a, 0, sizeof *a);
    a->count = count;
    a->mean = count ? (double)total / (double)count : 0.0;
}

static void stats_add(stats_acc *a, int64_t start, int64_t d) {
    if (a->seen++ == 0) {
        a->st.first = a->st.minimum = a->st.maximum = d;
        a->st.start_minimum = start;
        a->st.end_maximum = start + d;
    }
    a->st.last = d;
    a->total += d;
    if (d < a->st.minimum) a->st.minimum = d;
    if (d > a->st.maximum) a->st.maximum = d;
    if (start < a->st.start_minimum) a->st.start_minimum = start;
    if (start + d > a->st.end_maximum) a->st.end_maximum = start + d;
    double dev = (double)d - a->mean;
    a->m2 += dev * dev;
}

static void stats_end(stats_acc *a, sp_row_stats *out) {
    if (a->count) {
        a->st.total = a->total;
        a->st.mean = a->mean;
        a->st.m2 = a->m2;
    }
    *out = a->st;
}

/* Hands the piece's n events to the writer and to the statistics. */
static sp_status flush_piece(sp_collect_stream *s, sp_writer *w, stats_acc *acc, size_t n,
                             sp_error *err) {
    for (size_t i = 0; i < n; i++)
        stats_add(acc, s->starts[i], s->durations[i]);
    return sp_writer_add_events(w, s->starts, s->durations, s->thread_ids, n, err);
}

/* Streams the row's calls of all threads, merged in start order, in pieces. */
static sp_status write_row(sp_collect_stream *s, sp_writer *w, size_t row, stats_acc *acc,
                           sp_error *err) {
    sp_row_merge_start(s->merge, s->threads, s->num_threads, s->row_region[row], 0);
    sp_status st = SP_OK;
    size_t n;
    while (!st && (n = sp_row_merge_next(s->merge, s->starts, s->durations, s->thread_ids,
                                         PIECE_EVENTS)) > 0)
        st = flush_piece(s, w, acc, n, err);
    return st;
}

sp_status sp_collect_stream_write(sp_collect_stream *s, sp_model *m, const char *path,
                                  const sp_write_options *options, const sp_target_id *since,
                                  char **saved_as, sp_error *err) {
    sp_writer *w = sp_writer_create(path, m->num_events, s->thread_ids != NULL, options, err);
    if (!w) return err ? err->status : SP_ERR_IO;
    sp_writer_guard_target(w, since, saved_as);
    sp_status st = sp_writer_put_regions(w, m->region_names, m->num_regions, err);
    if (!st) st = sp_writer_put_metadata(w, m->meta, m->num_meta, err);
    if (!st) st = sp_writer_add_rows(w, m->rows, m->num_rows, err);
    for (size_t r = 0; !st && r < m->num_rows; r++) {
        stats_acc acc;
        stats_begin(&acc, m->rows[r].count, s->row_total[r]);
        st = write_row(s, w, r, &acc, err);
        if (!st && acc.seen != m->rows[r].count)
            st = sp_error_set(err, SP_ERR_INVALID_ARGUMENT,
                              "cannot write %s: row %zu changed while it was written", path, r);
        if (st) break;
        stats_end(&acc, &m->rows[r].stats);
        m->rows[r].has_stats = 1;
        st = sp_writer_set_row_stats(w, r, &m->rows[r].stats, err);
    }
    if (!st && m->threads) st = sp_writer_put_threads(w, m->threads, m->num_threads, err);
    if (!st && m->forks) st = sp_writer_put_forks(w, m->forks, m->num_forks, err);
    if (st) {
        sp_writer_abort(w);
        return st;
    }
    return sp_writer_commit(w, err);
}

/* Per (thread, region): completed calls and their total; per thread: its
 * first start and last end. One pass over every chunk. */
typedef struct tally {
    uint64_t *calls;   /* [region] over all threads */
    int64_t *total;    /* [region] */
    int64_t *first_ns; /* [thread] */
    int64_t *last_ns;  /* [thread] */
} tally;

static void tally_thread(tally *y, const sp_thread *t, uint32_t i, uint32_t num_handles) {
    y->first_ns[i] = INT64_MAX;
    y->last_ns[i] = INT64_MIN;
    for (sp_region_t r = 1; r <= num_handles && r < t->num_cursors; r++) {
        const sp_row_chunks *row = &t->rows[r];
        uint64_t n = 0;
        for (uint32_t c = 0; c < row->num_chunks; c++) {
            const sp_event_slot *slot = row->chunk[c];
            size_t used = sp_row_chunk_used(t, r, c);
            for (size_t k = 0; k < used; k++) {
                if (!slot[k].end) continue;
                int64_t start = sp_clock_to_ns(slot[k].start);
                int64_t d = span_ns(start, slot[k].end);
                y->total[r] += d;
                n++;
                if (start < y->first_ns[i]) y->first_ns[i] = start;
                if (start + d > y->last_ns[i]) y->last_ns[i] = start + d;
            }
        }
        if (!n) continue;
        y->calls[r] += n;
    }
}

void sp_collect_stream_free(sp_collect_stream *s) {
    if (!s) return;
    free(s->threads);
    free(s->row_region);
    free(s->row_total);
    sp_row_merge_free(s->merge);
    free(s->starts);
    free(s->durations);
    free(s->thread_ids);
    free(s);
}

static void tally_free(tally *y) {
    free(y->calls);
    free(y->total);
    free(y->first_ns);
    free(y->last_ns);
}

static sp_status build_rows(sp_collect_stream *s, sp_model *m, const tally *y, uint32_t num_handles,
                            uint32_t rank) {
    size_t num_rows = 0;
    uint64_t total = 0;
    for (sp_region_t r = 1; r <= num_handles; r++) {
        num_rows += y->calls[r] > 0;
        total += y->calls[r];
    }
    size_t slots = num_rows ? num_rows : 1;
    m->region_names = calloc(slots, sizeof *m->region_names);
    m->rows = calloc(slots, sizeof *m->rows);
    s->row_region = malloc(slots * sizeof *s->row_region);
    s->row_total = malloc(slots * sizeof *s->row_total);
    if (!m->region_names || !m->rows || !s->row_region || !s->row_total)
        return SP_ERR_OUT_OF_MEMORY;
    m->num_events = total;
    uint64_t offset = 0;
    for (sp_region_t r = 1; r <= num_handles; r++) {
        if (!y->calls[r]) continue;
        s->row_region[s->num_rows] = r;
        s->row_total[s->num_rows] = y->total[r];
        s->num_rows++;
        if (!sp_collect_add_row(m, r, rank, offset, y->calls[r])) return SP_ERR_OUT_OF_MEMORY;
        offset += y->calls[r];
    }
    return SP_OK;
}

static sp_status prepare(sp_collect_stream *s, sp_model *m, uint32_t num_handles, uint32_t rank,
                         sp_collect_report *report) {
    tally y = {0};
    size_t regions = (size_t)num_handles + 1, threads = s->num_threads ? s->num_threads : 1;
    y.calls = calloc(regions, sizeof *y.calls);
    y.total = calloc(regions, sizeof *y.total);
    y.first_ns = malloc(threads * sizeof *y.first_ns);
    y.last_ns = malloc(threads * sizeof *y.last_ns);
    sp_status st = SP_ERR_OUT_OF_MEMORY;
    if (!y.calls || !y.total || !y.first_ns || !y.last_ns) goto done;
    for (uint32_t i = 0; i < s->num_threads; i++)
        tally_thread(&y, s->threads[i], i, num_handles);
    if ((st = build_rows(s, m, &y, num_handles, rank)) != SP_OK) goto done;
    report->calls = m->num_events;
    st = s->num_threads ? sp_collect_thread_table(m, s->threads, s->num_threads, rank) : SP_OK;
    for (uint32_t i = 0; st == SP_OK && i < s->num_threads; i++) {
        m->threads[i].start_ns = y.first_ns[i];
        m->threads[i].end_ns = y.last_ns[i];
    }
done:
    tally_free(&y);
    return st;
}

sp_status sp_collect_skeleton(sp_model *m, uint32_t rank, sp_collect_report *report,
                              int count_losses, sp_collect_stream **out) {
    *out = NULL;
    uint32_t num_handles = sp_registry_count();
    if (count_losses) {
        memset(report, 0, sizeof *report);
        sp_collect_report_losses(report, num_handles);
    }
    sp_collect_stream *s = calloc(1, sizeof *s);
    if (!s) return SP_ERR_OUT_OF_MEMORY;
    s->threads = sp_collect_threads(num_handles, &s->num_threads);
    report->threads = s->num_threads;
    s->merge = sp_row_merge_new(s->num_threads);
    s->starts = malloc(PIECE_EVENTS * sizeof *s->starts);
    s->durations = malloc(PIECE_EVENTS * sizeof *s->durations);
    if (s->num_threads > 1) s->thread_ids = malloc(PIECE_EVENTS * sizeof *s->thread_ids);
    sp_status st = SP_ERR_OUT_OF_MEMORY;
    if (s->threads && s->merge && s->starts && s->durations &&
        (s->num_threads <= 1 || s->thread_ids))
        st = prepare(s, m, num_handles, rank, report);
    if (st) {
        sp_collect_stream_free(s);
        return st;
    }
    *out = s;
    return SP_OK;
}
