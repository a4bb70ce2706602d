/*
 * scope_profiler/results.h: the analysis API of libscope_profiler.
 *
 * Reads a profile (written by this library or by the Python scope-profiler,
 * schemas 1 to 3) and answers the questions of the post-processing tutorial:
 *
 *   Python                               C
 *   read_h5(path)                        sp_read(path, &err)
 *   results.region_names / len / in      sp_results_region_name / _num_regions / _find
 *   results["solve"]                     sp_results_get(r, "solve", &err)
 *   mpi_region[0]                        sp_mpi_region_rank(mr, 0, &err)
 *   .total_duration, ...                 sp_mpi_region_total_duration(mr), ... (seconds;
 *                                        the _ns variants return int64 nanoseconds)
 *   .get_summary()                       sp_mpi_region_get_summary(mr, &summary)
 *   num_calls_per_rank(), ...            sp_mpi_region_num_calls_per_rank(mr, out, cap), ...
 *   summary(include=, exclude=)          sp_results_summary(r, &filter, &err)
 *   print_summary(sort=, columns=, ...)  sp_print_summary(r, stdout, &opts, &err)
 *   events()                             sp_events_open / sp_events_next / sp_events_close
 *   to_dataframe(per_rank=)              sp_write_summary_csv / sp_write_summary_json
 *
 * Definitions: durations are seconds at the API (int64 ns inside); std is
 * the population standard deviation; percentiles interpolate linearly
 * between order statistics (numpy's default); exclusive time of a call is
 * its duration minus its direct children's; imbalance is
 * (max over ranks of the per-rank total / mean of those totals - 1) * 100
 * over ranks with a nonzero total (0 with fewer than two such ranks).
 * Every value follows the Python package 0.7.3 to the bit where it can
 * (numpy's summation order and percentile formula included).
 *
 * Objects returned as `const` pointers belong to their sp_results and live
 * until sp_results_free(). Nothing here is thread-safe for one sp_results
 * used from several threads at once, except through const reads after a
 * first sp_results_summary() has built the caches.
 */
#ifndef SCOPE_PROFILER_RESULTS_H
#define SCOPE_PROFILER_RESULTS_H

#include <scope_profiler.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A status with a one-line message naming the file and the problem. */
typedef struct sp_error {
    sp_status status;
    char message[1024];
} sp_error;

typedef struct sp_results sp_results;         /**< ProfilingResults: one profile */
typedef struct sp_mpi_region sp_mpi_region;   /**< MPIRegion: one region over all ranks */
typedef struct sp_rank_region sp_rank_region; /**< Region: one region on one rank */

/* --- Reading ------------------------------------------------------------- */

/**
 * Reads a profile. Returns NULL on failure with err (if non-NULL) set:
 * SP_ERR_NO_SUCH_FILE, SP_ERR_NOT_HDF5, SP_ERR_NOT_A_PROFILE,
 * SP_ERR_SCHEMA_TOO_NEW, SP_ERR_DAMAGED, SP_ERR_BAD_DATASET, SP_ERR_OUT_OF_MEMORY.
 */
SP_API sp_results *sp_read(const char *path, sp_error *err);

/** Frees the results and everything handed out from them. NULL is ignored. */
SP_API void sp_results_free(sp_results *results);

/** The path the results were read from (or written to), as given. */
SP_API const char *sp_results_path(const sp_results *results);

/** The run's label: str(metadata["label"]) when that value is set and truthy
 *  (non-empty text or list, nonzero number), else NULL. */
SP_API const char *sp_results_label(const sp_results *results);

/** The label, or the file name's stem when there is none ("run_a" for "/x/run_a.h5"). */
SP_API const char *sp_results_display_label(const sp_results *results);

/** The file's schema number (1, 2 or 3). */
SP_API int sp_results_schema(const sp_results *results);

/** Nonzero when the file holds per-call events (not the aggregate layout). */
SP_API int sp_results_has_events(const sp_results *results);

