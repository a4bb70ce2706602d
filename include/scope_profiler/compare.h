/*
 * scope_profiler/compare.h: comparing runs (diff, check, scaling) with
 * verdicts that tell a change from noise. Part of libscope_profiler, built
 * on the analysis API of results.h; docs/compare.md describes every rule.
 *
 *   sp_comparison *c = sp_compare(&a, 1, &b, 1, &options, &err);
 *   for (size_t i = 0; i < c->count; i++)
 *       printf("%s %+.3g%% %s\n", c->rows[i].name, c->rows[i].pct,
 *              sp_verdict_text(c->rows[i].sig.verdict));
 *   sp_comparison_free(c);
 *
 * A side (a or b) is one run or several repeated runs of the same program
 * ("pooled"): a row's value on a side is the mean over that side's runs that
 * hold the row of the run's metric value. The verdict compares the runs'
 * values (two or more runs on each side, so run-to-run variation counts;
 * one run per side is inconclusive), or with per_call the per-call
 * durations; see sp_significance.
 *
 * Everything returned is owned by the returned object (names are copies):
 * the results may be freed before it.
 */
#ifndef SCOPE_PROFILER_COMPARE_H
#define SCOPE_PROFILER_COMPARE_H

#include <scope_profiler/results.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The statistic compared. Durations are seconds; imbalance is percent. */
typedef enum sp_metric {
    SP_METRIC_TOTAL = 0, /* sum of the durations over the selected ranks */
    SP_METRIC_AVG,       /* mean duration per call */
    SP_METRIC_MIN,
    SP_METRIC_MAX,
    SP_METRIC_P50, /* percentiles of the pooled per-call durations (need per-call data) */
    SP_METRIC_P95,
    SP_METRIC_P99,
    SP_METRIC_IMBALANCE, /* (max per-rank total / mean - 1) * 100 */
    SP_METRIC_CALLS,
    SP_METRIC_EXCLUSIVE, /* total minus the time in direct children */
    SP_METRIC_COUNT_
} sp_metric;

/** "total", "avg", ... ; NULL for an unknown value. */
SP_API const char *sp_metric_name(sp_metric metric);
/** The column label: "total [s]", "avg [s]", ..., "imbalance [%]", "calls", "exclusive [s]". */
SP_API const char *sp_metric_label(sp_metric metric);
/** Parses a metric name; returns 0 (and leaves *out) when unknown. */
SP_API int sp_metric_parse(const char *name, sp_metric *out);
/** Nonzero for the metrics that need per-call durations (p50, p95, p99). */
SP_API int sp_metric_needs_events(sp_metric metric);

/** What a row is: a region (by name) or a call path ("timestep > solve"). */
typedef enum sp_compare_by { SP_COMPARE_BY_REGION = 0, SP_COMPARE_BY_PATH } sp_compare_by;

/** Row order: |delta| or |pct| descending (rows without a pct last), or name;
 *  ties by name. */
typedef enum sp_compare_sort {
    SP_COMPARE_SORT_DELTA = 0,
    SP_COMPARE_SORT_PCT,
    SP_COMPARE_SORT_NAME
} sp_compare_sort;

/** The verdict of a row. */
typedef enum sp_verdict {
    SP_VERDICT_NOT_COMPUTED = 0, /* significance was not asked for */
    SP_VERDICT_SLOWER,           /* b is significantly slower than a */
    SP_VERDICT_FASTER,           /* b is significantly faster */
    SP_VERDICT_NO_CHANGE,        /* the interval lies inside the equivalence margin */
    SP_VERDICT_NO_PER_CALL_DATA, /* a side's files are aggregate (no per-call durations) */
    SP_VERDICT_ONE_SIDE,         /* the row is only in a or only in b */
    SP_VERDICT_TOO_FEW_CALLS,    /* fewer than two calls (or runs) on a side */
    SP_VERDICT_NOT_A_DURATION,   /* calls, imbalance, exclusive: nothing per call to test */
    SP_VERDICT_INCONCLUSIVE,     /* not significant, and the interval is wider than the margin */
    SP_VERDICT_ONE_RUN           /* one run on a side: no run-to-run variation to test against */
} sp_verdict;

/** "slower", "faster", "no change", "n/a (no per-call data)",
 *  "n/a (only in one run)", "n/a (too few calls)", "n/a (not a per-call time)",
 *  "inconclusive", "inconclusive (1 run per side)", "" for SP_VERDICT_NOT_COMPUTED.
 *  The row's full text (runs needed, "(per-call)") is sp_significance.text. */
SP_API const char *sp_verdict_text(sp_verdict verdict);

/** How the verdict's variance was estimated. */
typedef enum sp_sig_method {
    SP_SIG_NONE = 0,
    SP_SIG_CALLS, /* --per-call: per-call durations are the samples (labelled "(per-call)") */
    SP_SIG_RUNS   /* two or more runs on both sides: the runs' values (log) are the samples */
} sp_sig_method;

