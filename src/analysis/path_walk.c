#include "analysis/path_walk.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/call_tree.h"
#include "analysis/path_depth.h"
#include "common/error.h"
#include "analysis/unavailable.h"

typedef struct path_walk {
    const sp_results *r;
    sp_path_trie *t;
    double origin;
    uint32_t pass;         /* index of the rank being pooled */
    uint32_t rank;         /* the rank being pooled */
    uint32_t next_seq;     /* path insertion order */
    sp_touched touched;    /* nodes with calls on this rank */
    int64_t *unfiltered;   /* exclusive ns per event of the rank, from the unfiltered tree */
    uint64_t base;         /* first event of the rank */
    const int64_t *column; /* the model's durations when read whole (borrowed by nodes) */
    uint32_t *cache_parent, *cache_node; /* per region: its node under that parent node */
    uint8_t *cache_collapsed;            /* per region: whether its elements collapsed */
    uint32_t *cache_levels;              /* per region: its elements past the depth cap */
    int failed;                          /* out of memory in a leave callback */
} path_walk;

sp_status sp_walk_touch(sp_path_trie *t, uint32_t pass, uint32_t id, sp_touched *list) {
    sp_path_node *n = &t->nodes[id];
    if (n->rank_pass == pass) return SP_OK;
    if (list->count == list->cap) {
        size_t cap = list->cap ? 2 * list->cap : 64;
        uint32_t *grown = realloc(list->ids, cap * sizeof *grown);
        if (!grown) return SP_ERR_OUT_OF_MEMORY;
        list->ids = grown;
        list->cap = cap;
    }
    list->ids[list->count++] = id;
    n->rank_pass = pass;
    n->rank_total = 0.0;
    n->rank_threads.count = 0;
    n->cov_open = 0;
    n->cov_done = 0.0;
    return SP_OK;
}

/* Statistics that need only the call itself, in pooling order (§5.1 step 4). */
static void pool_call(path_walk *w, sp_path_node *n, const sp_tree_frame *call) {
    double duration = sp_seconds(call->end - call->start);
    double start = sp_seconds(call->start) - w->origin, end = sp_seconds(call->end) - w->origin;
    if (n->seq == SP_NO_NODE) {
        n->seq = w->next_seq++;
        n->min_start = start;
        n->first = duration;
        n->max_end = end;
        n->last = duration;
    }
    if (start < n->min_start) {
        n->min_start = start;
        n->first = duration;
    }
    if (end > n->max_end) {
        n->max_end = end;
        n->last = duration;
    }
    n->rank_total += duration;
    /* Union of the rank's intervals; the walk visits them by start. */
    if (!n->cov_open) {
        n->cov_open = 1;
        n->cov_start = start;
        n->cov_end = end;
    } else if (start <= n->cov_end) {
        if (end > n->cov_end) n->cov_end = end;
    } else {
        n->cov_done += n->cov_end - n->cov_start;
        n->cov_start = start;
        n->cov_end = end;
    }
}

/* Where element `piece` under `node` folds to, or SP_NO_NODE when it does not.
 * A path that ends in a repeated chain S S (S = x, or a > b, or ...) folds onto
 * the first S: adjacent repeats (x > x -> x, the Python package's rule) and
 * mutual recursion (a > b > a > b -> a > b) alike, so deep recursion gives a
 * bounded number of rows instead of one row per level (docs/robustness.md). */
static uint32_t fold_target(const sp_path_trie *t, uint32_t node, uint32_t piece) {
    if (node == SP_NO_NODE) return SP_NO_NODE;
    if (t->nodes[node].piece == piece) return node;
    uint32_t depth = t->nodes[node].depth + 1; /* of the new element */
    uint32_t cand = t->nodes[node].parent;
    for (uint32_t k = 2; cand != SP_NO_NODE && 2 * k <= depth + 1; k++) {
        if (t->nodes[cand].piece == piece) {
            /* the k elements ending at cand repeat the k - 1 above node, then piece */
            uint32_t x = node, y = t->nodes[cand].parent;
            uint32_t j = 1;
            for (; j < k && x != SP_NO_NODE && y != SP_NO_NODE; j++) {
                if (t->nodes[x].piece != t->nodes[y].piece) break;
                x = t->nodes[x].parent;
                y = t->nodes[y].parent;
            }
            if (j == k) return cand;
        }
        cand = t->nodes[cand].parent;
    }
    return SP_NO_NODE;
}

uint32_t sp_trie_walk(sp_path_trie *t, uint32_t parent, uint32_t g, int *collapsed,
                      uint32_t *fold_levels) {
    uint32_t node = parent;
    *collapsed = 0;
    *fold_levels = 0;
    for (size_t k = t->region_first[g]; k < t->region_first[g + 1]; k++) {
        uint32_t piece = t->region_pieces[k];
        int oom = 0;
        uint32_t capped = sp_trie_depth_step(t, node, piece, fold_levels, &oom);
        if (oom) return SP_NO_NODE;
        if (capped != SP_NO_NODE) {
            node = capped;
            continue;
        }
        uint32_t folded = fold_target(t, node, piece);
        if (folded != SP_NO_NODE) {
            node = folded;
            *collapsed = 1;
            continue;
        }
        node = sp_trie_child(t, node, piece);
        if (node == SP_NO_NODE) break;
    }
    return node;
}

