/**
 * @file scope_profiler/balance.h
 * Load balance of parallel runs: how evenly a region's (or a call path's)
 * time is spread over ranks and over threads, who is slowest, and whether
 * the imbalance is static (the same rank slow step after step) or dynamic.
 * docs/parallel.md defines every figure with a worked example.
 */
#ifndef SCOPE_PROFILER_BALANCE_H
#define SCOPE_PROFILER_BALANCE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "scope_profiler/results.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Spread of per-member totals, members being ranks or (rank, thread) lanes
 *  with a non-zero total of the region or path. */
typedef struct sp_balance {
    size_t count;           /* members with a non-zero total */
    double mean, max, min;  /* s, over those members; 0 without members */
    double imbalance;       /* max / mean - 1; 0 with fewer than two members */
    double load_balance;    /* mean / max (POP load-balance efficiency); 1 with fewer than two */
    uint32_t slowest_rank;  /* the member with the largest total (first on ties) */
    int64_t slowest_thread; /* its thread; -1 for a rank balance */
    uint32_t fastest_rank;  /* the member with the smallest non-zero total */
    int64_t fastest_thread;
} sp_balance;

/** Balance over ranks of the region's per-rank totals. */
SP_API sp_status sp_mpi_region_rank_balance(const sp_mpi_region *region, sp_balance *out,
                                            sp_error *err);

/** Balance over the (rank, thread) lanes of the region's calls (thread 0 for
 *  files without thread ids). SP_ERR_UNAVAILABLE for aggregate-layout files. */
SP_API sp_status sp_mpi_region_thread_balance(const sp_mpi_region *region, sp_balance *out,
                                              sp_error *err);

/** The same two balances for one call path of the summary table ("a > b",
 *  as sp_table rows and the JSON export name it). SP_ERR_NO_SUCH_REGION when
 *  no path has that name; SP_ERR_NESTING or SP_ERR_UNAVAILABLE when the file
 *  has no call paths. Builds the table's paths on every call. */
SP_API sp_status sp_results_path_balance(const sp_results *results, const char *call_path,
                                         sp_balance *ranks, sp_balance *threads, sp_error *err);

typedef enum sp_imbalance_kind {
    SP_IMBALANCE_NOT_APPLICABLE = 0, /* fewer than two ranks or steps, or unequal call counts */
    SP_IMBALANCE_BALANCED,           /* saved below 1% of step_time */
    SP_IMBALANCE_STATIC,             /* one rank slowest in more than half the steps */
    SP_IMBALANCE_DYNAMIC             /* the slowest rank changes from step to step */
} sp_imbalance_kind;

/** "not applicable", "balanced", "static", "dynamic". */
SP_API const char *sp_imbalance_kind_name(sp_imbalance_kind kind);

/** Step-by-step comparison of the ranks for a region called equally often on
 *  every rank: step k is every rank's k-th call (in start order). */
typedef struct sp_step_balance {
    sp_imbalance_kind kind;
    uint64_t steps;           /* calls per rank (0 when not applicable) */
    size_t num_ranks;         /* ranks compared */
    uint32_t straggler;       /* the rank slowest in most steps (lowest rank on ties) */
    uint64_t straggler_steps; /* steps in which it was slowest */
    double straggler_share;   /* straggler_steps / steps */
    double step_time;         /* s: sum over steps of the slowest rank's duration */
    double mean_time;         /* s: sum over steps of the mean duration */
    double saved;             /* s: step_time - mean_time, the time saved if every step
                                 ran at its mean */
} sp_step_balance;

/** Fills out for the region; SP_ERR_UNAVAILABLE for aggregate-layout files.
 *  Not applicable is not an error (out->kind says it). */
SP_API sp_status sp_mpi_region_step_balance(const sp_mpi_region *region, sp_step_balance *out,
                                            sp_error *err);

/** The balance report as JSON (docs/parallel.md): per region its rank and
 *  thread balance and step comparison, per call path its two balances. */
SP_API sp_status sp_write_balance_json(const sp_results *results, FILE *out,
                                       const sp_filter *filter, sp_error *err);

#ifdef __cplusplus
}
#endif

#endif
