/* What the reader promises about every model it returns, checked bluntly. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "format/reader.h"
#include "format/writer.h"
#include "fuzz_internal.h"

static void check_strings(const sp_model *m) {
    for (size_t i = 0; i < m->num_regions; i++)
        FZ_CHECK(m->region_names[i] != NULL);
    for (size_t i = 0; i < m->num_rows; i++) {
        const sp_model_row *r = &m->rows[i];
        FZ_CHECK(r->source_file && r->source_text && r->tags && r->event_metadata);
    }
    for (size_t i = 0; i < m->num_meta; i++) {
        const sp_meta_entry *e = &m->meta[i];
        FZ_CHECK(e->key != NULL);
        FZ_CHECK(e->type != SP_META_STRING || e->s != NULL);
        FZ_CHECK(e->type != SP_META_STRING_LIST || e->list != NULL);
        for (size_t j = 0; e->type == SP_META_STRING_LIST && j < e->list_len; j++)
            FZ_CHECK(e->list[j] != NULL);
    }
    for (size_t i = 0; i < m->num_threads; i++)
        FZ_CHECK(m->threads[i].name != NULL);
}

static void check_row_events(const sp_model *m, const sp_model_row *r) {
    uint64_t total = 0;
    for (uint64_t i = 0; i < r->count; i++) {
        int64_t s = m->starts[r->offset + i], d = m->durations[r->offset + i];
        FZ_CHECK(s >= 0 && d >= 0 && d <= INT64_MAX - s);
        total += (uint64_t)d;
        FZ_CHECK(total <= INT64_MAX);
    }
    if (r->count && r->has_stats) {
        FZ_CHECK(r->stats.minimum <= r->stats.maximum);
        FZ_CHECK(r->stats.total >= 0 && r->stats.maximum <= r->stats.total);
        FZ_CHECK(isfinite(r->stats.mean) && r->stats.m2 >= 0);
    }
}

/* Histograms: well-formed windows, parents earlier on the same lane (fork
 * parents earlier on another), totals
 * within their bounds, squared deviations finite and >= 0, and together exactly the calls of every
 * index row. */
static void check_histograms(const sp_model *m) {
    FZ_CHECK(m->num_hists == 0 || m->hists != NULL);
    uint64_t calls = 0, in_hists = 0;
    for (size_t i = 0; i < m->num_rows; i++)
        calls += m->rows[i].count;
    for (size_t i = 0; i < m->num_hists; i++) {
        const sp_model_hist *h = &m->hists[i];
        uint64_t sum = 0;
        FZ_CHECK(h->region < m->num_regions && h->thread >= -1);
        FZ_CHECK(h->parent >= -1 && h->parent < (int64_t)i);
        FZ_CHECK(h->hist.counts && h->hist.lo < h->hist.hi && h->hist.hi <= SP_HIST_NUM_BUCKETS);
        for (uint32_t b = h->hist.lo; b < h->hist.hi; b++)
            sum += h->hist.counts[b - h->hist.lo];
        FZ_CHECK(sum == h->hist.count && sum > 0);
        FZ_CHECK(h->hist.min <= h->hist.max && h->hist.min >= 0);
        if (m->hist_totals) { /* within count x [min, max], 1/1024 either side */
            long double c = (long double)h->hist.count;
            FZ_CHECK(h->total >= 0 && (long double)h->total * 1024 >= c * h->hist.min * 1023 &&
                     (long double)h->total * 1024 <= c * h->hist.max * 1025);
        }
        if (m->hist_spread) FZ_CHECK(h->m2 >= 0.0 && isfinite(h->m2));
        if (m->hist_forks && h->fork_parent >= 0) /* a top-level row under another lane's */
            FZ_CHECK(h->parent < 0 && h->fork_parent < (int64_t)i &&
                     m->hists[h->fork_parent].rank == h->rank &&
                     m->hists[h->fork_parent].thread != h->thread);
        if (m->hist_forks) FZ_CHECK(h->fork_parent >= -1);
        double p = sp_hist_percentile(&h->hist, 50.0);
        FZ_CHECK(p >= (double)h->hist.min && p <= (double)h->hist.max);
        in_hists += sum;
    }
    FZ_CHECK(m->num_hists == 0 || in_hists == calls);
}

void fz_check_model(const sp_model *m) {
    sp_error err;
    FZ_CHECK(m->schema >= 1 && m->schema <= 3);
    FZ_CHECK(m->layout == SP_LAYOUT_COLUMNAR || m->layout == SP_LAYOUT_AGGREGATE);
    FZ_CHECK(sp_model_check_index(m, "fuzz", &err) == SP_OK);
    FZ_CHECK(m->num_rows == 0 || m->rows != NULL);
    FZ_CHECK(m->num_regions == 0 || m->region_names != NULL);
    check_strings(m);
    for (size_t i = 0; i < m->num_rows; i++) {
        FZ_CHECK(m->rows[i].count == 0 || m->rows[i].has_stats);
        FZ_CHECK(m->rows[i].has_message_bytes == 0 ||
                 (m->rows[i].has_message_bytes == 1 && m->rows[i].message_bytes >= 0));
        if (m->layout == SP_LAYOUT_COLUMNAR) check_row_events(m, &m->rows[i]);
    }
    FZ_CHECK(m->layout == SP_LAYOUT_COLUMNAR || m->num_events == 0);
    for (size_t i = 0; m->thread_ids && i < m->num_events; i++)
        FZ_CHECK(m->thread_ids[i] >= -1);
    FZ_CHECK(m->num_threads == 0 || m->threads != NULL);
    FZ_CHECK(m->num_clock_offsets == 0 || m->clock_offsets != NULL);
    FZ_CHECK(m->num_forks == 0 || (m->forks != NULL && m->threads != NULL));
    for (size_t i = 0; i < m->num_forks; i++) /* two different threads of the table */
        FZ_CHECK(m->forks[i].thread != m->forks[i].parent);
    check_histograms(m);
}