/**
 * The relative error bound of the file's percentiles: 0 when they are exact
 * (from the calls), 1/128 (0.78 %) when they come from the duration
 * histograms an aggregate file stores (docs/format.md), NaN when the file
 * has neither (an aggregate file without histograms: no percentiles).
 */
SP_API double sp_results_percentile_error(const sp_results *results);

/**
 * Writes the tutorial's one-line description into buf, e.g.
 * "<ProfilingResults 'profiling_data.h5': 4 region(s), 1 rank(s)>".
 * Returns the length it needed (like snprintf).
 */
SP_API int sp_results_describe(const sp_results *results, char *buf, size_t size);

/* --- Regions ------------------------------------------------------------- */

/** Number of regions (len(results)). */
SP_API size_t sp_results_num_regions(const sp_results *results);

/** Region name by index, in file order (region_names); NULL if out of range. */
SP_API const char *sp_results_region_name(const sp_results *results, size_t index);

/** Index of a region by name, or -1 ("name" in results). */
SP_API long sp_results_find(const sp_results *results, const char *name);

/** Region by index in file order (iteration); NULL if out of range. */
SP_API const sp_mpi_region *sp_results_region_at(const sp_results *results, size_t index);

/**
 * Region by name (results["solve"]). On a miss returns NULL with
 * SP_ERR_NO_SUCH_REGION and the message "No region named 'sovle' in
 * profiling_data.h5. Available regions: ['assemble', ...]" (names quoted as
 * Python's repr() quotes them; the path as pathlib prints it; a list too long
 * for sp_error is cut short with "..."), followed by " Did you mean 'solve'?"
 * when a name is within an edit distance of max(1, length / 3) (the closest,
 * the first in file order on ties).
 */
SP_API const sp_mpi_region *sp_results_get(const sp_results *results, const char *name,
                                           sp_error *err);

/* --- Ranks and time ------------------------------------------------------ */

/**
 * The run's rank count (Python's num_ranks): for schemas 2 and 3 the larger of
 * metadata mpi_size and the highest rank with data + 1; for schema 1 the
 * number of ranks with data; 0 when the file holds no rows.
 */
SP_API size_t sp_results_num_ranks(const sp_results *results);

/** Number of distinct ranks that hold data (at most sp_results_num_ranks()). */
SP_API size_t sp_results_num_data_ranks(const sp_results *results);

/** The index-th rank with data, ascending (index < sp_results_num_data_ranks());
 *  UINT32_MAX when out of range. */
SP_API uint32_t sp_results_rank(const sp_results *results, size_t index);

/** Times in seconds (the _ns variants in int64 ns), on the file's clock:
 *  run_start_time / finalize_time: metadata start_time_ns / finalize_time_ns
 *  divided by 1e9, NaN when absent or not a number (Python: None);
 *  minimum_start_time / maximum_end_time: over all calls (0 without calls);
 *  time_span: maximum_end_time - minimum_start_time (0 without calls);
 *  time_origin: run_start_time when known, else minimum_start_time;
 *  startup_time: minimum_start_time - time_origin;
 *  total_time: finalize_time - run_start_time, NaN unless both are known. */
SP_API double sp_results_time_origin(const sp_results *results);
SP_API int64_t sp_results_time_origin_ns(const sp_results *results);
SP_API double sp_results_minimum_start_time(const sp_results *results);
SP_API int64_t sp_results_minimum_start_time_ns(const sp_results *results);
SP_API double sp_results_maximum_end_time(const sp_results *results);
SP_API int64_t sp_results_maximum_end_time_ns(const sp_results *results);
SP_API double sp_results_time_span(const sp_results *results);
SP_API double sp_results_run_start_time(const sp_results *results);
SP_API double sp_results_finalize_time(const sp_results *results);
SP_API double sp_results_startup_time(const sp_results *results);
SP_API double sp_results_total_time(const sp_results *results);

