#include "model_builder.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static int has_rank(const mb_spec *s, uint32_t rank) {
    for (size_t i = 0; i < s->num_calls; i++)
        if (s->calls[i].rank == rank) return 1;
    return 0;
}

static size_t rank_list(const mb_spec *s, uint32_t *out) {
    if (s->rank_order) {
        memcpy(out, s->rank_order, s->num_rank_order * sizeof *out);
        return s->num_rank_order;
    }
    size_t n = 0;
    for (uint32_t rank = 0; rank < 4096; rank++)
        if (has_rank(s, rank)) out[n++] = rank;
    return n;
}

static void add_row(sp_model *m, const mb_spec *s, int region, uint32_t rank) {
    uint64_t first = m->num_events;
    for (size_t i = 0; i < s->num_calls; i++) {
        const mb_call *c = &s->calls[i];
        if (c->region != region || c->rank != rank) continue;
        m->starts[m->num_events] = c->start;
        m->durations[m->num_events] = c->end - c->start;
        if (m->thread_ids) m->thread_ids[m->num_events] = c->thread;
        m->num_events++;
    }
    if (m->num_events == first) return;
    sp_model_row *row = &m->rows[m->num_rows++];
    memset(row, 0, sizeof *row);
    row->region = (uint32_t)region;
    row->rank = rank;
    row->offset = first;
    row->count = m->num_events - first;
    row->source_line = -1;
    row->exclusive_total = -1;
    row->source_file = sp_strdup("");
    row->source_text = sp_strdup("");
    row->tags = sp_strdup("[]");
    row->event_metadata = sp_strdup("[]");
    sp_row_stats_compute(&row->stats, m->starts + first, m->durations + first, row->count);
    row->has_stats = 1;
}

static void add_metadata(sp_model *m, const mb_spec *s) {
    if (s->has_start) assert_int_equal(sp_model_meta_int(m, "start_time_ns", s->start_time_ns), 0);
    if (s->has_finalize)
        assert_int_equal(sp_model_meta_int(m, "finalize_time_ns", s->finalize_time_ns), 0);
    if (s->label) assert_int_equal(sp_model_meta_string(m, "label", s->label), 0);
    if (s->mpi_size) assert_int_equal(sp_model_meta_int(m, "mpi_size", s->mpi_size), 0);
}

void mb_model(const mb_spec *s, sp_model *m) {
    memset(m, 0, sizeof *m);
    m->path = sp_strdup(s->path ? s->path : "profiling_data.h5");
    m->schema = 3;
    m->layout = SP_LAYOUT_COLUMNAR;
    m->num_regions = s->num_regions;
    m->region_names = calloc(s->num_regions + 1, sizeof *m->region_names);
    for (size_t i = 0; i < s->num_regions; i++)
        m->region_names[i] = sp_strdup(s->regions[i]);
    size_t n = s->num_calls + 1;
    m->starts = calloc(n, sizeof *m->starts);
    m->durations = calloc(n, sizeof *m->durations);
    if (s->with_threads) m->thread_ids = calloc(n, sizeof *m->thread_ids);
    m->rows = calloc(s->num_regions * 4096 + 1, sizeof *m->rows);
    uint32_t *ranks = calloc(4096, sizeof *ranks);
    assert_non_null(ranks);
    size_t nranks = rank_list(s, ranks);
    for (size_t k = 0; k < nranks; k++)
        for (size_t g = 0; g < s->num_regions; g++)
            add_row(m, s, (int)g, ranks[k]);
    free(ranks);
    add_metadata(m, s);
    if (s->num_threads) {
        m->threads = calloc(s->num_threads, sizeof *m->threads);
        assert_non_null(m->threads);
        m->num_threads = s->num_threads;
        for (size_t i = 0; i < s->num_threads; i++) {
            sp_thread_info *t = &m->threads[i];
            t->rank = s->threads[i].rank;
            t->index = s->threads[i].index;
            t->ident = t->native_id = t->start_ns = t->end_ns = t->cpu_ns = -1;
            t->parent_slot = s->threads[i].parent + 1;
            t->name = sp_strdup("");
        }
    }
    sp_error err = {0};
    assert_int_equal(sp_model_check_index(m, "test model", &err), SP_OK);
}

sp_results *mb_results(const mb_spec *spec) {
    sp_model m;
    mb_model(spec, &m);
    sp_error err = {0};
    sp_results *r = sp_results_adopt(&m, &err);
    assert_non_null(r);
    return r;
}

void mb_make_aggregate(sp_model *m) {
    m->layout = SP_LAYOUT_AGGREGATE;
    free(m->starts);
    free(m->durations);
    free(m->thread_ids);
    m->starts = m->durations = m->thread_ids = NULL;
    m->num_events = 0;
    for (size_t i = 0; i < m->num_rows; i++)
        m->rows[i].offset = 0;
}

sp_model_row *mb_row(sp_model *m, int region, uint32_t rank) {
    for (size_t i = 0; i < m->num_rows; i++)
        if ((int)m->rows[i].region == region && m->rows[i].rank == rank) return &m->rows[i];
    return NULL;
}
