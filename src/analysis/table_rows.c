/* The display rows of the summary table (§5.1-5.3): call-path rows pooled
 * over ranks, flat fallback rows, and their order. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/path_depth.h"
#include "analysis/path_walk.h"
#include "analysis/regions.h"
#include "analysis/table_build.h"
#include "common/error.h"
#include "common/parallel_for.h"
#include "analysis/numpy_stats.h"

const char *const sp_table_columns[] = {
    "region",         "ranks",   "calls",        "total",   "percent",
    "parent_percent", "avg",     "min",          "max",     "first",
    "last",           "std",     "p50",          "p95",     "p99",
    "imbalance",      "slowest", "load_balance", "threads", "thread_imbalance",
    "slowest_thread", NULL};

/* A node's durations in pooling order, as a virtual array of doubles. */
typedef struct node_seq {
    const sp_node_calls *c;
    size_t span, at;
    int squared;
    double mean;
} node_seq;

/* Span by span: each run converts in one loop (in seconds, as sp_seconds). */
static void node_fill(void *ctx, size_t first, size_t count, double *buf) {
    node_seq *q = ctx;
    (void)first; /* blocks come in order */
    for (size_t k = 0; k < count;) {
        while (q->at == q->c->spans[q->span].n) {
            q->span++;
            q->at = 0;
        }
        const sp_span *s = &q->c->spans[q->span];
        size_t take = s->n - q->at;
        if (take > count - k) take = count - k;
        sp_fill_scaled(s->x + q->at, take, SP_NS_PER_SECOND, q->squared, q->mean, buf + k);
        k += take;
        q->at += take;
    }
}

static void path_row_balance(const sp_path_node *n, const sp_excluded_time *x, sp_table_row *row) {
    sp_balance_member stack[16] = {{0, 0, 0.0}}; /* only the first num_ranks are read */
    sp_balance_member *m = n->num_ranks <= 16 ? stack : malloc(n->num_ranks * sizeof *m);
    row->has_balance = m != NULL;
    if (!m) return;
    for (size_t i = 0; i < n->num_ranks; i++)
        m[i] = (sp_balance_member){n->rank_ids[i], -1, n->rank_totals[i]};
    sp_balance_compute(m, n->num_ranks, 0, &row->rank_balance);
    if (x) { /* the waits of the MPI calls at and below this path */
        sp_outside_members(x, row->call_path, SP_EXCLUDED_UNDER_PATH, m, n->num_ranks);
        sp_balance_compute(m, n->num_ranks, 0, &row->outside_balance);
        row->has_outside = 1;
    }
    sp_balance_compute(n->lanes, n->num_lanes, 1, &row->thread_balance);
    row->threads = n->max_threads;
    if (m != stack) free(m);
}

static void path_row_imbalance(const sp_path_node *n, const sp_excluded_time *x,
                               sp_table_row *row) {
    double max = 0.0;
    for (size_t i = 0; i < n->num_ranks; i++)
        if (i == 0 || n->rank_totals[i] > max) max = n->rank_totals[i];
    double mean =
        n->num_ranks ? sp_numpy_sum(n->rank_totals, n->num_ranks) / (double)n->num_ranks : 0.0;
    row->imbalance = n->num_ranks < 2 || mean == 0.0 ? 0.0 : (max / mean - 1.0) * 100.0;
    path_row_balance(n, x, row);
}

/* An aggregate file's path row from its merged histogram rows: no first or
 * last call, std from the rows' squared deviations (when the file has them),
 * percentiles within the histograms' bound. */
static sp_status hist_row_stats(const sp_path_node *n, const sp_excluded_time *x,
                                sp_table_row *row) {
    row->total = sp_seconds(n->total_ns);
    row->avg = row->total / (double)n->calls;
    row->std = n->has_spread ? sqrt(n->m2 / (double)n->calls) / SP_NS_PER_SECOND : NAN;
    row->exclusive = sp_seconds(n->exclusive_ns);
    row->min = sp_seconds(n->min_ns);
    row->max = sp_seconds(n->max_ns);
    row->has_first_last = 0;
    row->first = row->last = 0.0;
    row->percentile_error = SP_HIST_RELATIVE_ERROR;
    row->p50 = sp_hist_percentile(&n->hist, 50.0) / SP_NS_PER_SECOND;
    row->p95 = sp_hist_percentile(&n->hist, 95.0) / SP_NS_PER_SECOND;
    row->p99 = sp_hist_percentile(&n->hist, 99.0) / SP_NS_PER_SECOND;
    path_row_imbalance(n, x, row);
    return SP_OK;
}

