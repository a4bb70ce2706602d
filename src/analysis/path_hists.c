/* Call paths of aggregate files (§5.1 without events): the trie filled from
 * the histogram rows (docs/format.md, "Duration histograms"), one per (rank,
 * thread, call path) with its calls, total, minimum, maximum and durations.
 * A path's node is found as for per-call files (sp_trie_walk: recursion
 * folded); a row whose region is filtered out hands its children to its
 * nearest kept ancestor, and exclusive times come from the unfiltered tree
 * (a row's total less its child rows' totals, at least 0), as per call.
 * A forked thread's top-level row hangs under the row of the call that
 * forked it (`fork_parents`, docs/parallel.md §1), as call_parent.c hangs
 * per-call workers; files without that column keep them top-level. */
#include <stdlib.h>
#include <string.h>

#include "analysis/path_depth.h"
#include "analysis/path_walk.h"
#include "common/error.h"
#include "analysis/unavailable.h"

typedef struct hist_walk {
    const sp_results *r;
    sp_path_trie *t;
    const uint8_t *selected; /* per region */
    const int64_t *child_ns; /* per histogram row: its child rows' totals */
    uint32_t *node_of;       /* per histogram row: its node, SP_NO_NODE at top level */
    uint8_t *folded;         /* per histogram row: its path folded recursion */
    uint32_t *level;         /* per histogram row: its levels inside a depth fold */
    uint32_t next_seq;
    sp_touched touched;
} hist_walk;

static sp_status pool_row(hist_walk *w, uint32_t pass, size_t k) {
    const sp_model_hist *h = &w->r->m.hists[k];
    int64_t up = h->parent >= 0 ? h->parent : w->r->m.hist_forks ? h->fork_parent : -1;
    uint32_t parent = up >= 0 ? w->node_of[up] : SP_NO_NODE;
    int parent_folded = up >= 0 && w->folded[up];
    if (!w->selected[h->region]) {
        w->node_of[k] = parent;
        w->folded[k] = (uint8_t)parent_folded;
        w->level[k] = up >= 0 ? w->level[up] : 0;
        return SP_OK;
    }
    int collapsed;
    uint32_t levels;
    uint32_t id = sp_trie_walk(w->t, parent, h->region, &collapsed, &levels);
    if (id == SP_NO_NODE || sp_walk_touch(w->t, pass, id, &w->touched) != SP_OK)
        return SP_ERR_OUT_OF_MEMORY;
    w->level[k] = levels ? levels + (up >= 0 && parent == id ? w->level[up] : 0) : 0;
    if (levels) sp_trie_fold_reached(w->t, id, w->level[k]);
    w->node_of[k] = id;
    w->folded[k] = (uint8_t)(collapsed || parent_folded);
    sp_path_node *n = &w->t->nodes[id];
    if (n->seq == SP_NO_NODE) n->seq = w->next_seq++;
    if (!n->calls || h->hist.min < n->min_ns) n->min_ns = h->hist.min;
    if (!n->calls || h->hist.max > n->max_ns) n->max_ns = h->hist.max;
    n->from_hists = 1;
    n->has_spread = w->r->m.hist_spread;
    n->recursive |= w->folded[k];
    /* pooled spread: m2 = m2_a + m2_b + δ² n_a n_b / (n_a + n_b) */
    double na = (double)n->calls, nb = (double)h->hist.count, mean_b = (double)h->total / nb;
    double delta = mean_b - n->mean_ns;
    n->m2 += h->m2 + delta * delta * na * nb / (na + nb);
    n->mean_ns += delta * nb / (na + nb);
    n->calls += h->hist.count;
    n->total_ns += h->total;
    /* never below 0: the recorder clamps its index rows' exclusive times so */
    int64_t own = h->total - w->child_ns[k];
    n->exclusive_ns += own > 0 ? own : 0;
    n->rank_total += sp_seconds(h->total);
    if (sp_hist_merge(&n->hist, &h->hist) != SP_OK ||
        sp_lane_sums_add(&n->rank_threads, h->thread, h->total) != SP_OK)
        return SP_ERR_OUT_OF_MEMORY;
    return SP_OK;
}

