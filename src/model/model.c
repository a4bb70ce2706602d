#include "model/model.h"
#include "model/event_window.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

char *sp_strdup(const char *s) {
    if (!s) s = "";
    size_t n = strlen(s) + 1;
    char *copy = malloc(n);
    if (copy) memcpy(copy, s, n);
    return copy;
}

static void meta_entry_clear(sp_meta_entry *e) {
    free(e->key);
    free(e->s);
    for (size_t i = 0; i < e->list_len; i++)
        free(e->list[i]);
    free(e->list);
    memset(e, 0, sizeof *e);
}

void sp_model_free_row_string(const sp_model *m, char *s) {
    for (size_t i = 0; i < m->num_shared_strings; i++) {
        const char *base = m->shared_strings[i];
        if ((uintptr_t)s >= (uintptr_t)base &&
            (uintptr_t)s < (uintptr_t)base + m->shared_strings_size[i])
            return;
    }
    free(s);
}

void sp_model_clear(sp_model *m) {
    if (!m) return;
    free(m->path);
    for (size_t i = 0; i < m->num_regions; i++)
        free(m->region_names[i]);
    free(m->region_names);
    for (size_t i = 0; i < m->num_rows; i++) {
        sp_model_row *r = &m->rows[i];
        sp_model_free_row_string(m, r->source_file);
        sp_model_free_row_string(m, r->source_text);
        sp_model_free_row_string(m, r->tags);
        sp_model_free_row_string(m, r->event_metadata);
    }
    for (size_t i = 0; i < m->num_shared_strings; i++)
        free(m->shared_strings[i]);
    free(m->shared_strings);
    free(m->shared_strings_size);
    free(m->rows);
    free(m->starts);
    free(m->durations);
    free(m->thread_ids);
    free(m->call_ids);
    free(m->parent_ids);
    if (m->event_source) m->event_source->ops->close(m->event_source);
    for (size_t i = 0; i < m->num_meta; i++)
        meta_entry_clear(&m->meta[i]);
    free(m->meta);
    for (size_t i = 0; i < m->num_threads; i++)
        free(m->threads[i].name);
    free(m->threads);
    free(m->clock_offsets);
    free(m->forks);
    for (size_t i = 0; i < m->num_hists; i++)
        sp_hist_free(&m->hists[i].hist);
    free(m->hists);
    memset(m, 0, sizeof *m);
}

const sp_meta_entry *sp_model_meta_find(const sp_model *m, const char *key) {
    for (size_t i = 0; i < m->num_meta; i++)
        if (strcmp(m->meta[i].key, key) == 0) return &m->meta[i];
    return NULL;
}

/* Returns a cleared entry for key: the existing one (emptied) or a new one at the end. */
static sp_meta_entry *meta_slot(sp_model *m, const char *key) {
    for (size_t i = 0; i < m->num_meta; i++) {
        if (strcmp(m->meta[i].key, key) == 0) {
            char *k = m->meta[i].key;
            m->meta[i].key = NULL;
            meta_entry_clear(&m->meta[i]);
            m->meta[i].key = k;
            return &m->meta[i];
        }
    }
    sp_meta_entry *grown = realloc(m->meta, (m->num_meta + 1) * sizeof *grown);
    if (!grown) return NULL;
    m->meta = grown;
    sp_meta_entry *e = &m->meta[m->num_meta];
    memset(e, 0, sizeof *e);
    e->key = sp_strdup(key);
    if (!e->key) return NULL;
    m->num_meta++;
    return e;
}

sp_status sp_model_meta_int(sp_model *m, const char *key, int64_t value) {
    sp_meta_entry *e = meta_slot(m, key);
    if (!e) return SP_ERR_OUT_OF_MEMORY;
    e->type = SP_META_INT;
    e->i = value;
    return SP_OK;
}

sp_status sp_model_meta_float(sp_model *m, const char *key, double value) {
    sp_meta_entry *e = meta_slot(m, key);
    if (!e) return SP_ERR_OUT_OF_MEMORY;
    e->type = SP_META_FLOAT;
    e->f = value;
    return SP_OK;
}

sp_status sp_model_meta_string(sp_model *m, const char *key, const char *value) {
    sp_meta_entry *e = meta_slot(m, key);
    if (!e) return SP_ERR_OUT_OF_MEMORY;
    e->type = SP_META_STRING;
    e->s = sp_strdup(value);
    return e->s ? SP_OK : SP_ERR_OUT_OF_MEMORY;
}

