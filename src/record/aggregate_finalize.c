/*
 * Aggregate mode at finalize: the threads' call-path nodes become the
 * aggregate layout's model (FORMAT.md §3 plus /scope_profiler_c/histograms):
 * one row per region summed over threads and call paths, one histogram per
 * (thread, call path), the thread table. Ticks become nanoseconds by the
 * run's final calibration (the histograms were filled during the run).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "record/aggregate.h"
#include "record/region_tags.h"
#include "record/collect_parts.h"
#include "record/clock.h"
#include "record/registry.h"

typedef struct ticks_map {
    uint64_t q32; /* ns per tick, 32.32 */
    double per_tick;
} ticks_map;

static int64_t span_ns(const ticks_map *map, uint64_t ticks) {
    return (int64_t)(((unsigned __int128)ticks * map->q32 + ((uint64_t)1 << 31)) >> 32);
}

/* Σ (d - mean)² of a node in ticks², from its integer sums: with total =
 * q·count + r it is sumsq − q²·count − 2qr − r²/count, exact up to the last
 * division. */
static long double node_m2_ticks(const sp_agg_node *n) {
    uint64_t q = n->total / n->count, r = n->total % n->count;
    unsigned __int128 a =
        n->sumsq - (unsigned __int128)q * q * n->count - (unsigned __int128)2 * q * r;
    return (long double)a - (long double)r * (long double)r / (long double)n->count;
}

static int any_calls(const sp_agg_thread *a) {
    for (uint32_t i = 1; i < a->num_nodes; i++)
        if (a->nodes[i].count) return 1;
    return 0;
}

static int compare_index(const void *x, const void *y) {
    const sp_agg_thread *a = *(sp_agg_thread *const *)x, *b = *(sp_agg_thread *const *)y;
    return (a->thread->index > b->thread->index) - (a->thread->index < b->thread->index);
}

/* Folds what the threads left pending and reports what is left out. */
static void fold_pending(sp_collect_report *report) {
    /* A slot with an end is a completed call not yet folded (an open or a
     * dropped call has none), at any depth: the session root, ended below
     * calls still open, is one. */
    for (sp_agg_thread *a = sp_agg_threads(); a; a = a->next)
        for (uint32_t d = 0; d < a->scratch_capacity; d++)
            if (a->scratch[d].slot.end && a->scratch[d].node != SP_AGG_NONE)
                sp_agg_fold(a, &a->scratch[d]);
    for (sp_thread *t = sp_thread_list(); t; t = t->next) {
        report->open_calls += sp_thread_depth(t);
        report->dropped_calls += t->dropped_calls;
    }
    if (report->open_calls) {
        fprintf(stderr, "scope-profiler: %llu call(s) still open at finalize were left out:",
                (unsigned long long)report->open_calls);
        const char *sep = " ";
        for (sp_thread *t = sp_thread_list(); t; t = t->next)
            for (uint32_t d = 0; d < sp_thread_depth(t); d++) {
                const char *name = sp_registry_name(t->stack[d].region);
                fprintf(stderr, "%s\"%s\" (thread %u, depth %u)", sep,
                        name ? name : "(invalid handle)", t->index, d);
                sep = ", ";
            }
        fputc('\n', stderr);
    }
    if (report->dropped_calls)
        fprintf(stderr,
                "scope-profiler: %llu call(s) dropped by mismatched sp_end() were left out\n",
                (unsigned long long)report->dropped_calls);
}

static sp_agg_thread **recording_threads(uint32_t *count) {
    size_t n = 0;
    for (sp_agg_thread *a = sp_agg_threads(); a; a = a->next)
        n += any_calls(a);
    sp_agg_thread **list = malloc((n ? n : 1) * sizeof *list);
    if (!list) return NULL;
    n = 0;
    for (sp_agg_thread *a = sp_agg_threads(); a; a = a->next)
        if (any_calls(a)) list[n++] = a;
    qsort(list, n, sizeof *list, compare_index);
    *count = (uint32_t)n;
    return list;
}

/* Per region (model id): what its rows accumulate over nodes. */
typedef struct region_sum {
    uint64_t count;
    int64_t total, exclusive, min, max;
    uint64_t first_start, last_start, last_end; /* ticks: which node's first / last call */
    int64_t first, last;
    double m2; /* pooled, in the second pass */
} region_sum;

