/*
 * merge of aggregate-layout files (aggregate mode's per-rank files): they
 * hold a few KiB per call path, so every input goes into one model, which
 * the aggregate writer writes atomically. Rows and thread tables keep their
 * (merged) ranks; histograms are kept when every input has them (the
 * reader wants every row's calls in a histogram), else dropped with a
 * warning: percentiles are then unavailable.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_contain.h"
#include "cli/cli_error.h"
#include "cli/merge.h"
#include "common/error.h"
#include "format/reader.h"
#include "format/write_aggregate.h"

static int grow(void **array, size_t have, size_t more, size_t element) {
    void *grown = realloc(*array, (have + more ? have + more : 1) * element);
    if (!grown) return 0;
    memset((char *)grown + have * element, 0, more * element);
    *array = grown;
    return 1;
}

static sp_status copy_metadata(sp_model *out, const merge_plan *plan, const sp_model *m) {
    size_t n = 0;
    sp_meta_entry *meta = merge_metadata(plan, m, &n);
    sp_status st = meta ? SP_OK : SP_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; !st && i < n; i++) {
        const sp_meta_entry *e = &meta[i];
        if (e->type == SP_META_INT) st = sp_model_meta_int(out, e->key, e->i);
        if (e->type == SP_META_FLOAT) st = sp_model_meta_float(out, e->key, e->f);
        if (e->type == SP_META_STRING) st = sp_model_meta_string(out, e->key, e->s);
        if (e->type == SP_META_STRING_LIST)
            st = sp_model_meta_list(out, e->key, (const char *const *)e->list, e->list_len);
    }
    free(meta);
    return st;
}

/* Moves m's rows, threads and histograms into out, renumbered. */
static sp_status take_input(sp_model *out, const merge_input *in, sp_model *m, int hists) {
    if (!grow((void **)&out->rows, out->num_rows, m->num_rows, sizeof *out->rows) ||
        !grow((void **)&out->threads, out->num_threads, m->num_threads, sizeof *out->threads) ||
        (hists && !grow((void **)&out->hists, out->num_hists, m->num_hists, sizeof *out->hists)))
        return SP_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < m->num_rows; i++) {
        sp_model_row *r = &out->rows[out->num_rows++];
        *r = m->rows[i];
        memset(&m->rows[i], 0, sizeof m->rows[i]); /* the strings moved */
        r->region = in->region_map[r->region];
        r->rank = merge_row_rank(in, r->rank);
    }
    for (size_t i = 0; i < m->num_threads; i++) {
        sp_thread_info *t = &out->threads[out->num_threads++];
        *t = m->threads[i];
        m->threads[i].name = NULL;
        t->rank = merge_row_rank(in, t->rank);
    }
    size_t base = out->num_hists;
    for (size_t i = 0; hists && i < m->num_hists; i++) {
        sp_model_hist *h = &out->hists[out->num_hists++];
        *h = m->hists[i];
        m->hists[i].hist.counts = NULL;
        h->region = in->region_map[h->region];
        h->rank = merge_row_rank(in, h->rank);
        if (h->parent >= 0) h->parent += (int64_t)base;
        h->fork_parent = m->hist_forks && h->fork_parent >= 0 ? h->fork_parent + (int64_t)base : -1;
    }
    return SP_OK;
}

sp_status merge_write_aggregate(const merge_plan *plan, const char *out_path, sp_error *err) {
    sp_model out;
    memset(&out, 0, sizeof out);
    out.schema = 3;
    out.layout = SP_LAYOUT_AGGREGATE;
    out.hist_totals = out.hist_spread = 1; /* kept when every input with calls has them */
    out.hist_forks = 1;                    /* an input without: its rows are top-level */
    out.region_names = calloc(plan->num_names ? plan->num_names : 1, sizeof *out.region_names);
    sp_status st = out.region_names ? SP_OK : SP_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; !st && i < plan->num_names; i++) {
        if (!(out.region_names[i] = sp_strdup(plan->names[i]))) st = SP_ERR_OUT_OF_MEMORY;
        out.num_regions += !st;
    }
    int hists = 1;
    const char *without = NULL;
    for (size_t i = 0; !st && i < plan->count; i++) {
        const merge_input *in = &plan->inputs[i];
        sp_model m;
        memset(&m, 0, sizeof m);
        cli_reading(in->path);
        st = sp_read_model(in->path, &m, err);
        if (st) break;
        uint64_t calls = 0;
        for (size_t k = 0; k < m.num_rows; k++)
            calls += m.rows[k].count;
        if (m.layout != SP_LAYOUT_AGGREGATE || calls != in->num_events ||
            m.num_regions != in->num_names)
            st = sp_error_set(err, SP_ERR_DAMAGED, "%s: changed while being merged", in->path);
        if (!st && !m.num_hists && m.num_rows && hists) {
            hists = 0;
            without = in->path;
        }
        if (!st && m.num_rows && !m.hist_totals) out.hist_totals = 0;
        if (!st && m.num_rows && !m.hist_spread) out.hist_spread = 0;
        if (!st && i == 0) st = copy_metadata(&out, plan, &m);
        if (!st) st = take_input(&out, in, &m, hists);
        sp_model_clear(&m);
    }
    if (!st && !hists) {
        for (size_t i = 0; i < out.num_hists; i++)
            sp_hist_free(&out.hists[i].hist);
        free(out.hists);
        out.hists = NULL;
        out.num_hists = 0;
        cli_warn("%s: %s has no duration histograms, so the merged file has none (no "
                 "percentiles)",
                 out_path, without);
    }
    if (!st) st = sp_write_aggregate_model(&out, out_path, err);
    if (st == SP_ERR_OUT_OF_MEMORY && !err->message[0])
        sp_error_set(err, st, "%s: out of memory while merging", out_path);
    sp_model_clear(&out);
    return st;
}