/* --- Metadata ------------------------------------------------------------ */

typedef enum sp_value_type {
    SP_VALUE_INT = 0,
    SP_VALUE_FLOAT,
    SP_VALUE_STRING,
    SP_VALUE_STRING_LIST
} sp_value_type;

/** One metadata attribute; the pointers belong to the results. */
typedef struct sp_metadata_item {
    const char *key;
    sp_value_type type;
    int64_t int_value;
    double float_value;
    const char *string_value;
    const char *const *list;
    size_t list_len;
} sp_metadata_item;

/** Number of metadata attributes. */
SP_API size_t sp_results_num_metadata(const sp_results *results);

/** The index-th attribute in file order; returns 0 if out of range. */
SP_API int sp_results_metadata_at(const sp_results *results, size_t index, sp_metadata_item *out);

/** The attribute named key; returns 0 if absent. */
SP_API int sp_results_metadata_find(const sp_results *results, const char *key,
                                    sp_metadata_item *out);

/* --- MPIRegion: one region over all ranks -------------------------------- */

/** The fields of get_summary(), durations in seconds (all 0 without calls). */
typedef struct sp_summary {
    uint64_t num_calls;
    double total_duration;
    double inclusive_duration; /* = total_duration */
    double exclusive_duration; /* total minus the time in direct children */
    double average_duration;
    double min_duration;
    double max_duration;
    double first_duration;
    double last_duration;
    double std_duration;
} sp_summary;

SP_API const char *sp_mpi_region_name(const sp_mpi_region *region);

/** Ranks that recorded the region, ascending. */
SP_API size_t sp_mpi_region_num_ranks(const sp_mpi_region *region);
SP_API uint32_t sp_mpi_region_rank_id(const sp_mpi_region *region, size_t index);

/**
 * Statistics pooled over all calls of all ranks (as the Python package's MPIRegion):
 * total is the sum of the per-rank totals; average, std and the percentiles
 * work on the pooled per-call seconds with numpy's arithmetic; first/last come
 * from the rank with the earliest first start / the latest end. Values that
 * cannot be computed (out of memory) are NaN.
 */
SP_API uint64_t sp_mpi_region_num_calls(const sp_mpi_region *region);
SP_API double sp_mpi_region_total_duration(const sp_mpi_region *region);
SP_API int64_t sp_mpi_region_total_duration_ns(const sp_mpi_region *region);
SP_API double sp_mpi_region_average_duration(const sp_mpi_region *region);
SP_API double sp_mpi_region_min_duration(const sp_mpi_region *region);
SP_API int64_t sp_mpi_region_min_duration_ns(const sp_mpi_region *region);
SP_API double sp_mpi_region_max_duration(const sp_mpi_region *region);
SP_API int64_t sp_mpi_region_max_duration_ns(const sp_mpi_region *region);
SP_API double sp_mpi_region_std_duration(const sp_mpi_region *region);
SP_API double sp_mpi_region_first_duration(const sp_mpi_region *region);
SP_API double sp_mpi_region_last_duration(const sp_mpi_region *region);
SP_API double sp_mpi_region_inclusive_duration(const sp_mpi_region *region);
/** Earliest start and latest end over the ranks, seconds on the file's clock (0 without calls). */
SP_API double sp_mpi_region_first_start_time(const sp_mpi_region *region);
SP_API double sp_mpi_region_last_end_time(const sp_mpi_region *region);

/**
 * Exclusive time: the sum over ranks of the stored exclusive totals when every
 * (region, rank) row of the file has one, else rebuilt from the call trees of
 * all ranks (SP_ERR_NESTING when calls overlap without nesting). NaN with err
 * set on failure; SP_ERR_UNAVAILABLE for an aggregate file without stored totals.
 */
SP_API double sp_mpi_region_exclusive_duration(const sp_mpi_region *region, sp_error *err);

