/*
 * hatchet: Caliper's "json-split" layout, which Hatchet's
 * GraphFrame.from_caliper and Thicket's from_caliper read (docs/ecosystem.md):
 *
 *   {"data": [[node order, path, mpi.rank, time (inc), time, count], ...],
 *    "columns": [...], "column_metadata": [{"is_value": ...}, ...],
 *    "nodes": [{"label": "solve", "column": "path", "parent": 0}, ...],
 *    <every /metadata field>: <its value>, ...}
 *
 * A node is a call path (parents listed before their children); its
 * "time (inc)" is the summed duration of its calls, "time" the part spent
 * outside their written children on the same thread (the exclusive time
 * without a selection), in seconds. Rows go rank by rank, one per node and
 * rank (zeros where a rank never took the path), so that row i of the first
 * rank is node i: Hatchet takes a node's order from data[i][0]. With
 * aggregate_ranks there is one row per node: the mean over the walked ranks,
 * plus the largest and smallest rank's inclusive time.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/py_float.h"
#include "export/formats.h"
#include "export/names.h"
#include "export/path_map.h"

typedef struct totals {
    int64_t inc_ns, exc_ns;
    uint64_t count;
} totals;

typedef struct record {
    uint32_t node;
    totals t;
} record;

typedef struct hatchet {
    sp_export_job *job;
    sp_path_map tree; /* (parent node, region) -> node */
    totals *cur;      /* per node, for the rank being walked */
    size_t cur_cap;
    uint32_t *touched; /* nodes with calls on this rank */
    size_t num_touched, touched_cap;
    record *recs; /* every rank's nodes, rank after rank */
    size_t num_recs, recs_cap;
    size_t *rank_first; /* per walked rank: its first record; one more at the end */
} hatchet;

static int grow(void **p, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap) return 1;
    size_t n = *cap ? *cap : 64;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, n * elem);
    if (!q) return 0;
    memset((char *)q + *cap * elem, 0, (n - *cap) * elem);
    *p = q;
    *cap = n;
    return 1;
}

static sp_status oom(hatchet *h) {
    return sp_error_set(h->job->err, SP_ERR_OUT_OF_MEMORY, "out of memory");
}

static sp_status on_enter(void *ctx, sp_walk_call *call, sp_walk_call *parent) {
    hatchet *h = ctx;
    int added;
    uint32_t up = parent ? (uint32_t)parent->user[0] : SP_PATH_NONE;
    uint32_t id = sp_path_map_get(&h->tree, up, call->region, &added);
    if (id == SP_PATH_NONE || !grow((void **)&h->cur, &h->cur_cap, h->tree.count, sizeof *h->cur))
        return oom(h);
    call->user[0] = id;
    call->user[1] = 0; /* time in written children on this thread */
    return SP_OK;
}

static sp_status on_leave(void *ctx, sp_walk_call *call, sp_walk_call *parent) {
    hatchet *h = ctx;
    int64_t dur = call->end_ns - call->start_ns;
    totals *t = &h->cur[call->user[0]];
    if (t->count == 0) {
        if (!grow((void **)&h->touched, &h->touched_cap, h->num_touched + 1, sizeof *h->touched))
            return oom(h);
        h->touched[h->num_touched++] = (uint32_t)call->user[0];
    }
    t->count++;
    t->inc_ns += dur;
    t->exc_ns += dur > (int64_t)call->user[1] ? dur - (int64_t)call->user[1] : 0;
    if (parent) parent->user[1] += (uint64_t)dur;
    return SP_OK;
}

/* Moves the walked rank's totals into the records and clears them. */
static int end_rank(hatchet *h) {
    if (!grow((void **)&h->recs, &h->recs_cap, h->num_recs + h->num_touched, sizeof *h->recs))
        return 0;
    for (size_t i = 0; i < h->num_touched; i++) {
        uint32_t n = h->touched[i];
        h->recs[h->num_recs++] = (record){n, h->cur[n]};
        memset(&h->cur[n], 0, sizeof h->cur[n]);
    }
    h->num_touched = 0;
    return 1;
}