/* A path row's statistics from its pooled calls (§5.1 step 4). */
static sp_status path_row_stats(const sp_path_node *n, const sp_excluded_time *x,
                                sp_table_row *row) {
    if (n->from_hists) return hist_row_stats(n, x, row);
    size_t calls = (size_t)n->calls;
    node_seq q = {&n->durations, 0, 0, 0, 0.0};
    row->total = sp_numpy_sum_gen(calls, node_fill, &q);
    row->avg = row->total / (double)calls;
    node_seq d = {&n->durations, 0, 0, 1, row->avg};
    row->std = sqrt(sp_numpy_sum_gen(calls, node_fill, &d) / (double)calls);
    row->exclusive = n->exclusive;
    row->min = sp_seconds(n->min_ns);
    row->max = sp_seconds(n->max_ns);
    static const double qs[3] = {50.0, 95.0, 99.0};
    double p[3];
    sp_status st = sp_percentiles_spans(n->durations.spans, n->durations.num_spans, n->min_ns,
                                        n->max_ns, qs, 3, SP_NS_PER_SECOND, p);
    row->p50 = p[0];
    row->p95 = p[1];
    row->p99 = p[2];
    path_row_imbalance(n, x, row);
    return st;
}

static sp_status path_row(const sp_path_trie *t, uint32_t id, sp_table_row *row) {
    sp_path_node *n = &t->nodes[id];
    size_t name_at = 0;
    memset(row, 0, sizeof *row);
    row->call_path = sp_trie_path_text(t, id, &name_at);
    if (!row->call_path) return SP_ERR_OUT_OF_MEMORY;
    row->name = row->call_path + name_at;
    row->depth = (int)n->depth;
    row->recursive = n->recursive;
    row->has_children = n->has_child_rows;
    row->num_ranks = n->num_ranks;
    row->calls = n->calls;
    row->has_timing = row->has_first_last = row->has_exclusive = row->has_imbalance = 1;
    row->has_percentiles = 1;
    row->first = n->first;
    row->last = n->last;
    row->coverage = n->coverage;
    row->start = n->from_hists ? (double)n->seq : n->min_start; /* first-call order */
    uint32_t parent = n->parent;
    if (parent != SP_NO_NODE && t->nodes[parent].calls) {
        row->has_parent_coverage = 1;
        row->parent_coverage = t->nodes[parent].coverage;
    }
    sp_status st = path_row_stats(n, t->excluded, row);
    sp_node_release(n); /* the largest scratch: release it early */
    if (st != SP_OK) {  /* the caller does not count a failed row: nothing may stay owned */
        free(row->call_path);
        row->call_path = NULL;
    }
    return st;
}

/* The path rows are independent: each reads the trie and its own node
 * (which it releases) and writes its own row, so they are built in parallel. */
typedef struct path_row_job {
    sp_path_trie *t;
    const uint32_t *ids;
    sp_table_row *rows;
    sp_status status; /* the first failure seen, SP_OK if none */
} path_row_job;

static void path_rows_at(void *ctx, size_t first, size_t count) {
    path_row_job *j = ctx;
    for (size_t i = first; i < first + count; i++) {
        sp_status st = path_row(j->t, j->ids[i], &j->rows[i]);
        sp_status none = SP_OK;
        if (st != SP_OK)
            __atomic_compare_exchange_n(&j->status, &none, st, 0, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED);
    }
}

static int compare_seq(const void *pa, const void *pb, void *ctx) {
    const sp_path_trie *t = ctx;
    uint32_t a = t->nodes[*(const uint32_t *)pa].seq, b = t->nodes[*(const uint32_t *)pb].seq;
    return (a > b) - (a < b);
}

/* Path rows in path insertion order; marks the nodes that get an "(own)" row
 * and gives each row its parent row (*parent, malloc'ed). */