/** The q-th percentile (0 <= q <= 100) of the pooled durations, seconds; 0 without
 *  calls. Aggregate files with histograms: from the merged histograms, within
 *  sp_results_percentile_error(). NaN with err on error (SP_ERR_UNAVAILABLE for
 *  aggregate-layout files without histograms). */
SP_API double sp_mpi_region_percentile(const sp_mpi_region *region, double q, sp_error *err);

/** max/mean of the nonzero per-rank totals; 0.0 with fewer than two such ranks. */
SP_API double sp_mpi_region_imbalance(const sp_mpi_region *region);
/** (imbalance - 1) * 100, or 0.0 when the ratio is 0.0. */
SP_API double sp_mpi_region_imbalance_pct(const sp_mpi_region *region);

/** Per-rank values, out[i] for sp_mpi_region_rank_id(region, i): each writes
 *  at most `capacity` values into out (may be NULL with capacity 0) and
 *  returns sp_mpi_region_num_ranks(region), like snprintf. */
SP_API size_t sp_mpi_region_num_calls_per_rank(const sp_mpi_region *region, uint64_t *out,
                                               size_t capacity);
SP_API size_t sp_mpi_region_total_durations(const sp_mpi_region *region, double *out,
                                            size_t capacity);
SP_API size_t sp_mpi_region_average_durations(const sp_mpi_region *region, double *out,
                                              size_t capacity);
SP_API size_t sp_mpi_region_min_durations(const sp_mpi_region *region, double *out,
                                          size_t capacity);
SP_API size_t sp_mpi_region_max_durations(const sp_mpi_region *region, double *out,
                                          size_t capacity);

/** get_summary(): pooled values. Returns SP_OK or the call tree's error (the
 *  other fields are filled even then; exclusive_duration is NaN). */
SP_API sp_status sp_mpi_region_get_summary(const sp_mpi_region *region, sp_summary *out,
                                           sp_error *err);

/** repr(mpi_region) into buf like snprintf, e.g. "<MPIRegion 'solve': 5 calls on
 *  1 rank(s), total 0.0153008 s, avg 0.00306016 s>". */
SP_API int sp_mpi_region_describe(const sp_mpi_region *region, char *buf, size_t size);

/**
 * The region on one rank (mpi_region[rank]). On a rank without data returns
 * NULL with SP_ERR_NO_SUCH_RANK and the message "Region 'solve' has no data
 * for rank 3. Available ranks: [0, 1, 2]".
 */
SP_API const sp_rank_region *sp_mpi_region_rank(const sp_mpi_region *region, uint32_t rank,
                                                sp_error *err);

/**
 * Bytes the region's MPI calls moved, summed over ranks, as the PMPI wrappers
 * count them (docs/parallel.md, "MPI calls as regions"); -1 when no rank has
 * a count (user regions, files recorded without the wrappers).
 */
SP_API int64_t sp_mpi_region_message_bytes(const sp_mpi_region *region);

/* --- Region: one region on one rank -------------------------------------- */
/* Values from this rank's int64 ns calls (as the Python package's Region): total is
 * the exact integer sum / 1e9, average (sum / n) / 1e9, std and percentiles
 * computed in ns and divided by 1e9; all 0 without calls. */

SP_API uint32_t sp_rank_region_rank(const sp_rank_region *region);
SP_API const char *sp_rank_region_name(const sp_rank_region *region);
SP_API uint64_t sp_rank_region_num_calls(const sp_rank_region *region);

/** Per-call int64 ns, in recorded (start) order, num_calls long; absolute
 *  times on the file's clock. NULL for aggregate-layout files. */
SP_API const int64_t *sp_rank_region_start_times_ns(const sp_rank_region *region);
SP_API const int64_t *sp_rank_region_durations_ns(const sp_rank_region *region);