static void add_node(region_sum *r, const ticks_map *map, const sp_agg_node *n, int64_t total,
                     int64_t exclusive) {
    int64_t min = span_ns(map, n->min), max = span_ns(map, n->max);
    if (r->count == 0 || min < r->min) r->min = min;
    if (r->count == 0 || max > r->max) r->max = max;
    if (r->count == 0 || n->start_min < r->first_start) {
        r->first_start = n->start_min;
        r->first = span_ns(map, n->first);
    }
    /* last: the call that started last (per call, rows are in start order) */
    if (r->count == 0 || n->start_last > r->last_start) {
        r->last_start = n->start_last;
        r->last = span_ns(map, n->last);
    }
    uint64_t end = n->start_last + n->last;
    if (r->count == 0 || end > r->last_end) r->last_end = end;
    r->count += n->count;
    r->total += total;
    r->exclusive += exclusive;
}

static sp_status fill_threads(sp_model *m, sp_agg_thread **threads, uint32_t n, uint32_t rank) {
    m->threads = calloc(n ? n : 1, sizeof *m->threads);
    if (!m->threads) return SP_ERR_OUT_OF_MEMORY;
    m->num_threads = n;
    int64_t owner = -1;
    for (uint32_t i = 0; i < n && owner < 0; i++)
        if (sp_thread_is_session_owner(threads[i]->thread)) owner = i;
    for (uint32_t i = 0; i < n; i++) {
        const sp_agg_thread *a = threads[i];
        sp_thread *t = a->thread;
        sp_thread_info *info = &m->threads[i];
        uint64_t first = UINT64_MAX, last = 0;
        for (uint32_t k = 1; k < a->num_nodes; k++) {
            if (!a->nodes[k].count) continue;
            if (a->nodes[k].start_min < first) first = a->nodes[k].start_min;
            uint64_t end = a->nodes[k].start_last + a->nodes[k].last;
            if (end > last) last = end;
        }
        if (sp_collect_thread_info(info, t, rank, i, owner)) return SP_ERR_OUT_OF_MEMORY;
        info->start_ns = sp_clock_to_ns(first);
        info->end_ns = sp_clock_to_ns(last);
    }
    return SP_OK;
}

/* Region ids in handle order for the handles with calls; id_of[h] = -1 without. */
static sp_status fill_regions(sp_model *m, sp_agg_thread **threads, uint32_t n, int64_t *id_of,
                              uint32_t num_handles) {
    for (uint32_t h = 0; h <= num_handles; h++)
        id_of[h] = -1;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 1; k < threads[i]->num_nodes; k++)
            if (threads[i]->nodes[k].count) id_of[threads[i]->nodes[k].region] = 0;
    size_t num = 0;
    for (uint32_t h = 1; h <= num_handles; h++)
        num += id_of[h] == 0;
    m->region_names = calloc(num ? num : 1, sizeof *m->region_names);
    m->rows = calloc(num ? num : 1, sizeof *m->rows);
    if (!m->region_names || !m->rows) return SP_ERR_OUT_OF_MEMORY;
    for (uint32_t h = 1; h <= num_handles; h++) {
        if (id_of[h] < 0) continue;
        size_t id = m->num_regions++;
        id_of[h] = (int64_t)id;
        sp_model_row *row = &m->rows[m->num_rows++];
        const char *file;
        int line;
        sp_registry_location(h, &file, &line);
        m->region_names[id] = sp_strdup(sp_registry_name(h));
        row->region = (uint32_t)id;
        row->source_file = sp_strdup(file);
        row->source_text = sp_strdup("");
        row->tags = sp_region_tags_json(h);
        row->event_metadata = sp_strdup("[]");
        row->source_line = line > 0 ? line : -1;
        if (!m->region_names[id] || !row->source_file || !row->source_text || !row->tags ||
            !row->event_metadata)
            return SP_ERR_OUT_OF_MEMORY;
    }
    return SP_OK;
}

/* Laying out the histogram rows, per thread: each node's row (or its
 * nearest kept ancestor's, -1 for none) and, where that is -1, the row of
 * another thread its calls were forked under (-1 for none). */
typedef struct row_plan {
    int64_t *row_of, *fork_of;
    uint32_t next; /* the next node to lay out */
} row_plan;

static int64_t position_of(sp_agg_thread *const *threads, uint32_t n, const sp_agg_thread *t) {
    for (uint32_t j = 0; j < n; j++)
        if (threads[j] == t) return j;
    return -1; /* a thread without calls: nothing to hang under */
}

