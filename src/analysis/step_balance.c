/* Static or dynamic imbalance: the ranks compared step by step (docs/parallel.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/balance_calc.h"
#include "common/error.h"
#include "analysis/unavailable.h"

/* Below this share of the step time, what a step would save is noise. */
#define BALANCED_BELOW 0.01
/* The level of the binomial test that calls an imbalance static. */
#define STATIC_LEVEL 0.01

const char *sp_imbalance_kind_name(sp_imbalance_kind kind) {
    switch (kind) {
    case SP_IMBALANCE_BALANCED:
        return "balanced";
    case SP_IMBALANCE_STATIC:
        return "static";
    case SP_IMBALANCE_DYNAMIC:
        return "dynamic";
    default:
        return "not applicable";
    }
}

static int compare_start(const void *pa, const void *pb, void *arg) {
    const int64_t *starts = arg;
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    if (starts[a] != starts[b]) return starts[a] < starts[b] ? -1 : 1;
    return (a > b) - (a < b);
}

/* The calls of every compared rank in start order: perms[i] NULL when the row already is. */
static sp_status start_orders(const sp_results *r, const uint32_t *rows, size_t n,
                              uint32_t **perms) {
    for (size_t i = 0; i < n; i++) {
        const sp_model_row *row = &r->m.rows[rows[i]];
        perms[i] = NULL;
        if (r->rows[rows[i]].tree_sorted) continue;
        if (row->count > UINT32_MAX || !(perms[i] = malloc(row->count * sizeof **perms)))
            return SP_ERR_OUT_OF_MEMORY;
        for (uint64_t k = 0; k < row->count; k++)
            perms[i][k] = (uint32_t)k;
        qsort_r(perms[i], row->count, sizeof **perms, compare_start,
                (void *)(r->m.starts + row->offset));
    }
    return SP_OK;
}

/* P(X >= wins) for X ~ Binomial(steps, p), summed in log space. */
static double binomial_tail(uint64_t wins, uint64_t steps, double p) {
    double n = (double)steps, sum = 0.0, lp = log(p), lq = log1p(-p);
    for (uint64_t k = wins; k <= steps; k++) {
        double kk = (double)k;
        double term =
            lgamma(n + 1.0) - lgamma(kk + 1.0) - lgamma(n - kk + 1.0) + kk * lp + (n - kk) * lq;
        double t = exp(term);
        sum += t;
        if (kk > n * p && t < sum * 1e-17) break; /* past the mode the terms only shrink */
    }
    return sum < 1.0 ? sum : 1.0;
}

/*
 * Static when the straggler is slowest in more steps than chance allows: if
 * every rank were equally likely to be slowest in a step, the most frequent
 * one reaches `wins` of `steps` with probability at most
 * ranks * P(Binomial(steps, 1/ranks) >= wins) (exactly that for 2 ranks when
 * wins > steps / 2). Static when that bound is below STATIC_LEVEL: with 2
 * ranks, 8 of 8 steps, 12 of 14 or 60 % of many steps; never "5 of 8".
 */
static void classify(sp_step_balance *out) {
    double ranks = (double)out->num_ranks;
    double p = ranks * binomial_tail(out->straggler_steps, out->steps, 1.0 / ranks);
    if (out->saved < BALANCED_BELOW * out->step_time)
        out->kind = SP_IMBALANCE_BALANCED;
    else if (p < STATIC_LEVEL)
        out->kind = SP_IMBALANCE_STATIC;
    else
        out->kind = SP_IMBALANCE_DYNAMIC;
}

static void compare_steps(const sp_results *r, const uint32_t *rows, size_t n, uint32_t **perms,
                          uint64_t *wins, sp_step_balance *out) {
    int64_t step_max_sum = 0, total_sum = 0;
    for (uint64_t k = 0; k < out->steps; k++) {
        int64_t max = -1;
        size_t slowest = 0;
        for (size_t i = 0; i < n; i++) {
            const sp_model_row *row = &r->m.rows[rows[i]];
            int64_t d = r->m.durations[row->offset + (perms[i] ? perms[i][k] : k)];
            total_sum += d;
            if (d > max) {
                max = d;
                slowest = i;
            }
        }
        step_max_sum += max;
        wins[slowest]++;
    }
    size_t best = 0;
    for (size_t i = 1; i < n; i++)
        if (wins[i] > wins[best]) best = i;
    out->straggler = r->m.rows[rows[best]].rank;
    out->straggler_steps = wins[best];
    out->straggler_share = (double)wins[best] / (double)out->steps;
    out->step_time = sp_seconds(step_max_sum);
    out->mean_time = sp_seconds(total_sum) / (double)n;
    out->saved = out->step_time - out->mean_time;
    classify(out);
}