static sp_status path_rows(sp_path_trie *t, sp_table_rows *out, size_t *num_paths,
                           size_t **parent) {
    uint32_t *ids = malloc((t->num_nodes + 1) * sizeof *ids);
    size_t *row_of = malloc((t->num_nodes + 1) * sizeof *row_of);
    *parent = malloc((t->num_nodes + 1) * sizeof **parent);
    if (!ids || !row_of || !*parent) {
        free(ids);
        free(row_of);
        return SP_ERR_OUT_OF_MEMORY;
    }
    size_t n = 0;
    for (size_t i = 0; i < t->num_nodes; i++) {
        if (!t->nodes[i].calls) continue;
        ids[n++] = (uint32_t)i;
        for (uint32_t p = t->nodes[i].parent; p != SP_NO_NODE; p = t->nodes[p].parent)
            t->nodes[p].has_child_rows = 1;
    }
    qsort_r(ids, n, sizeof *ids, compare_seq, t);
    for (size_t i = 0; i < n; i++)
        row_of[ids[i]] = i;
    for (size_t i = 0; i < n; i++) {
        uint32_t p = t->nodes[ids[i]].parent;
        (*parent)[i] = p != SP_NO_NODE && t->nodes[p].calls ? row_of[p] : SIZE_MAX;
    }
    path_row_job job = {t, ids, out->rows + out->count, SP_OK};
    sp_parallel_for(n, 1, path_rows_at, &job); /* a row pools a node's calls: work enough */
    out->count += n; /* a failed row owns nothing: freeing it is harmless */
    sp_status st = job.status;
    *num_paths = n;
    free(ids);
    free(row_of);
    return st;
}

sp_status sp_table_rows_build(const sp_results *r, const sp_filter *filter, const char *sort,
                              const char *percentage_mode, sp_table_rows *out, sp_error *err) {
    return sp_table_rows_build_capped(r, filter, sort, percentage_mode, 0, out, err);
}

sp_status sp_table_rows_build_capped(const sp_results *r, const sp_filter *filter, const char *sort,
                                     const char *percentage_mode, unsigned max_depth,
                                     sp_table_rows *out, sp_error *err) {
    memset(out, 0, sizeof *out);
    sp_table_sort sort_key;
    int exclusive_mode;
    sp_status st = sp_table_parse_options(sort, percentage_mode, &sort_key, &exclusive_mode, err);
    if (st != SP_OK) return st;
    sp_compiled_filter *f = sp_filter_compile(filter, err);
    if (!f) return err ? err->status : SP_ERR_BAD_PATTERN;
    uint32_t *regions = NULL;
    size_t num_regions = 0, num_paths = 0, nranks, *parent = NULL;
    const uint32_t *ranks = sp_filter_ranks(f, &nranks);
    sp_path_trie t;
    st = sp_select_regions(r, f, &regions, &num_regions, err);
    if (st == SP_OK &&
        (sp_trie_init(&t, r) != SP_OK || sp_trie_depth_init(&t, max_depth) != SP_OK)) {
        sp_trie_free(&t); /* what the failed init allocated */
        st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    } else if (st == SP_OK) {
        sp_error walk_err;
        sp_status walked =
            sp_columnar(r)
                ? sp_paths_collect(r, f, regions, num_regions, ranks, nranks, &t, &walk_err)
                : sp_paths_collect_hists(r, f, regions, num_regions, ranks, nranks, &t, &walk_err);
        if (walked == SP_ERR_OUT_OF_MEMORY) st = sp_error_set(err, walked, "out of memory");
        /* Calls that do not nest are damage in every output (docs/robustness.md),
         * not flat rows; only aggregate files without per-path totals fall back. */
        if (walked == SP_ERR_NESTING) st = sp_error_set(err, walked, "%s", walk_err.message);
        out->rows = calloc(t.num_nodes + num_regions + 1, sizeof *out->rows);
        if (st == SP_OK && !out->rows)
            st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        if (st == SP_OK && walked == SP_OK && path_rows(&t, out, &num_paths, &parent) != SP_OK)
            st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        if (st == SP_OK)
            st = sp_table_fallback_rows(r, f, regions, num_regions, walked == SP_OK ? &t : NULL,
                                        exclusive_mode, out, err);
        sp_trie_free(&t);
    }
    if (st == SP_OK) st = sp_table_order(out, num_paths, parent, sort_key, err);
    out->excluded_state = r->excluded_state;
    free(parent);
    free(regions);
    sp_filter_free(f);
    if (st != SP_OK) sp_table_rows_free(out);
    return st;
}

void sp_table_rows_free(sp_table_rows *rows) {
    if (!rows) return;
    for (size_t i = 0; rows->rows && i < rows->count; i++)
        free(rows->rows[i].call_path);
    free(rows->rows);
    memset(rows, 0, sizeof *rows);
}

double sp_table_row_own_coverage(const sp_table_row *r) {
    if (!(r->has_balance && r->threads > 1 && r->total > 0))
        return r->exclusive; /* one thread: its own intervals are disjoint, within coverage */
    double share = r->exclusive / r->total; /* both summed over threads */
    return r->coverage * (share < 0 ? 0 : share > 1 ? 1 : share);
}