/** Per-call values in seconds: the first min(capacity, num_calls) of them
 *  into out; end = start + duration. SP_ERR_UNAVAILABLE (out untouched) for
 *  aggregate-layout files. */
SP_API sp_status sp_rank_region_durations(const sp_rank_region *region, double *out,
                                          size_t capacity);
SP_API sp_status sp_rank_region_start_times(const sp_rank_region *region, double *out,
                                            size_t capacity);
SP_API sp_status sp_rank_region_end_times(const sp_rank_region *region, double *out,
                                          size_t capacity);

SP_API double sp_rank_region_total_duration(const sp_rank_region *region);
SP_API double sp_rank_region_average_duration(const sp_rank_region *region);
SP_API double sp_rank_region_min_duration(const sp_rank_region *region);
SP_API double sp_rank_region_max_duration(const sp_rank_region *region);
SP_API double sp_rank_region_first_duration(const sp_rank_region *region);
SP_API double sp_rank_region_last_duration(const sp_rank_region *region);
SP_API double sp_rank_region_std_duration(const sp_rank_region *region);
/** Earliest start / latest end of this rank's calls, seconds (0 without calls). */
SP_API double sp_rank_region_first_start_time(const sp_rank_region *region);
SP_API double sp_rank_region_last_end_time(const sp_rank_region *region);

/** Bytes this rank's calls of the region moved (see
 *  sp_mpi_region_message_bytes); -1 when not counted. */
SP_API int64_t sp_rank_region_message_bytes(const sp_rank_region *region);

/** Exclusive time (see sp_mpi_region_exclusive_duration); NaN with err on failure. */
SP_API double sp_rank_region_exclusive_duration(const sp_rank_region *region, sp_error *err);

/** Percentiles (each 0 <= qs[i] <= 100) of this rank's durations into out[i],
 *  seconds. SP_ERR_UNAVAILABLE for aggregate-layout files. */
SP_API sp_status sp_rank_region_percentiles(const sp_rank_region *region, const double *qs,
                                            size_t num_qs, double *out, sp_error *err);
/** One percentile; NaN with err on error. */
SP_API double sp_rank_region_percentile(const sp_rank_region *region, double q, sp_error *err);

/** get_summary() of this rank's calls. Returns SP_OK or the exclusive time's
 *  error (the other fields are filled even then; exclusive_duration is NaN). */
SP_API sp_status sp_rank_region_get_summary(const sp_rank_region *region, sp_summary *out,
                                            sp_error *err);

/* --- Filters and summary rows -------------------------------------------- */

/**
 * Region selection. include/exclude are PCRE2 regular expressions (UTF-8,
 * Unicode classes) anchored at the start of the name like Python's re.match
 * ("s" keeps "setup" and "solve"); a region is kept when it matches any
 * include pattern (or there are none) and no exclude pattern. A pattern that
 * does not compile fails with SP_ERR_BAD_PATTERN, naming the pattern, the
 * position and the reason. ranks restricts the calls used to those ranks
 * (NULL or num_ranks 0 = all; a repeated rank counts once). An all-zero
 * sp_filter (or a NULL pointer) selects everything.
 */
typedef struct sp_filter {
    const char *const *include;
    size_t num_include;
    const char *const *exclude;
    size_t num_exclude;
    const uint32_t *ranks;
    size_t num_ranks;
    /* region tags (sp_region_add_tag, the Python package's tags): keep only regions
     * carrying one of them on some rank; NULL or num_tags 0 = no tag condition */
    const char *const *tags;
    size_t num_tags;
} sp_filter;

/**
 * One summary() row (or one per-rank row, where rank is set). Pooled rows
 * follow sp_mpi_region_get_summary() over the selected ranks; per-rank rows
 * sp_rank_region_get_summary() plus that rank's percentiles, with num_ranks 1
 * and rank_imbalance 0. The strings belong to the results.
 */
