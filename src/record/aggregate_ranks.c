/*
 * Aggregate mode under MPI (record/aggregate_ranks.h): a rank's aggregate
 * model as bytes, and rank 0's merge of every rank's bytes into one model,
 * written through the session's writer. The bytes never leave the job (all
 * ranks run the same binary), so they are native structs and integers.
 */
#include "record/aggregate_ranks.h"

#include <stdlib.h>
#include <string.h>

#include "common/blob.h"
#include "record/region_tags.h"
#include "record/registry.h"

#define PACK_MAGIC 0x47415053u /* "SPAG" */

static void put_u64(sp_blob *b, uint64_t v) {
    sp_blob_put(b, &v, sizeof v);
}

unsigned char *sp_internal_agg_pack(const sp_model *m, size_t *size) {
    sp_blob b = {0};
    put_u64(&b, PACK_MAGIC);
    put_u64(&b, m->num_rows);
    for (size_t i = 0; i < m->num_rows; i++) {
        const sp_model_row *r = &m->rows[i];
        put_u64(&b, r->region);
        put_u64(&b, r->count);
        sp_blob_put(&b, &r->exclusive_total, sizeof r->exclusive_total);
        sp_blob_put(&b, &r->source_line, sizeof r->source_line);
        sp_blob_put(&b, &r->stats, sizeof r->stats);
        sp_blob_put_string(&b, r->source_file);
    }
    put_u64(&b, m->num_threads);
    for (size_t i = 0; i < m->num_threads; i++) {
        sp_thread_info t = m->threads[i];
        t.name = NULL;
        sp_blob_put(&b, &t, sizeof t);
        sp_blob_put_string(&b, m->threads[i].name);
    }
    put_u64(&b, m->num_hists);
    put_u64(&b, (uint64_t)m->hist_totals);
    put_u64(&b, (uint64_t)m->hist_spread);
    put_u64(&b, (uint64_t)m->hist_forks);
    for (size_t i = 0; i < m->num_hists; i++) {
        const sp_model_hist *h = &m->hists[i];
        sp_model_hist head = *h;
        head.hist.counts = NULL;
        sp_blob_put(&b, &head, sizeof head);
        sp_blob_put(&b, h->hist.counts, (size_t)(h->hist.hi - h->hist.lo) * sizeof *h->hist.counts);
    }
    if (b.failed) {
        free(b.data);
        return NULL;
    }
    *size = b.size;
    return b.data;
}

static uint64_t get_u64(sp_blob_reader *b) {
    uint64_t v = 0;
    sp_blob_get(b, &v, sizeof v);
    return v;
}

/* Appends n more elements' room to an array of the model (zeroed). */
static int grow(void **array, size_t have, size_t more, size_t element) {
    void *grown = realloc(*array, (have + more ? have + more : 1) * element);
    if (!grown) return 0;
    memset((char *)grown + have * element, 0, more * element);
    *array = grown;
    return 1;
}

static int append_rows(sp_model *m, sp_blob_reader *b, uint32_t rank, const uint32_t *map,
                       size_t map_length) {
    uint64_t n = get_u64(b);
    if (b->failed || n > b->size || !grow((void **)&m->rows, m->num_rows, n, sizeof *m->rows))
        return 0;
    for (uint64_t i = 0; i < n; i++) {
        sp_model_row *r = &m->rows[m->num_rows];
        uint64_t local = get_u64(b);
        r->count = get_u64(b);
        sp_blob_get(b, &r->exclusive_total, sizeof r->exclusive_total);
        sp_blob_get(b, &r->source_line, sizeof r->source_line);
        sp_blob_get(b, &r->stats, sizeof r->stats);
        r->source_file = sp_blob_get_string(b);
        m->num_rows++; /* owned strings are freed with the model from here on */
        r->source_text = sp_strdup("");
        r->tags = sp_strdup("[]");
        r->event_metadata = sp_strdup("[]");
        if (b->failed || local >= map_length || !r->source_text || !r->tags || !r->event_metadata)
            return 0;
        r->region = map[local];
        /* the other rank's tags are this one's: the same program tagged the same names */
        free(r->tags);
        r->tags = sp_region_tags_json(sp_registry_find(m->region_names[r->region]));
        if (!r->tags) return 0;
        r->rank = rank;
        r->has_stats = 1;
    }
    return 1;
}