/* trie_walk, remembered per region: a region mostly runs under the same parent. */
static uint32_t call_node(path_walk *w, const sp_tree_frame *call, const sp_tree_frame *parent,
                          int *collapsed, uint32_t *levels) {
    uint32_t g = w->r->m.rows[call->row].region;
    uint32_t parent_node = parent ? parent->node : SP_NO_NODE;
    int local;
    uint32_t node;
    if (w->cache_node[g] != SP_NO_NODE && w->cache_parent[g] == parent_node) {
        node = w->cache_node[g];
        local = w->cache_collapsed[g];
        *levels = w->cache_levels[g];
    } else {
        node = sp_trie_walk(w->t, parent_node, g, &local, levels);
        w->cache_parent[g] = parent_node;
        w->cache_node[g] = node;
        w->cache_collapsed[g] = (uint8_t)local;
        w->cache_levels[g] = *levels;
    }
    *collapsed = local || (parent && parent->flag);
    return node;
}

static sp_status path_enter(void *ctx, sp_tree_frame *call, sp_tree_frame *parent) {
    path_walk *w = ctx;
    int collapsed;
    uint32_t levels;
    uint32_t node = call_node(w, call, parent, &collapsed, &levels);
    if (node == SP_NO_NODE || sp_walk_touch(w->t, w->pass, node, &w->touched) != SP_OK)
        return SP_ERR_OUT_OF_MEMORY;
    sp_path_node *n = &w->t->nodes[node];
    int64_t d = call->end - call->start;
    call->node = node;
    call->flag = collapsed;
    call->level = levels ? levels + (parent && parent->node == node ? parent->level : 0) : 0;
    if (levels) sp_trie_fold_reached(w->t, node, call->level);
    call->pos = n->calls;
    if (sp_node_push(n, d, w->column ? w->column + call->event : NULL) != SP_OK ||
        sp_lane_sums_add(&n->rank_threads, call->lane, d) != SP_OK)
        return SP_ERR_OUT_OF_MEMORY;
    n->recursive |= collapsed;
    pool_call(w, n, call);
    if (w->unfiltered) return sp_node_exclusive(n, call->pos, w->unfiltered[call->event - w->base]);
    call->excl = d;
    if (sp_tree_same_lane(call, parent)) parent->excl -= d;
    return SP_OK;
}

static void path_leave(void *ctx, const sp_tree_frame *call) {
    path_walk *w = ctx;
    if (!w->unfiltered && sp_node_exclusive(&w->t->nodes[call->node], call->pos, call->excl))
        w->failed = 1;
}

static sp_status unfiltered_enter(void *ctx, sp_tree_frame *call, sp_tree_frame *parent) {
    (void)ctx;
    call->excl = call->end - call->start;
    if (sp_tree_same_lane(call, parent)) parent->excl -= call->excl;
    return SP_OK;
}

static void unfiltered_leave(void *ctx, const sp_tree_frame *call) {
    path_walk *w = ctx;
    w->unfiltered[call->event - w->base] = call->excl;
}

/* Exclusive time of every call of the rank with all regions visible (§5.1 step 2). */
static sp_status unfiltered_exclusive(path_walk *w, uint32_t rank, uint32_t *rows, sp_error *err) {
    const sp_results *r = w->r;
    size_t n = sp_rank_rows(r, rank, r->start_order, r->m.num_regions, rows);
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < n; i++) {
        const sp_model_row *row = &r->m.rows[rows[i]];
        if (row->offset < lo) lo = row->offset;
        if (row->offset + row->count > hi) hi = row->offset + row->count;
    }
    w->base = n ? lo : 0;
    w->unfiltered = calloc(n && hi > lo ? hi - lo : 1, sizeof *w->unfiltered);
    if (!w->unfiltered) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    sp_tree_visitor v = {unfiltered_enter, unfiltered_leave, w};
    return sp_tree_walk(r, rows, n, &v, err);
}

/* Room for `need` entries: doubling, but never past the walk's rank count
 * while that is enough (a node on every rank, one lane each, the usual
 * case, then ends without slack; a node on few ranks grows as they come). */
static size_t grown_capacity(size_t cap, size_t need, size_t hint) {
    cap = cap ? 2 * cap : 2;
    if (need <= hint && cap > hint) cap = hint;
    while (cap < need)
        cap *= 2;
    return cap;
}

