/* Load-balance figures from per-member totals (docs/parallel.md), shared by
 * the region figures (balance.c) and the call-path rows (path_walk.c). */
#ifndef SP_ANALYSIS_BALANCE_CALC_H
#define SP_ANALYSIS_BALANCE_CALC_H

#include <stdlib.h>
#include <string.h>

#include "analysis/internal.h"
#include "scope_profiler/balance.h"

/* One rank, or one (rank, thread) lane, and its total in seconds. */
typedef struct sp_balance_member {
    uint32_t rank;
    int64_t thread;
    double total;
} sp_balance_member;

/* The balance of the members with a positive total; the mean is numpy's sum
 * of those totals in the given order over their count. thread_figures: 0 for
 * a rank balance (the threads in out are then -1). */
void sp_balance_compute(const sp_balance_member *members, size_t n, int thread_figures,
                        sp_balance *out);

/* Each member's total minus the excluded ns that scope selects for `what`
 * (excluded_time.c; never below 0). x NULL: unchanged. */
void sp_outside_members(const sp_excluded_time *x, const char *what, sp_excluded_scope scope,
                        sp_balance_member *m, size_t n);
int64_t sp_excluded_ns(const sp_excluded_time *x, uint32_t rank, const char *what,
                       sp_excluded_scope scope);

/* Balance over the ranks of rows (one region) from their totals, and over
 * their (rank, thread) lanes from the calls (columnar files only);
 * *max_threads: most lanes of one row. SP_ERR_OUT_OF_MEMORY. */
sp_status sp_rows_rank_balance(const sp_results *r, const uint32_t *rows, size_t n,
                               sp_balance *out);
sp_status sp_rows_thread_balance(const sp_results *r, const uint32_t *rows, size_t n,
                                 sp_balance *out, uint64_t *max_threads);

/* Sums of ns per thread id, for the few threads of one rank. */
typedef struct sp_lane_sums {
    int64_t *ids;
    int64_t *ns;
    size_t count, cap, last;
} sp_lane_sums;

static inline sp_status sp_lane_sums_add(sp_lane_sums *s, int64_t id, int64_t ns) {
    if (s->count && s->ids[s->last] == id) {
        s->ns[s->last] += ns;
        return SP_OK;
    }
    for (size_t i = 0; i < s->count; i++)
        if (s->ids[i] == id) {
            s->last = i;
            s->ns[i] += ns;
            return SP_OK;
        }
    if (s->count == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 8;
        int64_t *ids = realloc(s->ids, cap * sizeof *ids);
        if (!ids) return SP_ERR_OUT_OF_MEMORY;
        s->ids = ids;
        int64_t *sums = realloc(s->ns, cap * sizeof *sums);
        if (!sums) return SP_ERR_OUT_OF_MEMORY;
        s->ns = sums;
        s->cap = cap;
    }
    s->ids[s->count] = id;
    s->ns[s->count] = ns;
    s->last = s->count++;
    return SP_OK;
}

static inline void sp_lane_sums_free(sp_lane_sums *s) {
    free(s->ids);
    free(s->ns);
    memset(s, 0, sizeof *s);
}

#endif