/**
 * The significance of one row (docs/compare.md). SP_SIG_RUNS: Welch's
 * unequal-variance t test on the logarithms of the runs' metric values (the
 * ratio is that of their geometric means). SP_SIG_CALLS: Welch's test on
 * the log of the ratio of the mean durations per call (delta method), times
 * (calls per run in b) / (calls per run in a) for the metric total. Interval
 * = exp(log ratio +/- t(1 - level/2, df) * se). Slower or faster when
 * p < level (the interval excludes 1); else no change when the interval lies
 * inside [1 - margin, 1 + margin]; else inconclusive, with runs_needed the
 * runs per side that the observed spread would need for a decision.
 * NaN where there is no verdict.
 */
typedef struct sp_significance {
    sp_verdict verdict;
    sp_sig_method method;
    double ratio, ratio_low, ratio_high;
    double p_value;
    double df;          /* degrees of freedom of the t distribution */
    uint64_t samples_a; /* calls or runs behind the estimate */
    uint64_t samples_b;
    double spread_a, spread_b; /* SP_SIG_RUNS: standard deviation of the log run values of
                                  each side (about the relative run-to-run noise); else NaN */
    uint32_t runs_needed; /* inconclusive (SP_SIG_RUNS): runs per side for a decision at the
                             observed spread; 0 when unknown, UINT32_MAX beyond 1000 */
    char text[64];        /* the verdict as printed: "slower", "no change (per-call)",
                             "inconclusive (about 9 runs per side needed)", ... */
} sp_significance;

/** One row: a region or call path in a, b or both. */
typedef struct sp_compare_row {
    char *name; /* region name or "a > b" call path */
    int in_a;   /* the side holds the row (with a value for the metric) */
    int in_b;
    double a, b;  /* the metric on each side; NaN when not in that side */
    double delta; /* b - a, a missing side counting as 0 */
    int has_pct;
    double pct;              /* delta / a * 100; only when a is known and nonzero */
    uint32_t runs_a, runs_b; /* runs of each side that hold the row */
    sp_significance sig;
} sp_compare_row;

typedef struct sp_compare_options {
    sp_metric metric;     /* default SP_METRIC_TOTAL */
    sp_compare_by by;     /* default by region */
    sp_compare_sort sort; /* default by |delta| */
    int has_threshold;    /* nonzero: drop rows whose |pct| < threshold (rows without pct stay) */
    double threshold;
    sp_filter filter; /* include/exclude regexes (on region names) and ranks */
    int significance; /* nonzero: compute verdicts */
    double level;     /* significance level, 0 < level < 1; 0 = 0.01 */
    double margin;    /* equivalence margin of "no change", 0 < margin < 1; 0 = 0.02 */
    int per_call;     /* nonzero: test the per-call durations (within-run) instead of the runs */
} sp_compare_options;

#define SP_COMPARE_DEFAULT_LEVEL  0.01
#define SP_COMPARE_DEFAULT_MARGIN 0.02

/** The comparison: rows in display order, and the names only in one side. */
typedef struct sp_comparison {
    sp_metric metric;
    sp_compare_by by;
    double level;
    double margin;
    size_t count;
    sp_compare_row *rows;
    size_t num_only_a, num_only_b;
    const char **only_a; /* names (pointers into rows) in row order */
    const char **only_b;
    size_t num_selected; /* rows before the threshold */
    size_t num_common;   /* of those, rows held by both sides */
    /* Relative error bound of each side's metric values: 0 exact; for p50/p95/p99
     * of aggregate files, the histograms' bound (sp_results_percentile_error). */
    double error_a, error_b;
} sp_comparison;

/**
 * Compares side a (runs a[0..num_a)) with side b. Errors (NULL with err):
 * SP_ERR_INVALID_ARGUMENT (no run on a side, a bad level),
 * SP_ERR_BAD_PATTERN, SP_ERR_UNAVAILABLE (the metric needs per-call data or
 * stored exclusive totals that a file lacks; the message names the file),
 * SP_ERR_NESTING (exclusive or path rows of a file whose calls do not nest),
 * SP_ERR_OUT_OF_MEMORY. No selected row at all is not an error (count 0);
 * callers decide (the CLI reports "no regions match").
 */
SP_API sp_comparison *sp_compare(const sp_results *const *a, size_t num_a,
                                 const sp_results *const *b, size_t num_b,
                                 const sp_compare_options *options, sp_error *err);
SP_API void sp_comparison_free(sp_comparison *comparison);

/**
 * The per-call test on its own, for callers with their own samples:
 * n, mean and sample variance of each side (variance of the samples, not of
 * the mean). count_factor scales the ratio (1 for a plain ratio of means).
 * Fewer than two samples on a side: SP_VERDICT_TOO_FEW_CALLS. The verdict
 * uses the margin (0 = SP_COMPARE_DEFAULT_MARGIN); method SP_SIG_CALLS.
 */