/* The rank's per-thread totals of the node join its lane list. */
static sp_status flush_threads(const sp_path_trie *t, uint32_t rank, sp_path_node *n) {
    const sp_lane_sums *s = &n->rank_threads;
    if (n->num_lanes + s->count > n->lanes_cap) {
        size_t cap = grown_capacity(n->lanes_cap, n->num_lanes + s->count, t->ranks_hint);
        sp_balance_member *grown = realloc(n->lanes, cap * sizeof *grown);
        if (!grown) return SP_ERR_OUT_OF_MEMORY;
        n->lanes = grown;
        n->lanes_cap = cap;
    }
    for (size_t k = 0; k < s->count; k++)
        n->lanes[n->num_lanes++] =
            (sp_balance_member){rank, s->ids[k] < 0 ? 0 : s->ids[k], sp_seconds(s->ns[k])};
    if (s->count > n->max_threads) n->max_threads = s->count;
    return SP_OK;
}

sp_status sp_walk_flush(sp_path_trie *t, uint32_t rank, sp_touched *list) {
    for (size_t i = 0; i < list->count; i++) {
        sp_path_node *n = &t->nodes[list->ids[i]];
        if (n->num_ranks == n->rank_totals_cap) {
            size_t cap = grown_capacity(n->rank_totals_cap, n->num_ranks + 1, t->ranks_hint);
            double *grown = realloc(n->rank_totals, cap * sizeof *grown);
            if (!grown) return SP_ERR_OUT_OF_MEMORY;
            n->rank_totals = grown;
            uint32_t *ids = realloc(n->rank_ids, cap * sizeof *ids);
            if (!ids) return SP_ERR_OUT_OF_MEMORY;
            n->rank_ids = ids;
            n->rank_totals_cap = cap;
        }
        if (flush_threads(t, rank, n) != SP_OK) return SP_ERR_OUT_OF_MEMORY;
        n->rank_ids[n->num_ranks] = rank;
        n->rank_totals[n->num_ranks++] = n->rank_total;
        n->coverage += n->cov_done + (n->cov_end - n->cov_start);
    }
    list->count = 0;
    return SP_OK;
}

static sp_status walk_rank(path_walk *w, const sp_compiled_filter *f, const uint32_t *regions,
                           size_t num_regions, uint32_t rank, uint32_t *rows, sp_error *err) {
    size_t n = sp_rank_rows(w->r, rank, regions, num_regions, rows);
    if (n == 0) return SP_OK;
    sp_status st = SP_OK;
    if (sp_filter_has_patterns(f)) { /* it fills rows with every region's rows */
        st = unfiltered_exclusive(w, rank, rows, err);
        if (st == SP_OK) n = sp_rank_rows(w->r, rank, regions, num_regions, rows);
    }
    sp_tree_visitor v = {path_enter, path_leave, w};
    if (st == SP_OK) st = sp_tree_walk(w->r, rows, n, &v, err);
    if (st == SP_OK && w->failed) st = SP_ERR_OUT_OF_MEMORY;
    if (st == SP_ERR_OUT_OF_MEMORY) sp_error_set(err, st, "out of memory");
    if (st == SP_OK && sp_walk_flush(w->t, w->rank, &w->touched) != SP_OK)
        st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    free(w->unfiltered);
    w->unfiltered = NULL;
    return st;
}

sp_status sp_paths_collect(const sp_results *r, const sp_compiled_filter *f,
                           const uint32_t *regions, size_t num_regions, const uint32_t *ranks,
                           size_t num_ranks, sp_path_trie *t, sp_error *err) {
    if (!sp_columnar(r)) return sp_unavailable(r, "call paths", err);
    path_walk w = {.r = r,
                   .t = t,
                   .origin = sp_results_time_origin(r),
                   .column = r->m.durations}; /* NULL when streamed */
    size_t nreg = r->m.num_regions + 1;
    uint32_t *rows = malloc(nreg * sizeof *rows);
    w.cache_parent = malloc(nreg * sizeof *w.cache_parent);
    w.cache_node = malloc(nreg * sizeof *w.cache_node);
    w.cache_collapsed = malloc(nreg);
    w.cache_levels = malloc(nreg * sizeof *w.cache_levels);
    sp_status st = rows && w.cache_parent && w.cache_node && w.cache_collapsed && w.cache_levels
                       ? SP_OK
                       : sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    for (size_t g = 0; st == SP_OK && g < nreg; g++)
        w.cache_node[g] = SP_NO_NODE;
    size_t count = ranks ? num_ranks : r->num_data_ranks;
    t->ranks_hint = count;
    for (size_t i = 0; st == SP_OK && i < count; i++) {
        uint32_t rank = ranks ? ranks[i] : r->data_ranks[i];
        if (!ranks && rank >= r->num_ranks) break; /* Python walks range(num_ranks) */
        w.pass = (uint32_t)i;
        w.rank = rank;
        st = walk_rank(&w, f, regions, num_regions, rank, rows, err);
    }
    free(rows);
    free(w.touched.ids);
    free(w.cache_parent);
    free(w.cache_node);
    free(w.cache_collapsed);
    free(w.cache_levels);
    return st;
}