/* The comparison over the given rows (one per rank, by rank). */
static sp_status rows_step_balance(const sp_results *r, const uint32_t *given, size_t num_given,
                                   sp_step_balance *out, sp_error *err) {
    size_t n = 0;
    uint32_t *rows = malloc((num_given + 1) * sizeof *rows);
    if (!rows) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    uint64_t steps = 0;
    int equal = 1;
    for (size_t i = 0; i < num_given; i++) {
        uint32_t row = given[i];
        uint64_t count = r->m.rows[row].count;
        if (!count) continue;
        if (n && count != steps) equal = 0;
        steps = count;
        rows[n++] = row;
    }
    out->num_ranks = n;
    if (n < 2 || !equal || steps < 2) {
        free(rows);
        return SP_OK; /* not applicable */
    }
    out->steps = steps;
    uint32_t **perms = calloc(n, sizeof *perms);
    uint64_t *wins = calloc(n, sizeof *wins);
    sp_status st = perms && wins ? start_orders(r, rows, n, perms) : SP_ERR_OUT_OF_MEMORY;
    if (st == SP_OK) compare_steps(r, rows, n, perms, wins, out);
    for (size_t i = 0; perms && i < n; i++)
        free(perms[i]);
    free(perms);
    free(wins);
    free(rows);
    if (st != SP_OK) {
        memset(out, 0, sizeof *out);
        return sp_error_set(err, st, "out of memory");
    }
    return SP_OK;
}

sp_status sp_mpi_region_step_balance(const sp_mpi_region *region, sp_step_balance *out,
                                     sp_error *err) {
    if (!region || !out)
        return sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "sp_mpi_region_step_balance: NULL");
    memset(out, 0, sizeof *out);
    const sp_results *r = region->owner;
    if (!sp_columnar(r)) return sp_unavailable(r, "the step-by-step comparison", err);
    return rows_step_balance(r, region->by_rank, region->num_entries, out, err);
}

sp_status sp_region_balance_over(const sp_mpi_region *region, const uint32_t *ranks,
                                 size_t num_ranks, sp_balance *by_rank, sp_balance *by_thread,
                                 sp_step_balance *steps, sp_error *err) {
    const sp_results *r = region->owner;
    if (!ranks || !num_ranks) {
        sp_status st = sp_mpi_region_rank_balance(region, by_rank, err);
        if (st == SP_OK && by_thread) st = sp_mpi_region_thread_balance(region, by_thread, err);
        if (st == SP_OK && steps) st = sp_mpi_region_step_balance(region, steps, err);
        return st;
    }
    uint32_t *rows = malloc((num_ranks + 1) * sizeof *rows);
    if (!rows) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    size_t n = 0;
    for (size_t i = 0; i < region->num_entries; i++) { /* by rank, so ranks stay ascending */
        uint32_t row = region->by_rank[i];
        uint32_t rank = r->m.rows[row].rank;
        for (size_t k = 0; k < num_ranks; k++)
            if (ranks[k] == rank) {
                rows[n++] = row;
                break;
            }
    }
    sp_status st = sp_rows_rank_balance(r, rows, n, by_rank);
    if (st != SP_OK) sp_error_set(err, st, "out of memory");
    if (st == SP_OK && (by_thread || steps) && !sp_columnar(r))
        st = sp_unavailable(r, "thread balance", err);
    uint64_t threads;
    if (st == SP_OK && by_thread && (st = sp_rows_thread_balance(r, rows, n, by_thread, &threads)))
        sp_error_set(err, st, "out of memory");
    if (st == SP_OK && steps) {
        memset(steps, 0, sizeof *steps);
        st = rows_step_balance(r, rows, n, steps, err);
    }
    free(rows);
    return st;
}