/* An anchor (record/aggregate.h) takes the row its forking call has; 0 while
 * that call's thread has not laid it out yet, unless `force` (a cycle). */
static int lay_anchor(sp_agg_thread *const *threads, uint32_t n, row_plan *plans, uint32_t i,
                      uint32_t k, int force) {
    const sp_agg_anchor *an = sp_agg_anchor_of(threads[i], k);
    int64_t j = an ? position_of(threads, n, an->from) : -1;
    plans[i].row_of[k] = plans[i].fork_of[k] = -1;
    if (j < 0) return 1;
    const row_plan *q = &plans[j];
    if (q->next <= an->from_node) return force;
    int64_t row = q->row_of[an->from_node];
    plans[i].fork_of[k] = row >= 0 ? row : q->fork_of[an->from_node];
    return 1;
}

/* One histogram per node with calls; a node's parent row is its nearest
 * ancestor with calls (an open call at finalize has none). Threads are laid
 * out in turn, each as far as its forking calls' rows are known, so a
 * fork_parent is always an earlier row. */
static sp_status fill_hists(sp_model *m, sp_agg_thread **threads, uint32_t n, const int64_t *id_of,
                            uint32_t rank, const ticks_map *map, int *complete) {
    size_t total = 0, left = 0;
    *complete = 1;
    for (uint32_t i = 0; i < n; i++) {
        left += threads[i]->num_nodes - 1;
        for (uint32_t k = 1; k < threads[i]->num_nodes; k++) {
            total += threads[i]->nodes[k].count > 0;
            if (threads[i]->nodes[k].hist_failed) *complete = 0;
        }
    }
    if (!*complete) return SP_OK;
    row_plan *plans = calloc(n ? n : 1, sizeof *plans);
    m->hists = calloc(total ? total : 1, sizeof *m->hists);
    sp_status st = plans && m->hists ? SP_OK : SP_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0; !st && i < n; i++) {
        plans[i].row_of = malloc(threads[i]->num_nodes * sizeof *plans[i].row_of);
        plans[i].fork_of = malloc(threads[i]->num_nodes * sizeof *plans[i].fork_of);
        if (!plans[i].row_of || !plans[i].fork_of) st = SP_ERR_OUT_OF_MEMORY;
        if (!st) plans[i].row_of[SP_AGG_ROOT] = plans[i].fork_of[SP_AGG_ROOT] = -1;
        plans[i].next = 1;
    }
    int force = 0;
    while (!st && left) {
        int progress = 0;
        for (uint32_t i = 0; i < n; i++) {
            sp_agg_thread *a = threads[i];
            row_plan *p = &plans[i];
            for (; p->next < a->num_nodes; p->next++, left--, progress = 1, force = 0) {
                uint32_t k = p->next;
                sp_agg_node *node = &a->nodes[k];
                if (node->region == SP_REGION_NONE) {
                    if (!lay_anchor(threads, n, plans, i, k, force)) break;
                    continue;
                }
                int64_t parent_row = p->row_of[node->parent];
                int64_t parent_fork = p->fork_of[node->parent];
                if (!node->count) { /* its children hang from its nearest kept ancestor */
                    p->row_of[k] = parent_row;
                    p->fork_of[k] = parent_fork;
                    continue;
                }
                sp_model_hist *h = &m->hists[m->num_hists];
                p->row_of[k] = (int64_t)m->num_hists++;
                p->fork_of[k] = -1;
                h->rank = rank;
                h->thread = i;
                h->region = (uint32_t)id_of[node->region];
                h->parent = parent_row;
                h->fork_parent = parent_row < 0 ? parent_fork : -1;
                h->hist = node->hist;        /* moved */
                h->hist.count = node->count; /* the fold counts buckets only */
                h->hist.min = sp_agg_provisional_ns(node->min);
                h->hist.max = sp_agg_provisional_ns(node->max);
                h->total = span_ns(map, node->total); /* as the index rows add it up */
                h->m2 = (double)(node_m2_ticks(node) * (long double)map->per_tick *
                                 (long double)map->per_tick);
                memset(&node->hist, 0, sizeof node->hist);
            }
        }
        if (!progress) force = 1;
    }
    for (uint32_t i = 0; plans && i < n; i++) {
        free(plans[i].row_of);
        free(plans[i].fork_of);
    }
    free(plans);
    if (!st) m->hist_totals = m->hist_spread = m->hist_forks = 1;
    return st;
}