typedef struct sp_summary_row {
    const char *name;
    int64_t rank; /* -1 in pooled rows */
    uint64_t num_ranks;
    uint64_t num_calls;
    double total_duration;
    double inclusive_duration;
    double exclusive_duration;
    double average_duration;
    double min_duration;
    double max_duration;
    double first_duration;
    double last_duration;
    double std_duration;
    double p50_duration;
    double p95_duration;
    double p99_duration;
    double rank_imbalance;     /* max/mean */
    double rank_imbalance_pct; /* = imbalance */
    const char *tags;          /* JSON list of the lowest selected rank, e.g. "[]" */
    int has_percentiles;       /* 0 in aggregate-layout files without histograms: p50/p95/p99
                                  are NaN (None) */
    int has_exclusive;         /* 0 in aggregate-layout files without stored exclusive
                                  totals: exclusive_duration is NaN */
    double percentile_error;   /* relative error bound of p50/p95/p99: 0 when exact (from
                                  the calls), 1/128 when from an aggregate file's histograms */
} sp_summary_row;

typedef struct sp_summary_rows {
    size_t count;
    sp_summary_row *rows;
} sp_summary_rows;

/**
 * summary(): one row per selected region, ordered by first start. With
 * per_rank nonzero, one row per (region, rank) instead, ranks ascending
 * (to_dataframe(per_rank=True)). NULL on error (bad pattern, nesting error
 * while rebuilding exclusive times, out of memory). Aggregate-layout files
 * give rows too, with has_percentiles (and, without stored exclusive totals,
 * has_exclusive) 0. A 10-million-call profile
 * takes well under a second; the percentiles need a scratch copy of the
 * largest region's durations (8 bytes per call) for the duration of the call.
 */
SP_API sp_summary_rows *sp_results_summary(const sp_results *results, const sp_filter *filter,
                                           int per_rank, sp_error *err);
SP_API void sp_summary_rows_free(sp_summary_rows *rows);

/** get_regions(): the selected regions ordered by first start; count in *count. */
SP_API const sp_mpi_region **sp_results_get_regions(const sp_results *results,
                                                    const sp_filter *filter, size_t *count,
                                                    sp_error *err);
/** Frees the array returned by sp_results_get_regions (not the regions). */
SP_API void sp_region_list_free(const sp_mpi_region **list);

/** Options of sp_print_summary(); all-zero means the tutorial's defaults. */
typedef struct sp_print_options {
    const char *sort;           /* NULL/"start" (tree order), "total", "calls", "avg", "min",
                                   "max", "first", "last", "std", "p50", "p95", "p99",
                                   "imbalance" (descending), "name" */
    const char *const *columns; /* NULL = {"region", "total"}, or {"region", "percent",
                                   "total"} with a scope_profiler.session row; keys: region
                                   (alias name), ranks, calls, total, percent,
                                   parent_percent, avg, min, max, first, last, std, p50, p95,
                                   p99, imbalance. Unknown keys or an empty list (columns
                                   set, num_columns 0): SP_ERR_BAD_OPTION */
    size_t num_columns;
    sp_filter filter;
    int suppress_notes;          /* nonzero: no notes box */
    int ascii;                   /* nonzero: ASCII instead of UTF-8 box drawing: "+", "-", "|";
                                    tree prefixes "\\- " and "| "; "(r)" for the recursion mark */
    const char *title;           /* notes box title; NULL = "<label> - <relpath> (N rank[s])" */
    const char *percentage_mode; /* NULL/"coverage" or "exclusive" (the percent column) */
    int title_counts_rows;       /* nonzero: " (N)" is appended to the title, N being the
                                    number of regions shown (as inspect's "Regions (N)") */
    size_t top;                  /* nonzero: only the first `top` regions of a flat sort
                                    (sort NULL then means "total") */
    size_t max_width;            /* nonzero: cut long region cells with "…" (ASCII "~") so
                                    that the table fits in this many columns; 0 = never */
    unsigned max_depth;          /* call-path rows of at most this many elements (>= 2): the
                                    deepest one is "…(K levels)", every deeper call pooled into
                                    it; 0 = 256 (docs/robustness.md, "Deep call trees") */
} sp_print_options;