static int append_threads(sp_model *m, sp_blob_reader *b, uint32_t rank) {
    uint64_t n = get_u64(b);
    if (b->failed || n > b->size ||
        !grow((void **)&m->threads, m->num_threads, n, sizeof *m->threads))
        return 0;
    for (uint64_t i = 0; i < n; i++) {
        sp_thread_info *t = &m->threads[m->num_threads];
        sp_blob_get(b, t, sizeof *t);
        t->name = sp_blob_get_string(b);
        m->num_threads++;
        if (b->failed) return 0;
        t->rank = rank;
    }
    return 1;
}

static int append_hists(sp_model *m, sp_blob_reader *b, uint32_t rank, const uint32_t *map,
                        size_t map_length) {
    uint64_t n = get_u64(b);
    if (!get_u64(b)) m->hist_totals = 0; /* a rank without totals: the file has none */
    if (!get_u64(b)) m->hist_spread = 0;
    int forks = get_u64(b) != 0; /* without: this rank's rows are all top-level */
    size_t base = m->num_hists;
    if (b->failed || n > b->size || !grow((void **)&m->hists, m->num_hists, n, sizeof *m->hists))
        return 0;
    for (uint64_t i = 0; i < n; i++) {
        sp_model_hist head;
        sp_blob_get(b, &head, sizeof head);
        if (b->failed || head.region >= map_length || head.hist.hi < head.hist.lo ||
            head.hist.hi > SP_HIST_NUM_BUCKETS || head.parent < -1 || head.parent >= (int64_t)i ||
            (forks && (head.fork_parent < -1 || head.fork_parent >= (int64_t)i)))
            return 0;
        size_t width = head.hist.hi - head.hist.lo;
        head.hist.counts = width ? malloc(width * sizeof *head.hist.counts) : NULL;
        if (width && !head.hist.counts) return 0;
        sp_blob_get(b, head.hist.counts, width * sizeof *head.hist.counts);
        head.rank = rank;
        head.region = map[head.region];
        head.parent = head.parent >= 0 ? head.parent + (int64_t)base : -1;
        head.fork_parent = forks && head.fork_parent >= 0 ? head.fork_parent + (int64_t)base : -1;
        m->hists[m->num_hists++] = head;
        if (b->failed) return 0;
    }
    return 1;
}

sp_status sp_internal_agg_write_ranks(sp_session_data *data, const unsigned char *const *packs,
                                      const size_t *sizes, int num_ranks, char *const *names,
                                      size_t num_names, uint32_t *const *map,
                                      const size_t *map_length, int64_t num_nodes) {
    sp_status st = sp_internal_session_describe(data, num_ranks, num_nodes);
    if (st) return st;
    sp_model merged;
    memset(&merged, 0, sizeof merged);
    merged.schema = 3;
    merged.layout = SP_LAYOUT_AGGREGATE;
    merged.hist_totals = merged.hist_spread = merged.hist_forks = 1;
    merged.region_names = calloc(num_names ? num_names : 1, sizeof *merged.region_names);
    int ok = merged.region_names != NULL;
    for (size_t i = 0; ok && i < num_names; i++) {
        ok = (merged.region_names[i] = sp_strdup(names[i])) != NULL;
        merged.num_regions += ok;
    }
    for (int r = 0; ok && r < num_ranks; r++) {
        sp_blob_reader b = {packs[r], sizes[r], 0, 0};
        ok = packs[r] && get_u64(&b) == PACK_MAGIC &&
             append_rows(&merged, &b, (uint32_t)r, map[r], map_length[r]) &&
             append_threads(&merged, &b, (uint32_t)r) &&
             append_hists(&merged, &b, (uint32_t)r, map[r], map_length[r]) && b.pos == b.size;
    }
    if (!ok) {
        sp_model_clear(&merged);
        return SP_ERR_OUT_OF_MEMORY;
    }
    merged.meta = data->model.meta; /* rank 0's metadata, as describe made it */
    merged.num_meta = data->model.num_meta;
    data->model.meta = NULL;
    data->model.num_meta = 0;
    st = sp_internal_session_write(data, &merged);
    sp_model_clear(&merged);
    return st;
}
