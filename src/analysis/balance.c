/* Rank and thread balance of a region (docs/parallel.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/balance_calc.h"
#include "common/error.h"
#include "analysis/unavailable.h"

/* a is slower than b: larger total, the lower (rank, thread) on ties. */
static int before(const sp_balance_member *a, const sp_balance_member *b, int slower) {
    if (a->total != b->total) return slower ? a->total > b->total : a->total < b->total;
    if (a->rank != b->rank) return a->rank < b->rank;
    return a->thread < b->thread;
}

void sp_balance_compute(const sp_balance_member *m, size_t n, int thread_figures, sp_balance *out) {
    memset(out, 0, sizeof *out);
    out->load_balance = 1.0;
    out->slowest_thread = out->fastest_thread = -1;
    double stack[64];
    double *totals = n <= 64 ? stack : malloc(n * sizeof *totals);
    const sp_balance_member *slow = NULL, *fast = NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(m[i].total > 0.0)) continue;
        if (totals) totals[k] = m[i].total;
        k++;
        if (!slow || before(&m[i], slow, 1)) slow = &m[i];
        if (!fast || before(&m[i], fast, 0)) fast = &m[i];
    }
    out->count = k;
    if (!k) {
        if (totals != stack) free(totals);
        return;
    }
    out->max = slow->total;
    out->min = fast->total;
    out->mean = totals ? sp_numpy_sum(totals, k) / (double)k : NAN;
    out->slowest_rank = slow->rank;
    out->fastest_rank = fast->rank;
    if (thread_figures) {
        out->slowest_thread = slow->thread;
        out->fastest_thread = fast->thread;
    }
    if (k >= 2) {
        out->imbalance = out->max / out->mean - 1.0;
        out->load_balance = out->mean / out->max;
    }
    if (totals != stack) free(totals);
}

sp_status sp_rows_rank_balance(const sp_results *r, const uint32_t *rows, size_t n,
                               sp_balance *out) {
    sp_balance_member *m = malloc((n + 1) * sizeof *m);
    if (!m) return SP_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < n; i++)
        m[i] =
            (sp_balance_member){r->m.rows[rows[i]].rank, -1, sp_seconds(r->rows[rows[i]].total_ns)};
    sp_balance_compute(m, n, 0, out);
    free(m);
    return SP_OK;
}

sp_status sp_rows_thread_balance(const sp_results *r, const uint32_t *rows, size_t n,
                                 sp_balance *out, uint64_t *max_threads) {
    size_t count = 0, cap = 0;
    sp_balance_member *m = NULL;
    sp_status st = SP_OK;
    *max_threads = 0;
    for (size_t i = 0; st == SP_OK && i < n; i++) {
        const sp_model_row *row = &r->m.rows[rows[i]];
        sp_lane_sums sums = {0};
        for (uint64_t e = row->offset; st == SP_OK && e < row->offset + row->count; e++)
            st = sp_lane_sums_add(
                &sums, r->m.thread_ids && r->m.thread_ids[e] >= 0 ? r->m.thread_ids[e] : 0,
                r->m.durations[e]);
        if (st == SP_OK && count + sums.count > cap) {
            cap = 2 * (count + sums.count);
            sp_balance_member *grown = realloc(m, cap * sizeof *grown);
            if (!grown)
                st = SP_ERR_OUT_OF_MEMORY;
            else
                m = grown;
        }
        for (size_t k = 0; st == SP_OK && k < sums.count; k++)
            m[count++] = (sp_balance_member){row->rank, sums.ids[k], sp_seconds(sums.ns[k])};
        if (sums.count > *max_threads) *max_threads = sums.count;
        sp_lane_sums_free(&sums);
    }
    if (st == SP_OK) sp_balance_compute(m, count, 1, out);
    free(m);
    return st;
}

sp_status sp_mpi_region_rank_balance(const sp_mpi_region *region, sp_balance *out, sp_error *err) {
    if (!region || !out)
        return sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "sp_mpi_region_rank_balance: NULL");
    sp_status st = sp_rows_rank_balance(region->owner, region->entries, region->num_entries, out);
    return st == SP_OK ? SP_OK : sp_error_set(err, st, "out of memory");
}

sp_status sp_mpi_region_thread_balance(const sp_mpi_region *region, sp_balance *out,
                                       sp_error *err) {
    if (!region || !out)
        return sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "sp_mpi_region_thread_balance: NULL");
    const sp_results *r = region->owner;
    if (!sp_columnar(r)) return sp_unavailable(r, "thread balance", err);
    uint64_t threads;
    sp_status st = sp_rows_thread_balance(r, region->by_rank, region->num_entries, out, &threads);
    return st == SP_OK ? SP_OK : sp_error_set(err, st, "out of memory");
}