/**
 * print_summary(): the nested box table, the notes box unless suppressed, and
 * an empty line. A flat sort (any sort but "start") lists each region once
 * with no tree prefixes and no "(own)" rows, since rows no longer follow
 * their parents. The default (tree order, no top, no max_width) is the Python
 * package's table exactly.
 *
 * As the Python package:
 * an empty line; "  (no regions recorded)" (after the title) when no region is
 * selected. Nothing is printed on error. Unlike the Python package, calls that
 * do not nest are an error (SP_ERR_NESTING, naming the file, rank and both
 * calls), as for every other output, not a table of flat rows.
 */
SP_API sp_status sp_print_summary(const sp_results *results, FILE *out,
                                  const sp_print_options *options, sp_error *err);

/**
 * A region's captured source: the file and line of its first call site and
 * the text captured at finalize (capture_region_source), from the first rank
 * that has a text (else the first with a location). Unknown parts are ""
 * and -1. Returns 1 when the text is non-empty, 0 otherwise (also for NULL).
 */
SP_API int sp_mpi_region_source(const sp_mpi_region *region, const char **file, int64_t *line,
                                const char **text);

/**
 * Summary rows (to_dataframe) as CSV or JSON, keys named as in summary():
 * pooled rows as summary() (tags as a JSON list), per-rank rows as name, rank,
 * get_summary() keys, p50/p95/p99_duration. Floats as Python's repr(); unknown
 * values (NaN) as an empty CSV cell / JSON null. CSV per RFC 4180 with a header
 * line and CRLF line ends (the tags cell always quoted); JSON as a list of
 * objects, two-space indentation, final newline. Nothing is written on error.
 */
SP_API sp_status sp_write_summary_csv(const sp_results *results, FILE *out, const sp_filter *filter,
                                      int per_rank, sp_error *err);
SP_API sp_status sp_write_summary_json(const sp_results *results, FILE *out,
                                       const sp_filter *filter, int per_rank, sp_error *err);

/* --- Threads ------------------------------------------------------------- */

/** One thread lane of one rank: the /thread_table row, or thread 0 of a rank
 *  when the file has no thread ids (single-threaded ranks). */
typedef struct sp_thread_summary {
    uint32_t rank;
    int64_t index;          /* the thread id its calls carry */
    const char *name;       /* "" when unnamed or unknown */
    int64_t native_id;      /* the OS thread id, -1 when unknown */
    double wall_time;       /* last activity - first activity, s; NaN when unknown */
    double cpu_time;        /* CPU time of the thread, s; NaN when unknown */
    uint64_t num_calls;     /* calls of every region on this lane */
    double time_in_regions; /* union of its calls' intervals, s (nesting counted once) */
} sp_thread_summary;

/** Number of thread lanes over all ranks (at least one per rank with calls). */
SP_API size_t sp_results_num_threads(const sp_results *results);

/** The index-th lane, ordered by rank then thread index. SP_ERR_INVALID_ARGUMENT
 *  out of range, SP_ERR_UNAVAILABLE for aggregate-layout files. */
SP_API sp_status sp_results_thread_summary(const sp_results *results, size_t index,
                                           sp_thread_summary *out, sp_error *err);

/** A region's calls on one thread of its rank: writes up to `capacity` call
 *  indices (positions in the sp_rank_region arrays) into out (may be NULL)
 *  and returns how many there are. Without thread ids, every call is thread 0. */
SP_API size_t sp_rank_region_thread_calls(const sp_rank_region *region, int64_t thread,
                                          uint64_t *out, size_t capacity);

/* --- Events -------------------------------------------------------------- */

