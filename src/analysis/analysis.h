/*
 * Internal contract between the analysis layer (src/analysis/) and the
 * presenters (src/present/): everything a presenter needs, computed here,
 * so that presenters only format.
 *
 * Semantics follow the Python package 0.7.3 (verified against
 * tests/fixtures).
 */
#ifndef SP_ANALYSIS_ANALYSIS_H
#define SP_ANALYSIS_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "scope_profiler/balance.h"
#include "scope_profiler/results.h"

/* Whether sp_events_next stopped early because the calls of streamed results
 * (format/reader.h sp_read_streamed) could not be read: SP_OK, or the
 * status with err filled. */
sp_status sp_events_status(const sp_event_iter *it, sp_error *err);

/* The calls of one rank region in ns, through the window w (read from the
 * file for streamed results; w is reused between calls and freed with
 * sp_event_window_free). SP_ERR_UNAVAILABLE for an aggregate file. */
struct sp_event_window;
sp_status sp_rank_region_calls_ns(const sp_rank_region *rr, struct sp_event_window *w,
                                  const int64_t **starts, const int64_t **durations, sp_error *err);

/* --- numpy-compatible primitives (§10) ---------------------------------- */

/* numpy's float64 sum: pairwise within blocks of 8192, blocks added in order. */
double sp_numpy_sum(const double *x, size_t n);

/* numpy.percentile(x, q) with the default "linear" method, q in percent
 * (0..100), for x already sorted ascending; NaN when n is 0. */
double sp_numpy_percentile_sorted(const double *sorted, size_t n, double q);

/* --- pooled statistics for region_statistics.json (§6.1) ---------------- */

typedef struct sp_pool_stats {
    uint64_t count; /* when 0, the other fields are meaningless (JSON null) */
    double average;
    double min;
    double max;
    double first;
    double last;
    double std;
    double total;
} sp_pool_stats;

/* Pooled over the given ranks (NULL = all ranks of the region, in the file's
 * row order; otherwise in the given order, ranks the region lacks skipped).
 * total is numpy's sum of the pooled seconds (not MPIRegion's total); for one
 * rank this is the file's per_rank entry. Aggregate-layout files: computed
 * from the stored per-row statistics (total = sum of the row totals). */
sp_status sp_region_pool_stats(const sp_mpi_region *region, const uint32_t *ranks, size_t num_ranks,
                               sp_pool_stats *out, sp_error *err);

/* The path as Python's pathlib prints it ("./a//b.h5" -> "a/b.h5"), used in messages. */
const char *sp_results_path_text(const sp_results *results);

/* --- display rows of the summary table (§5.1-5.3) ------------------------ */

typedef struct sp_table_row {
    const char *name; /* last path element: points into call_path, or (fallback rows)
                         into the results' region names */
    char *call_path;  /* "a > b"; NULL for a flat fallback row */
    int depth;        /* 0 for roots and fallback rows */
    int recursive;    /* collapsed recursion: the region cell gets " ↻" */
    int has_children; /* an "(own)" row follows this one */
    uint64_t num_ranks;
    uint64_t calls;
    int has_timing; /* 0: total/avg/min/... are None ("-") */
    double total, avg, min, max, std, p50, p95, p99;
    int has_percentiles;     /* 0: p50/p95/p99 are None (no calls, or an aggregate-layout file
                                without histograms) */
    double percentile_error; /* their relative error bound: 0 exact, else from histograms */
    int has_first_last;
    double first, last;
    int has_exclusive;
    double exclusive; /* the (own) row's value */
    double coverage;
    int has_parent_coverage;
    double parent_coverage;
    int has_imbalance;
    double imbalance; /* percent */
    /* Path rows (docs/parallel.md); fallback rows: the region's figures, or
     * has_balance 0 when the file holds no per-call events. */
    int has_balance;
    uint64_t threads; /* most threads with calls on one rank */
    sp_balance rank_balance, thread_balance;
    /* Path rows when the results have excluded time attached (state 1): the
     * rank balance of the time outside it (has_outside 1). */
    int has_outside;
    sp_balance outside_balance;
    double start; /* path rows: first start relative to time_origin; fallback rows:
                     absolute first start, or +inf without calls (Python's quirk) */
} sp_table_row;

/* The wall-clock share of a row's own time, never above its coverage (so an
 * (own) row stays within 100 %): for a path run on several threads, the
 * coverage apportioned by the exclusive part of the time summed over threads;
 * else the exclusive time, which on one thread lies within the coverage
 * (docs/parallel.md §1). */