static sp_status fill_rows(sp_model *m, sp_agg_thread **threads, uint32_t n, const int64_t *id_of,
                           uint32_t rank, const ticks_map *map) {
    region_sum *sums = calloc(m->num_rows ? m->num_rows : 1, sizeof *sums);
    uint32_t widest = 1;
    for (uint32_t i = 0; i < n; i++)
        if (threads[i]->num_nodes > widest) widest = threads[i]->num_nodes;
    int64_t *children = malloc(widest * sizeof *children);
    if (!sums || !children) {
        free(sums);
        free(children);
        return SP_ERR_OUT_OF_MEMORY;
    }
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < n; i++) {
            const sp_agg_thread *a = threads[i];
            memset(children, 0, a->num_nodes * sizeof *children);
            /* A call left out (open at finalize, dropped) has no time of its
             * own: its children's count against its nearest kept ancestor,
             * as the per-call tree rebuilt from timestamps has them. */
            for (uint32_t k = 1; k < a->num_nodes; k++) {
                uint32_t p = a->nodes[k].parent;
                while (p != SP_AGG_ROOT && a->nodes[p].count == 0)
                    p = a->nodes[p].parent;
                children[p] += span_ns(map, a->nodes[k].total);
            }
            for (uint32_t k = 1; k < a->num_nodes; k++) {
                const sp_agg_node *node = &a->nodes[k];
                if (!node->count) continue;
                region_sum *r = &sums[id_of[node->region]];
                int64_t total = span_ns(map, node->total);
                double mean = (double)total / (double)node->count;
                if (pass == 0) {
                    int64_t exclusive = total - children[k];
                    add_node(r, map, node, total, exclusive > 0 ? exclusive : 0);
                    continue;
                }
                /* pooled: Σ (m2ᵢ + cᵢ (meanᵢ − mean)²) */
                double pooled = (double)r->total / (double)r->count;
                double m2 = (double)(node_m2_ticks(node) * (long double)map->per_tick *
                                     (long double)map->per_tick);
                r->m2 += m2 + (double)node->count * (mean - pooled) * (mean - pooled);
            }
        }
    }
    for (size_t id = 0; id < m->num_rows; id++) {
        sp_model_row *row = &m->rows[id];
        const region_sum *r = &sums[id];
        row->rank = rank;
        row->count = r->count;
        row->exclusive_total = r->exclusive;
        row->stats.total = r->total;
        row->stats.minimum = r->min;
        row->stats.maximum = r->max;
        row->stats.first = r->first;
        row->stats.last = r->last;
        row->stats.start_minimum = sp_clock_to_ns(r->first_start);
        row->stats.end_maximum = sp_clock_to_ns(r->last_end);
        row->stats.mean = (double)r->total / (double)r->count;
        row->stats.m2 = r->m2 > 0 ? r->m2 : 0.0;
        row->has_stats = 1;
    }
    free(sums);
    free(children);
    return SP_OK;
}

sp_status sp_agg_collect(sp_model *m, uint32_t rank, sp_collect_report *report) {
    memset(report, 0, sizeof *report);
    m->schema = 3;
    m->layout = SP_LAYOUT_AGGREGATE;
    fold_pending(report);
    ticks_map map = {(uint64_t)(sp_clock_ns_per_tick() * 4294967296.0), sp_clock_ns_per_tick()};
    uint32_t n = 0;
    sp_agg_thread **threads = recording_threads(&n);
    uint32_t num_handles = sp_registry_count();
    int64_t *id_of = malloc(((size_t)num_handles + 1) * sizeof *id_of);
    sp_status st = threads && id_of ? SP_OK : SP_ERR_OUT_OF_MEMORY;
    int complete = 1;
    if (!st) st = fill_regions(m, threads, n, id_of, num_handles);
    if (!st) st = fill_rows(m, threads, n, id_of, rank, &map);
    if (!st) st = fill_hists(m, threads, n, id_of, rank, &map, &complete);
    if (!st && n) st = fill_threads(m, threads, n, rank);
    if (!complete)
        fprintf(stderr, "scope-profiler: out of memory growing a duration histogram: the profile "
                        "has no histograms, so no percentiles\n");
    for (size_t i = 0; i < m->num_rows; i++)
        report->calls += m->rows[i].count;
    report->threads = n;
    free(id_of);
    free(threads);
    return st;
}