/** One call. Times in seconds relative to time_origin unless absolute was asked:
 *  start = start_ns / 1e9 - origin, end likewise, duration = end - start (as
 *  Python computes them, so duration may differ from duration_ns / 1e9 in the
 *  last bits). */
typedef struct sp_event {
    const char *name;
    uint32_t rank;
    int64_t thread;      /* thread id (thread_ids column), -1 when unknown or absent */
    uint64_t call_index; /* index of the call within its (rank, region) */
    double start;
    double end;
    double duration;
    int64_t start_ns; /* same origin as start */
    int64_t end_ns;
    int64_t duration_ns;
} sp_event;

typedef struct sp_event_options {
    sp_filter filter;
    int absolute; /* nonzero: times on the file's clock instead of from time_origin */
    /* nonzero: each rank's times as stored, without the clock offset to rank 0
     * an MPI file of ours carries (/scope_profiler_c/clock_offsets), as the
     * Python package's events() reports them; zero: on rank 0's clock, as the
     * rest of the analysis. Files without offsets give the same either way. */
    int raw_clocks;
} sp_event_options;

typedef struct sp_event_iter sp_event_iter;

/** Iterates over every selected call: regions in sp_results_get_regions() order,
 *  then ranks ascending (or in the filter's rank order, skipping ranks the
 *  region lacks), then calls in recorded order (events()). NULL with err on a
 *  bad pattern, or SP_ERR_UNAVAILABLE for aggregate-layout files. */
SP_API sp_event_iter *sp_events_open(const sp_results *results, const sp_event_options *options,
                                     sp_error *err);
/** Fills *out with the next call; returns 0 at the end. */
SP_API int sp_events_next(sp_event_iter *iter, sp_event *out);
SP_API void sp_events_close(sp_event_iter *iter);

/* --- JSON exports (docs/layout.md §7) ------------------------------------ */

/* Both documents are printed as Python's json.dump(indent=2) prints them
 * (ensure_ascii escapes, floats as repr(); NaN, which Python would write as
 * NaN, as null) with a final newline. Files are written under a temporary
 * name and renamed into place, parent directories created; on error no file
 * is left behind and the message names the path. */

typedef struct sp_stats_options {
    const char *const *labels; /* one per run (a NULL entry: that run's display label);
                                  NULL = display labels, repeats as "label (2)", ... */
    sp_filter filter;          /* include/exclude select regions; ranks the calls */
} sp_stats_options;

/** collect_region_statistics(): the payload {units, filters, common_regions,
 *  files} as JSON text (free with free()); NULL with err on error. */
SP_API char *sp_collect_region_statistics(const sp_results *const *runs, size_t num_runs,
                                          const sp_stats_options *options, sp_error *err);
/** The document sp_write_region_statistics_json() writes (envelope and final
 *  newline included), as a string to free(); NULL with err on error. */
SP_API char *sp_format_region_statistics_json(const sp_results *const *runs, size_t num_runs,
                                              const sp_stats_options *options, sp_error *err);
/** write_region_statistics_json(): {"format": "scope-profiler-plot-data",
 *  "format_version": 1, "plot": "region_statistics", ...payload}; with no runs
 *  nothing is written (SP_OK), as in the Python package. */
SP_API sp_status sp_write_region_statistics_json(const sp_results *const *runs, size_t num_runs,
                                                 const sp_stats_options *options,
                                                 const char *out_path, sp_error *err);
/** write_metadata_json(): {"files": [{file_path, num_ranks, metadata}, ...]}, values unclipped. */
SP_API char *sp_collect_metadata_json(const sp_results *const *runs, size_t num_runs,
                                      sp_error *err);
SP_API sp_status sp_write_metadata_json(const sp_results *const *runs, size_t num_runs,
                                        const char *out_path, sp_error *err);

#ifdef __cplusplus
}
#endif

#endif /* SCOPE_PROFILER_RESULTS_H */