double sp_table_row_own_coverage(const sp_table_row *r);

typedef struct sp_table_rows {
    size_t count;
    sp_table_row *rows; /* display order */
    int has_session_total;
    double session_total; /* total of the first "scope_profiler.session" row */
    int excluded_state;   /* sp_results_excluded_state of the results */
} sp_table_rows;

/* Builds the rows in display order for `sort` (NULL = "start"; §5.3 keys)
 * and `percentage_mode` (NULL = "coverage"). An aggregate-layout file (no
 * per-call events) gives every region a flat fallback row (as the Python
 * table does). Errors: SP_ERR_NESTING (calls of one thread overlap without
 * nesting: damage for every output, docs/robustness.md; Python's table shows
 * flat rows instead), SP_ERR_BAD_PATTERN, SP_ERR_BAD_OPTION (unknown sort key
 * or percentage mode), SP_ERR_OUT_OF_MEMORY.
 * On error *out is empty. */
sp_status sp_table_rows_build(const sp_results *results, const sp_filter *filter, const char *sort,
                              const char *percentage_mode, sp_table_rows *out, sp_error *err);
/* The same with path rows capped at max_depth elements (>= 2; 0 =
 * SP_TABLE_DEFAULT_DEPTH, what sp_table_rows_build uses): the element at the
 * cap is a fold row "…(K levels)" pooling every call below it as a collapsed
 * recursion row does (docs/robustness.md, "Deep call trees"). */
#define SP_TABLE_DEFAULT_DEPTH 256
sp_status sp_table_rows_build_capped(const sp_results *results, const sp_filter *filter,
                                     const char *sort, const char *percentage_mode,
                                     unsigned max_depth, sp_table_rows *out, sp_error *err);
void sp_table_rows_free(sp_table_rows *rows);

/* The sort keys and column keys, NULL-terminated (for help texts and errors). */
extern const char *const sp_sort_keys[];
extern const char *const sp_table_columns[];

/* A region's balance over the given ranks (all when ranks is NULL or
 * num_ranks 0): rank totals, and when asked (non-NULL) the thread balance and
 * the step-by-step comparison, which need per-call events
 * (SP_ERR_UNAVAILABLE for aggregate files). */
sp_status sp_region_balance_over(const sp_mpi_region *region, const uint32_t *ranks,
                                 size_t num_ranks, sp_balance *by_rank, sp_balance *by_thread,
                                 sp_step_balance *steps, sp_error *err);

/* --- time outside MPI waits (docs/parallel.md §2) ------------------------ */

/* Time to leave out when naming the slowest rank: ns a rank spent at a call
 * path (" > " between regions). The CLI and the report fill it from the
 * wait states (src/waits, a layer above this one): the waits of each rank's
 * MPI calls. */
typedef struct sp_excluded_entry {
    uint32_t rank;
    const char *path;
    int64_t ns;
} sp_excluded_entry;
typedef struct sp_excluded_time sp_excluded_time;

typedef enum sp_excluded_scope {
    SP_EXCLUDED_INSIDE_REGION, /* paths through the region: inside its calls */
    SP_EXCLUDED_OWN,           /* paths whose innermost region it is: its own time */
    SP_EXCLUDED_UNDER_PATH     /* the call path itself and the paths below it */
} sp_excluded_scope;

/* Attaches a copy of the entries to the results (known 1), or records that
 * the waits are unknown (known 0: the file has no peer records). Every
 * balance computed afterwards has its "outside" figures. Replaces what was
 * attached before. SP_ERR_OUT_OF_MEMORY (nothing attached). */
sp_status sp_results_set_excluded(const sp_results *results, const sp_excluded_entry *entries,
                                  size_t n, int known);
/* 0: nothing attached (outputs as before), 1: known, -1: unknown. */
int sp_results_excluded_state(const sp_results *results);
/* The attached ns of `rank` that scope selects for `what` (a region name or
 * a call path); 0 when nothing is attached. */
int64_t sp_results_excluded_ns(const sp_results *results, uint32_t rank, const char *what,
                               sp_excluded_scope scope);
/* The balance over the given ranks (all when NULL or 0) of each rank's time
 * in the region minus the attached ns inside it. SP_ERR_UNAVAILABLE when the
 * state is not 1; SP_ERR_OUT_OF_MEMORY. */
sp_status sp_region_outside_balance(const sp_mpi_region *region, const uint32_t *ranks,
                                    size_t num_ranks, sp_balance *out);

#endif