sp_status sp_model_meta_list(sp_model *m, const char *key, const char *const *values, size_t n) {
    sp_meta_entry *e = meta_slot(m, key);
    if (!e) return SP_ERR_OUT_OF_MEMORY;
    e->type = SP_META_STRING_LIST;
    e->list = calloc(n ? n : 1, sizeof *e->list);
    if (!e->list) return SP_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < n; i++) {
        e->list[i] = sp_strdup(values[i]);
        if (!e->list[i]) return SP_ERR_OUT_OF_MEMORY;
        e->list_len = i + 1;
    }
    return SP_OK;
}

void sp_row_stats_compute(sp_row_stats *st, const int64_t *starts, const int64_t *durations,
                          uint64_t count) {
    memset(st, 0, sizeof *st);
    if (count == 0) return;
    st->first = durations[0];
    st->last = durations[count - 1];
    st->minimum = durations[0];
    st->maximum = durations[0];
    st->start_minimum = starts[0];
    st->end_maximum = starts[0] + durations[0];
    int64_t total = 0;
    for (uint64_t i = 0; i < count; i++) {
        int64_t d = durations[i];
        total += d;
        if (d < st->minimum) st->minimum = d;
        if (d > st->maximum) st->maximum = d;
        if (starts[i] < st->start_minimum) st->start_minimum = starts[i];
        if (starts[i] + d > st->end_maximum) st->end_maximum = starts[i] + d;
    }
    st->total = total;
    double mean = (double)total / (double)count;
    double m2 = 0.0;
    for (uint64_t i = 0; i < count; i++) {
        double dev = (double)durations[i] - mean;
        m2 += dev * dev;
    }
    st->mean = mean;
    st->m2 = m2;
}

static int compare_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Rows of one rank must be consecutive: each rank starts at most one run of rows. */
static sp_status check_rank_runs(const sp_model *m, const char *what, sp_error *err) {
    if (m->num_rows < 2) return SP_OK;
    uint32_t *run_ranks = malloc(m->num_rows * sizeof *run_ranks);
    if (!run_ranks) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "%s: out of memory", what);
    size_t runs = 0;
    for (size_t i = 0; i < m->num_rows; i++)
        if (i == 0 || m->rows[i].rank != m->rows[i - 1].rank) run_ranks[runs++] = m->rows[i].rank;
    qsort(run_ranks, runs, sizeof *run_ranks, compare_u32);
    sp_status st = SP_OK;
    for (size_t i = 1; i < runs; i++) {
        if (run_ranks[i] == run_ranks[i - 1]) {
            st = sp_error_set(err, SP_ERR_DAMAGED,
                              "%s: damaged profile: the rows of rank %" PRIu32
                              " are not consecutive in /rank_region_index",
                              what, run_ranks[i]);
            break;
        }
    }
    free(run_ranks);
    return st;
}

sp_status sp_model_check_index(const sp_model *m, const char *what, sp_error *err) {
    uint64_t expected_offset = 0;
    for (size_t i = 0; i < m->num_rows; i++) {
        const sp_model_row *r = &m->rows[i];
        if (r->region >= m->num_regions)
            return sp_error_set(err, SP_ERR_DAMAGED,
                                "%s: damaged profile: row %zu names region id %" PRIu32
                                " but the region table has %zu entries",
                                what, i, r->region, m->num_regions);
        if (m->layout == SP_LAYOUT_AGGREGATE) continue;
        if (r->offset != expected_offset)
            return sp_error_set(err, SP_ERR_DAMAGED,
                                "%s: damaged profile: row %zu starts at event %" PRIu64
                                " but the rows before it end at event %" PRIu64
                                " (overlapping or gapped rows)",
                                what, i, r->offset, expected_offset);
        if (r->count > m->num_events || r->offset > m->num_events - r->count)
            return sp_error_set(err, SP_ERR_DAMAGED,
                                "%s: damaged profile: row %zu covers events %" PRIu64 " to %" PRIu64
                                " but the event columns hold %zu",
                                what, i, r->offset, r->offset + r->count, m->num_events);
        expected_offset = r->offset + r->count;
    }
    if (m->layout == SP_LAYOUT_COLUMNAR && expected_offset != m->num_events)
        return sp_error_set(err, SP_ERR_DAMAGED,
                            "%s: damaged profile: the rows cover %" PRIu64
                            " events but the event columns hold %zu",
                            what, expected_offset, m->num_events);
    return check_rank_runs(m, what, err);
}
