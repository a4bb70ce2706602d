/*
 * scope_profiler/plot.h: SVG charts of profiles (libscope_profiler).
 *
 * Each chart is one standalone SVG document: no script, no external font,
 * image or link, so it opens anywhere and can be mailed. Region names are
 * text, never markup; a name too long for its place is shortened with an
 * ellipsis and the full name is the element's <title> (a hover tooltip).
 * A region has the same colour in every chart (a hash of its name).
 *
 * Large runs stay small: calls shorter than a pixel are merged into one bar
 * per lane and pixel column, ranks beyond one per pixel share a column, so
 * the element count is bounded by lanes x width, whatever the number of calls.
 * docs/plots.md describes every chart.
 */
#ifndef SCOPE_PROFILER_PLOT_H
#define SCOPE_PROFILER_PLOT_H

#include <scope_profiler/results.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sp_plot_kind {
    SP_PLOT_GANTT =
        0, /* every call as a bar on a time axis, one lane per (region, rank[, thread]) */
    SP_PLOT_FLAME_CHART, /* time on x, call depth on y, one rank */
    SP_PLOT_FLAME_GRAPH, /* aggregated call paths: width = inclusive time, the gap = own time */
    SP_PLOT_DURATIONS,   /* one bar per region for a metric */
    SP_PLOT_IMBALANCE,   /* per-rank totals of each region, the slowest rank marked */
    SP_PLOT_HISTOGRAM,   /* distribution of one region's per-call durations */
    SP_PLOT_SPEEDUP      /* several runs against a metadata key, with the ideal line */
} sp_plot_kind;

#define SP_PLOT_NUM_KINDS 7

/** "gantt", "flame-chart", "flame-graph", "durations", "imbalance",
 *  "histogram", "speedup"; NULL for an unknown kind. */
SP_API const char *sp_plot_kind_name(sp_plot_kind kind);

/** The kind named `name`; returns 0 when there is none. */
SP_API int sp_plot_kind_from_name(const char *name, sp_plot_kind *out);

/** Chart options; all-zero means the defaults. */
typedef struct sp_plot_options {
    sp_filter filter;   /* regions (include/exclude) and ranks shown */
    int width;          /* pixels, 0 = 960 (at least 320, at most 8192) */
    const char *metric; /* durations: "total" (default), "avg", "min", "max", "p95" */
    const char *region; /* histogram: the region (NULL = the one with the largest total) */
    int has_rank;       /* flame-chart: nonzero to use `rank` (default: the lowest rank) */
    uint32_t rank;
    const char *x; /* speedup: the metadata key on x (NULL = "mpi_size") */
    int bins;      /* histogram: number of bins (0 = automatic, at most 200) */
} sp_plot_options;

/**
 * Draws a chart of runs[0] (every kind but speedup), or of all runs
 * (speedup: the first run with the smallest x is the reference). Returns the
 * SVG text (free() it) with its length in *len (if non-NULL), or NULL with
 * err set: SP_ERR_BAD_OPTION (metric, width, bins, a speedup with fewer than
 * two runs or a run without the x key), SP_ERR_NO_SUCH_REGION,
 * SP_ERR_NO_SUCH_RANK, SP_ERR_BAD_PATTERN, SP_ERR_UNAVAILABLE (a chart that
 * needs per-call data of an aggregate-layout file), SP_ERR_NESTING,
 * SP_ERR_OUT_OF_MEMORY. A selection without regions gives a chart that says so.
 */
SP_API char *sp_plot_svg(const sp_results *const *runs, size_t num_runs, sp_plot_kind kind,
                         const sp_plot_options *options, size_t *len, sp_error *err);

/** sp_plot_svg() written to path (atomically, parent directories created). */
SP_API sp_status sp_write_plot_svg(const sp_results *const *runs, size_t num_runs,
                                   sp_plot_kind kind, const sp_plot_options *options,
                                   const char *path, sp_error *err);

#ifdef __cplusplus
}
#endif

#endif /* SCOPE_PROFILER_PLOT_H */