/* --- round trip ------------------------------------------------------------- */

static int same_double(double a, double b) {
    return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

static void compare_rows(const sp_model *a, const sp_model *b) {
    FZ_CHECK(a->num_rows == b->num_rows);
    for (size_t i = 0; i < a->num_rows; i++) {
        const sp_model_row *x = &a->rows[i], *y = &b->rows[i];
        FZ_CHECK(x->region == y->region && x->rank == y->rank && x->count == y->count);
        FZ_CHECK(x->offset == y->offset && x->source_line == y->source_line);
        FZ_CHECK(x->exclusive_total == y->exclusive_total);
        FZ_CHECK(x->has_message_bytes == y->has_message_bytes &&
                 x->message_bytes == y->message_bytes);
        FZ_CHECK(strcmp(x->source_file, y->source_file) == 0);
        FZ_CHECK(strcmp(x->source_text, y->source_text) == 0);
        FZ_CHECK(strcmp(x->tags, y->tags) == 0);
        FZ_CHECK(strcmp(x->event_metadata, y->event_metadata) == 0);
        if (x->count == 0) continue;
        FZ_CHECK(x->stats.total == y->stats.total && x->stats.minimum == y->stats.minimum);
        FZ_CHECK(x->stats.maximum == y->stats.maximum && x->stats.first == y->stats.first);
        FZ_CHECK(x->stats.last == y->stats.last && x->stats.gpu_count == y->stats.gpu_count);
        FZ_CHECK(x->stats.start_minimum == y->stats.start_minimum);
        FZ_CHECK(x->stats.end_maximum == y->stats.end_maximum);
        FZ_CHECK(same_double(x->stats.mean, y->stats.mean) &&
                 same_double(x->stats.m2, y->stats.m2));
    }
}

static void compare_meta(const sp_model *a, const sp_model *b) {
    FZ_CHECK(a->num_meta == b->num_meta);
    for (size_t i = 0; i < a->num_meta; i++) {
        const sp_meta_entry *x = &a->meta[i], *y = &b->meta[i];
        FZ_CHECK(strcmp(x->key, y->key) == 0 && x->type == y->type);
        if (x->type == SP_META_INT) FZ_CHECK(x->i == y->i);
        if (x->type == SP_META_FLOAT) FZ_CHECK(same_double(x->f, y->f));
        if (x->type == SP_META_STRING) FZ_CHECK(strcmp(x->s, y->s) == 0);
        if (x->type != SP_META_STRING_LIST) continue;
        FZ_CHECK(x->list_len == y->list_len);
        for (size_t j = 0; j < x->list_len; j++)
            FZ_CHECK(strcmp(x->list[j], y->list[j]) == 0);
    }
}

static void compare_models(const sp_model *a, const sp_model *b) {
    FZ_CHECK(b->schema == 3 && b->layout == SP_LAYOUT_COLUMNAR);
    FZ_CHECK(a->num_regions == b->num_regions);
    for (size_t i = 0; i < a->num_regions; i++)
        FZ_CHECK(strcmp(a->region_names[i], b->region_names[i]) == 0);
    compare_rows(a, b);
    FZ_CHECK(a->num_events == b->num_events);
    for (size_t i = 0; i < a->num_events; i++) {
        FZ_CHECK(a->starts[i] == b->starts[i] && a->durations[i] == b->durations[i]);
        FZ_CHECK(!a->thread_ids || a->thread_ids[i] == b->thread_ids[i]);
    }
    compare_meta(a, b);
    FZ_CHECK(a->num_clock_offsets == b->num_clock_offsets);
    for (size_t i = 0; i < a->num_clock_offsets; i++)
        FZ_CHECK(a->clock_offsets[i].offset_ns == b->clock_offsets[i].offset_ns);
    /* The writer keeps /thread_table only beside /events/thread_ids. */
    if (!a->thread_ids) FZ_CHECK(b->num_threads == 0);
    if (!a->thread_ids) return;
    FZ_CHECK(a->num_threads == b->num_threads);
    for (size_t i = 0; i < a->num_threads; i++)
        FZ_CHECK(strcmp(a->threads[i].name, b->threads[i].name) == 0 &&
                 a->threads[i].native_id == b->threads[i].native_id);
}

void fz_check_round_trip(const sp_model *m, const char *path) {
    sp_error err;
    FZ_CHECK(sp_write_model(m, path, NULL, &err) == SP_OK);
    sp_model back;
    if (sp_read_model(path, &back, &err) != SP_OK) {
        fprintf(stderr, "re-reading what was written failed: %s\n", err.message);
        FZ_CHECK(!"round trip read");
    }
    compare_models(m, &back);
    sp_model_clear(&back);
}
