/*
 * scope_profiler/export.h: trace exports of a profile for the viewers HPC
 * users already have (docs/cli.md § export describes every format):
 *
 *   SP_EXPORT_CHROME_TRACE  Trace Event Format JSON (chrome://tracing, Perfetto, speedscope)
 *   SP_EXPORT_PERFETTO      Perfetto's native protobuf trace (ui.perfetto.dev, trace_processor)
 *   SP_EXPORT_SPEEDSCOPE    speedscope's evented JSON, one profile per rank and thread
 *   SP_EXPORT_FOLDED        "a;b;c <exclusive ns>" lines (flamegraph.pl, inferno, speedscope)
 *   SP_EXPORT_HATCHET       Caliper's json-split call tree (Hatchet, Thicket), per rank or averaged
 *   SP_EXPORT_PSTATS        Python's marshal-based pstats file (snakeviz, python3 -m pstats)
 *   SP_EXPORT_OTF2          an OTF2 archive directory (otf2-print, Vampir, Scalasca); only
 *                           through sp_export_file(), and only when built with OTF2
 *
 * Every export streams: it walks one rank's call tree at a time and keeps
 * only the open calls (and, for folded, one node per distinct call path), so
 * the memory it needs beyond the results object does not grow with the run.
 *
 * Selection (sp_call_selection): a call is selected when its rank, region
 * (include/exclude, anchored like re.match), thread, time window and
 * duration pass, and, with max_events, when it is among the max_events
 * longest of those; every ancestor of a selected call is written too (as
 * context), so call paths stay whole.
 */
#ifndef SCOPE_PROFILER_EXPORT_H
#define SCOPE_PROFILER_EXPORT_H

#include <scope_profiler/results.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sp_export_format {
    SP_EXPORT_CHROME_TRACE = 0,
    SP_EXPORT_PERFETTO,
    SP_EXPORT_SPEEDSCOPE,
    SP_EXPORT_FOLDED,
    SP_EXPORT_HATCHET,
    SP_EXPORT_PSTATS,
    SP_EXPORT_OTF2
} sp_export_format;

/** Which calls an export (or any call walk) keeps. All-zero selects every call
 *  (window_start and window_end are ignored unless has_window is set). */
typedef struct sp_call_selection {
    sp_filter filter;       /* include/exclude patterns and ranks */
    const int64_t *threads; /* thread ids to keep (NULL or num_threads 0: all) */
    size_t num_threads;
    int has_window;      /* nonzero: keep calls overlapping [window_start, window_end] */
    double window_start; /* seconds from the run's time origin; -INFINITY: open */
    double window_end;   /* seconds from the run's time origin; INFINITY: open */
    double min_duration; /* seconds; calls shorter than this are left out */
    uint64_t max_events; /* 0: no limit; else the max_events longest selected calls */
    int raw_clock;       /* nonzero: times as each rank stored them, without the
                            clock offsets to rank 0 (selection still uses aligned times) */
} sp_call_selection;

typedef struct sp_export_options {
    sp_call_selection select;
    int per_rank; /* folded: the rank ("rank 3") is the first frame of every line */
    int gzip;     /* nonzero: the output is gzip-compressed (zlib) */
    int no_args;  /* chrome-trace: complete events without "args" (speedscope appends
                     args to frame names, so every call would become a frame of its own) */
    int aggregate_ranks; /* hatchet: one row per call path, averaged over the ranks
                            (Thicket's groupby), instead of one row per path and rank */
    unsigned max_depth; /* folded: frames per line (>= 2); deeper calls fold into one
                           frame "…(N levels)"; 0 = SP_FOLDED_DEFAULT_DEPTH */
} sp_export_options;

/** Frames per folded line unless sp_export_options.max_depth says otherwise. */
#define SP_FOLDED_DEFAULT_DEPTH 256

/** What an export will write, known before writing (sp_export_estimate). */
typedef struct sp_export_estimate {
    uint64_t selected_calls; /* calls that pass the selection (max_events applied) */
    uint64_t bytes;          /* expected uncompressed output size */
} sp_export_estimate;

/** The format's command-line name ("chrome-trace", "perfetto", "speedscope", "folded",
 *  "hatchet", "pstats", "otf2"). */
SP_API const char *sp_export_format_name(sp_export_format format);

/** Looks a format up by name; returns 0 when the name is unknown. */
SP_API int sp_export_format_from_name(const char *name, sp_export_format *out);

/** Counts the selected calls and estimates the output size (within about 20 %
 *  for the JSON formats and perfetto; for folded the exact size: its paths
 *  are built as for writing, without writing them). */
SP_API sp_status sp_export_estimate_size(const sp_results *results, sp_export_format format,
                                         const sp_export_options *options, sp_export_estimate *out,
                                         sp_error *err);

/**
 * Writes the export to out (a file or a pipe; nothing is written to out on
 * a selection error). Errors: SP_ERR_BAD_PATTERN, SP_ERR_UNAVAILABLE
 * (aggregate-layout files hold no calls), SP_ERR_NESTING (calls of one thread
 * overlap without nesting), SP_ERR_IO (a failed write), SP_ERR_OUT_OF_MEMORY;
 * SP_ERR_INVALID_ARGUMENT for SP_EXPORT_OTF2 (an archive is a directory).
 */
SP_API sp_status sp_export_write(const sp_results *results, sp_export_format format,
                                 const sp_export_options *options, FILE *out, sp_error *err);

/** The same into a file, written under a temporary name and renamed into place:
 *  on any error no file is left behind and an older file at path is kept.
 *  SP_EXPORT_OTF2 writes the archive directory path (refused with
 *  SP_ERR_BAD_OPTION when path exists; SP_ERR_UNAVAILABLE when the library was
 *  built without OTF2). */
SP_API sp_status sp_export_file(const sp_results *results, sp_export_format format,
                                const sp_export_options *options, const char *path, sp_error *err);

#ifdef __cplusplus
}
#endif

#endif /* SCOPE_PROFILER_EXPORT_H */