static void put_seconds(sp_sink *s, double seconds) {
    char num[SP_PY_FLOAT_REPR_SIZE];
    sp_py_float_repr(seconds, num);
    sp_sink_puts(s, num);
}

static void put_row_head(sp_sink *s, size_t node, int first) {
    sp_sink_puts(s, first ? "\n[" : ",\n[");
    sp_sink_u64(s, node);
    sp_sink_putc(s, ',');
    sp_sink_u64(s, node);
}

/* One row per node and rank, zeros where the rank has no calls on the path. */
static int put_rank_rows(hatchet *h, size_t num_ranks) {
    sp_sink *s = h->job->sink;
    size_t n = h->tree.count;
    totals *dense = calloc(n ? n : 1, sizeof *dense);
    if (!dense) return 0;
    for (size_t i = 0; i < num_ranks; i++) {
        memset(dense, 0, n * sizeof *dense);
        for (size_t k = h->rank_first[i]; k < h->rank_first[i + 1]; k++)
            dense[h->recs[k].node] = h->recs[k].t;
        uint32_t rank = sp_call_walker_rank(h->job->w, i);
        for (size_t node = 0; node < n; node++) {
            put_row_head(s, node, i == 0 && node == 0);
            sp_sink_putc(s, ',');
            sp_sink_u64(s, rank);
            sp_sink_putc(s, ',');
            sp_sink_scaled(s, dense[node].inc_ns, 9);
            sp_sink_putc(s, ',');
            sp_sink_scaled(s, dense[node].exc_ns, 9);
            sp_sink_putc(s, ',');
            sp_sink_u64(s, dense[node].count);
            sp_sink_putc(s, ']');
        }
    }
    free(dense);
    return 1;
}

typedef struct spread {
    int64_t inc_ns, exc_ns, max_ns, min_ns;
    uint64_t count, ranks;
} spread;

/* One row per node: mean over the ranks, the largest and smallest rank's inclusive time. */
static int put_mean_rows(hatchet *h, size_t num_ranks) {
    sp_sink *s = h->job->sink;
    size_t n = h->tree.count;
    spread *a = calloc(n ? n : 1, sizeof *a);
    if (!a) return 0;
    for (size_t k = 0; k < h->num_recs; k++) {
        spread *p = &a[h->recs[k].node];
        const totals *t = &h->recs[k].t;
        p->inc_ns += t->inc_ns;
        p->exc_ns += t->exc_ns;
        p->count += t->count;
        if (!p->ranks || t->inc_ns > p->max_ns) p->max_ns = t->inc_ns;
        if (!p->ranks || t->inc_ns < p->min_ns) p->min_ns = t->inc_ns;
        p->ranks++;
    }
    double r = num_ranks ? (double)num_ranks : 1;
    for (size_t node = 0; node < n; node++) {
        const spread *p = &a[node];
        put_row_head(s, node, node == 0);
        sp_sink_putc(s, ',');
        put_seconds(s, (double)p->inc_ns / r / 1e9);
        sp_sink_putc(s, ',');
        put_seconds(s, (double)p->exc_ns / r / 1e9);
        sp_sink_putc(s, ',');
        sp_sink_u64(s, p->count);
        sp_sink_putc(s, ',');
        sp_sink_scaled(s, p->max_ns, 9);
        sp_sink_putc(s, ',');
        sp_sink_scaled(s, p->ranks < num_ranks ? 0 : p->min_ns, 9);
        sp_sink_putc(s, ']');
    }
    free(a);
    return 1;
}