SP_API sp_significance sp_significance_test(uint64_t n_a, double mean_a, double var_a, uint64_t n_b,
                                            double mean_b, double var_b, double count_factor,
                                            double level, double margin);

/**
 * The run-level test on the runs' values of one row (all > 0): Welch's t on
 * their logarithms. Fewer than two runs on a side: SP_VERDICT_ONE_RUN when
 * both sides have one, else SP_VERDICT_TOO_FEW_CALLS. A value <= 0 or NaN:
 * SP_VERDICT_NOT_A_DURATION.
 */
SP_API sp_significance sp_significance_runs(const double *a, size_t n_a, const double *b,
                                            size_t n_b, double level, double margin);

/** What a calibration counts: the verdicts of repeated comparisons (A/A pairs:
 *  slower + faster are false alarms; A/B pairs with a known slowdown: slower
 *  is the power). */
typedef struct sp_calibration_counts {
    uint32_t pairs;
    uint32_t slower, faster, no_change, inconclusive, undecided; /* undecided: n/a verdicts */
    double spread_sum2; /* sum over pairs of (spread_a^2 + spread_b^2) / 2 */
    uint32_t spread_pairs;
} sp_calibration_counts;

/** Adds one comparison's verdict. */
SP_API void sp_calibration_count(sp_calibration_counts *counts, const sp_significance *s);
/** sqrt of the mean log-variance: the run-to-run noise (relative) of the pairs counted. */
SP_API double sp_calibration_noise(const sp_calibration_counts *counts);

/** Check options: a row violates the budget when its pct exceeds
 *  max_regression (and, with significant, its verdict is "slower"; rows
 *  the test cannot judge at all, "n/a (...)", are judged on the budget alone;
 *  with strict, an inconclusive row whose interval reaches above
 *  1 + max_regression/100 fails too), or, with fail_on_new, when it is only in b. */
typedef struct sp_check_options {
    double max_regression; /* percent, >= 0 */
    int fail_on_new;
    int significant;
    int strict;
} sp_check_options;

/** Nonzero when the row violates the budget. */
SP_API int sp_compare_row_violates(const sp_compare_row *row, const sp_check_options *check);

/* --- Scaling ------------------------------------------------------------- */

typedef struct sp_scaling_options {
    const char *x; /* "mpi_size" (NULL), "omp_num_threads", "total_cores", "num_nodes"
                      or any numeric metadata key */
    int weak;      /* nonzero: weak scaling (efficiency = t(x0) / t(x)) */
    int total;     /* 0: the mean time per call pooled over the selected ranks; nonzero:
                      the total per rank (the selected ranks' total / the number of them
                      with calls) */
    sp_filter filter;
} sp_scaling_options;

/** One region at one x. */
typedef struct sp_scaling_point {
    int has_time;      /* 0: no run at this x holds the region with calls */
    double time;       /* mean over the runs at this x, seconds */
    uint32_t runs;     /* runs averaged */
    double speedup;    /* t(x0) / t(x) */
    double efficiency; /* strong: speedup / (x / x0); weak: t(x0) / t(x) */
} sp_scaling_point;

typedef struct sp_scaling_region {
    char *name;
    sp_scaling_point *points; /* num_x, in ascending x */
    double *run_times;        /* num_runs, in the order given; NAN: no call in that run */
} sp_scaling_region;

typedef struct sp_scaling {
    char *x_name;
    int weak;
    sp_metric metric; /* SP_METRIC_AVG or SP_METRIC_TOTAL (options.total) */
    size_t num_x;
    double *xs;          /* distinct x values, ascending */
    uint32_t *runs_at_x; /* files at each x */
    size_t num_regions;
    sp_scaling_region *regions; /* regions in every run, in the first run's order */
    size_t num_runs;
    double *run_x; /* num_runs: each run's x, in the order given (the repetitions of a model) */
    /* POP computation scalability (docs/parallel.md §6.4), for runs whose MPI calls were
     * recorded (MPI_* regions) and whose session time is known; both NULL otherwise. */
    double *useful; /* num_x: useful time summed over ranks [s], mean of the runs */
    double *computation_scalability; /* num_x: strong U(x0) / U(x); weak U(x0)·(x/x0) / U(x) */
} sp_scaling;

/**
 * Speedup and efficiency per region over runs at different x. Errors (NULL
 * with err): SP_ERR_INVALID_ARGUMENT (fewer than two runs, or all at one x),
 * SP_ERR_BAD_OPTION (a file without the field: the message names the file
 * and lists the fields it has; or a field that is not a number),
 * SP_ERR_BAD_PATTERN, SP_ERR_OUT_OF_MEMORY. Regions missing from some run
 * are left out; none left: count 0.
 */
SP_API sp_scaling *sp_scaling_compute(const sp_results *const *runs, size_t num_runs,
                                      const sp_scaling_options *options, sp_error *err);
SP_API void sp_scaling_free(sp_scaling *scaling);

#ifdef __cplusplus
}
#endif

#endif /* SCOPE_PROFILER_COMPARE_H */
