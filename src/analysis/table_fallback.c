/* Flat fallback rows of the summary table (§5.1 step 5, §5.2). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/balance_calc.h"
#include "analysis/table_build.h"
#include "common/error.h"
#include "analysis/exclusive.h"
#include "analysis/pool.h"
#include "analysis/region_entry.h"

typedef struct interval {
    double start, end;
} interval;

static int compare_interval(const void *pa, const void *pb) {
    const interval *a = pa, *b = pb;
    if (a->start != b->start) return a->start < b->start ? -1 : 1;
    return (a->end > b->end) - (a->end < b->end);
}

/* Python's union length of sorted [start, end] intervals, in absolute seconds. */
static double union_length(const interval *iv, size_t n) {
    double done = 0.0, s = iv[0].start, e = iv[0].end;
    for (size_t i = 1; i < n; i++) {
        if (iv[i].start <= e) {
            if (iv[i].end > e) e = iv[i].end;
        } else {
            done += e - s;
            s = iv[i].start;
            e = iv[i].end;
        }
    }
    return done + (e - s);
}

static sp_status row_coverage(const sp_results *r, uint32_t row, double *out) {
    const sp_model_row *mr = &r->m.rows[row];
    *out = 0.0;
    if (mr->count == 0) return SP_OK;
    /* Aggregate files keep no calls: their total stands in for the covered
     * time (the same unless calls of the row overlap: recursion, threads). */
    if (!sp_columnar(r)) {
        *out = sp_seconds(mr->stats.total);
        return SP_OK;
    }
    interval *iv = malloc(mr->count * sizeof *iv);
    if (!iv) return SP_ERR_OUT_OF_MEMORY;
    for (uint64_t i = 0; i < mr->count; i++) {
        int64_t s = r->m.starts[mr->offset + i];
        iv[i] = (interval){sp_seconds(s), sp_seconds(sp_end_ns(s, r->m.durations[mr->offset + i]))};
    }
    if (!r->rows[row].tree_sorted) qsort(iv, mr->count, sizeof *iv, compare_interval);
    *out = union_length(iv, mr->count);
    free(iv);
    return SP_OK;
}

/* The region's entries on the selected ranks: rank-dict order, or the filter's order. */
static size_t fallback_entries(const sp_mpi_region *reg, const sp_compiled_filter *f,
                               uint32_t *out) {
    size_t nranks, n = 0;
    const uint32_t *ranks = sp_filter_ranks(f, &nranks);
    if (!ranks) {
        memcpy(out, reg->entries, reg->num_entries * sizeof *out);
        return reg->num_entries;
    }
    for (size_t k = 0; k < nranks; k++) {
        int found;
        uint32_t i = sp_region_entry_index(reg, ranks[k], &found);
        if (found) out[n++] = reg->by_rank[i];
    }
    return n;
}

/* Exclusive mode: the left-to-right sum of the per-rank exclusive times, or of
 * the totals when the call tree cannot be built. */
static double fallback_exclusive(const sp_results *r, const uint32_t *rows, size_t n) {
    double excl = 0.0, total = 0.0;
    int ok = 1;
    for (size_t i = 0; i < n; i++) {
        int64_t ns;
        total += sp_seconds(r->rows[rows[i]].total_ns);
        if (ok && sp_row_exclusive_ns(r, rows[i], &ns, NULL) == SP_OK)
            excl += sp_seconds(ns);
        else
            ok = 0;
    }
    return ok ? excl : total;
}

static sp_status fallback_row(const sp_mpi_region *reg, const sp_compiled_filter *f,
                              int exclusive_mode, uint32_t *rows, sp_table_row *row,
                              sp_error *err) {
    const sp_results *r = reg->owner;
    size_t n = fallback_entries(reg, f, rows);
    sp_pool p;
    sp_status st = sp_pool_rows(r, rows, n, SP_POOL_PERCENTILES, &p, err);
    if (st != SP_OK) return st;
    memset(row, 0, sizeof *row);
    row->name = sp_mpi_region_name(reg);
    row->num_ranks = n;
    row->calls = p.calls;
    row->has_timing = row->has_first_last = p.has_timing;
    row->has_percentiles = p.has_percentiles;
    row->percentile_error = p.percentile_error;
    row->total = p.total_psum;
    row->avg = p.average;
    row->min = sp_seconds(p.min_ns);
    row->max = sp_seconds(p.max_ns);
    row->std = p.std;
    row->p50 = p.p50;
    row->p95 = p.p95;
    row->p99 = p.p99;
    row->first = p.first;
    row->last = p.last;
    row->has_imbalance = 1;
    row->imbalance = p.imbalance_pct;
    for (size_t i = 0; i < n; i++) {
        double cov;
        if (row_coverage(r, rows[i], &cov) != SP_OK)
            return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        row->coverage += cov;
    }
    if (sp_rows_rank_balance(r, rows, n, &row->rank_balance) != SP_OK ||
        (sp_columnar(r) &&
         sp_rows_thread_balance(r, rows, n, &row->thread_balance, &row->threads) != SP_OK))
        return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    row->has_balance = 1;
    row->has_exclusive = exclusive_mode;
    if (exclusive_mode) row->exclusive = fallback_exclusive(r, rows, n);
    row->start = sp_mpi_region_num_calls(reg) ? sp_mpi_region_first_start_time(reg) : INFINITY;
    return SP_OK;
}

/* Marks the elements that end some path row (Python's names_in_paths), and
 * those whose calls a depth-cap fold row holds (path_depth.h). */
static uint8_t *path_names(const sp_path_trie *t) {
    uint8_t *named = calloc(t ? t->num_pieces + 1 : 1, 1);
    for (size_t i = 0; named && t && i < t->num_nodes; i++)
        if (t->nodes[i].calls && t->nodes[i].piece < t->num_pieces) named[t->nodes[i].piece] = 1;
    for (size_t i = 0; named && t && t->piece_folded && i < t->num_pieces; i++)
        named[i] |= t->piece_folded[i];
    return named;
}

sp_status sp_table_fallback_rows(const sp_results *r, const sp_compiled_filter *f,
                                 const uint32_t *regions, size_t num_regions,
                                 const sp_path_trie *trie, int exclusive_mode, sp_table_rows *out,
                                 sp_error *err) {
    uint8_t *named = path_names(trie);
    uint32_t *rows = malloc((r->m.num_rows + 1) * sizeof *rows);
    sp_status st = named && rows ? SP_OK : sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    for (size_t i = 0; st == SP_OK && i < num_regions; i++) {
        const char *name = r->m.region_names[regions[i]];
        uint32_t piece = trie ? sp_trie_find_piece(trie, name, strlen(name)) : SP_NO_NODE;
        if (piece != SP_NO_NODE && named[piece]) continue;
        st = fallback_row(&r->regions[regions[i]], f, exclusive_mode, rows, &out->rows[out->count],
                          err);
        if (st == SP_OK) out->count++;
    }
    free(named);
    free(rows);
    return st;
}