static int compare_rank_row(const void *pa, const void *pb, void *ctx) {
    const sp_model_hist *h = ctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    if (h[a].rank != h[b].rank) return h[a].rank < h[b].rank ? -1 : 1;
    return (a > b) - (a < b);
}

/* The rows of one rank in file order (order: all rows by (rank, row)). */
static sp_status pool_rank(hist_walk *w, const size_t *order, uint32_t pass, uint32_t rank) {
    size_t n = w->r->m.num_hists, lo = 0, hi = n;
    while (lo < hi) { /* the first row of the rank */
        size_t mid = lo + (hi - lo) / 2;
        if (w->r->m.hists[order[mid]].rank < rank)
            lo = mid + 1;
        else
            hi = mid;
    }
    sp_status st = SP_OK;
    for (size_t i = lo; st == SP_OK && i < n && w->r->m.hists[order[i]].rank == rank; i++)
        st = pool_row(w, pass, order[i]);
    if (st == SP_OK) st = sp_walk_flush(w->t, rank, &w->touched);
    return st;
}

/* Sum over ranks of the largest (rank, thread) total (sp_walk_flush appends a
 * rank's lanes together); the node's total without lanes. */
static double busiest_threads(const sp_path_node *n) {
    if (n->num_lanes == 0) return sp_seconds(n->total_ns);
    double sum = 0, rank_max = 0;
    for (size_t a = 0; a < n->num_lanes; a++) {
        if (a > 0 && n->lanes[a].rank != n->lanes[a - 1].rank) {
            sum += rank_max;
            rank_max = 0;
        }
        if (n->lanes[a].total > rank_max) rank_max = n->lanes[a].total;
    }
    return sum + rank_max;
}

sp_status sp_paths_collect_hists(const sp_results *r, const sp_compiled_filter *f,
                                 const uint32_t *regions, size_t num_regions, const uint32_t *ranks,
                                 size_t num_ranks, sp_path_trie *t, sp_error *err) {
    (void)f; /* the rows come selected: regions and ranks */
    const sp_model *m = &r->m;
    if (sp_columnar(r) || !m->num_hists || !m->hist_totals)
        return sp_unavailable(r, "call paths", err);
    size_t nh = m->num_hists;
    uint8_t *selected = calloc(m->num_regions + 1, 1);
    int64_t *child_ns = calloc(nh, sizeof *child_ns);
    size_t *order = malloc(nh * sizeof *order);
    hist_walk w = {.r = r, .t = t, .selected = selected, .child_ns = child_ns};
    w.node_of = malloc(nh * sizeof *w.node_of);
    w.folded = malloc(nh);
    w.level = malloc(nh * sizeof *w.level);
    sp_status st = selected && child_ns && order && w.node_of && w.folded && w.level
                       ? SP_OK
                       : sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    for (size_t i = 0; st == SP_OK && i < num_regions; i++)
        selected[regions[i]] = 1;
    for (size_t k = 0; st == SP_OK && k < nh; k++) {
        order[k] = k;
        if (m->hists[k].parent >= 0) child_ns[m->hists[k].parent] += m->hists[k].total;
    }
    if (st == SP_OK) qsort_r(order, nh, sizeof *order, compare_rank_row, m->hists);
    size_t count = ranks ? num_ranks : r->num_data_ranks;
    t->ranks_hint = count;
    for (size_t i = 0; st == SP_OK && i < count; i++) {
        uint32_t rank = ranks ? ranks[i] : r->data_ranks[i];
        if (!ranks && rank >= r->num_ranks) break; /* as sp_paths_collect */
        if (pool_rank(&w, order, (uint32_t)i, rank) != SP_OK)
            st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    }
    /* No calls are kept, so no union of intervals: the covered time is taken as
     * the busiest thread's total on each rank, summed over the ranks (the
     * total itself on one thread; a lower bound of the union, where the total
     * summed over threads could exceed the parent's). */
    for (size_t i = 0; st == SP_OK && i < t->num_nodes; i++)
        if (t->nodes[i].from_hists) t->nodes[i].coverage = busiest_threads(&t->nodes[i]);
    free(selected);
    free(child_ns);
    free(order);
    free(w.node_of);
    free(w.folded);
    free(w.level);
    free(w.touched.ids);
    return st;
}