static void put_columns(sp_sink *s, int mean) {
    static const char rank_columns[] =
        "],\n\"columns\":[\"Node order\",\"path\",\"mpi.rank\",\"time "
        "(inc)\",\"time\",\"count\"],\n"
        "\"column_metadata\":[{\"is_value\":true,\"attribute.alias\":\"Node order\"},"
        "{\"is_value\":false},{\"is_value\":true},"
        "{\"is_value\":true,\"attribute.unit\":\"sec\"},{\"is_value\":true,\"attribute.unit\":"
        "\"sec\"},{\"is_value\":true}],\n";
    static const char mean_columns[] =
        "],\n\"columns\":[\"Node order\",\"path\",\"time (inc)\",\"time\",\"count\",\"max time "
        "(inc)\",\"min time (inc)\"],\n"
        "\"column_metadata\":[{\"is_value\":true,\"attribute.alias\":\"Node order\"},"
        "{\"is_value\":false},{\"is_value\":true,\"attribute.unit\":\"sec\"},"
        "{\"is_value\":true,\"attribute.unit\":\"sec\"},{\"is_value\":true},"
        "{\"is_value\":true,\"attribute.unit\":\"sec\"},{\"is_value\":true,\"attribute.unit\":"
        "\"sec\"}],\n";
    sp_sink_puts(s, mean ? mean_columns : rank_columns);
}

static void put_nodes(hatchet *h, const sp_names *names) {
    sp_sink *s = h->job->sink;
    sp_sink_puts(s, "\"nodes\":[");
    for (size_t i = 0; i < h->tree.count; i++) {
        const sp_path_pair *p = &h->tree.pairs[i];
        sp_sink_puts(s, i ? ",\n{\"label\":" : "\n{\"label\":");
        sp_sink_write(s, names->text[p->key], names->len[p->key]);
        sp_sink_puts(s, ",\"column\":\"path\"");
        if (p->parent != SP_PATH_NONE) {
            sp_sink_puts(s, ",\"parent\":");
            sp_sink_u64(s, p->parent);
        }
        sp_sink_putc(s, '}');
    }
    sp_sink_puts(s, "]");
}

/* Every metadata field as a top-level member (Hatchet's run metadata, Thicket's
 * metadata table); a key naming one of the four sections is left out. */
static int put_globals(hatchet *h) {
    static const char *const sections[] = {"data", "columns", "column_metadata", "nodes"};
    sp_sink *s = h->job->sink;
    int ok = 1;
    for (size_t i = 0; i < sp_results_num_metadata(h->job->r); i++) {
        sp_metadata_item it;
        sp_results_metadata_at(h->job->r, i, &it);
        int clash = 0;
        for (size_t k = 0; k < sizeof sections / sizeof *sections; k++)
            clash |= strcmp(it.key, sections[k]) == 0;
        if (clash) continue;
        sp_sink_puts(s, ",\n");
        ok &= sp_sink_json_string(s, it.key);
        sp_sink_putc(s, ':');
        sp_sink_json_meta_value(s, &it, &ok);
    }
    return ok;
}

sp_status sp_write_hatchet(sp_export_job *job) {
    hatchet h;
    memset(&h, 0, sizeof h);
    h.job = job;
    size_t num_ranks = sp_call_walker_num_ranks(job->w);
    h.rank_first = calloc(num_ranks + 1, sizeof *h.rank_first);
    sp_status st = h.rank_first ? SP_OK : oom(&h);
    sp_walk_visitor v = {on_enter, on_leave, &h};
    for (size_t i = 0; st == SP_OK && i < num_ranks; i++) {
        st = sp_call_walker_run(job->w, sp_call_walker_rank(job->w, i), SP_WALK_ALL_LANES, &v,
                                job->err);
        if (st == SP_OK && !end_rank(&h)) st = oom(&h);
        if (st == SP_OK) h.rank_first[i + 1] = h.num_recs;
    }
    sp_names names;
    if (st == SP_OK) st = sp_names_build(&names, job->r, SP_NAMES_JSON, job->err);
    if (st == SP_OK) {
        int mean = job->options->aggregate_ranks;
        sp_sink_puts(job->sink, "{\"data\":[");
        int ok = mean ? put_mean_rows(&h, num_ranks) : put_rank_rows(&h, num_ranks);
        put_columns(job->sink, mean);
        put_nodes(&h, &names);
        ok &= put_globals(&h);
        sp_sink_puts(job->sink, "}\n");
        if (!ok) st = oom(&h);
        sp_names_free(&names);
    }
    sp_path_map_free(&h.tree);
    free(h.cur);
    free(h.touched);
    free(h.recs);
    free(h.rank_first);
    return st;
}
