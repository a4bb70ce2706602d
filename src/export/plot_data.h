/*
 * The numbers behind the charts, as the Python package's `plot --export data`
 * writes them (docs/ecosystem.md § export data): gantt_data (one row per call:
 * file, rank, region, start and end in seconds from the run's first call) and
 * durations_data (file, region, metric, value in seconds), flame_data,
 * duration_timeseries_data and speedup_data (columns in docs/ecosystem.md), as CSV (RFC 4180,
 * CRLF) or JSON ({"format": "scope-profiler-plot-data", "format_version": 1,
 * "plot": ..., rows, "colors": the charts' region colours}).
 */
#ifndef SP_EXPORT_PLOT_DATA_H
#define SP_EXPORT_PLOT_DATA_H

#include <stddef.h>

#include "common/text_buffer.h"
#include "scope_profiler/results.h"

typedef enum sp_plot_data_kind {
    SP_PLOT_DATA_GANTT,
    SP_PLOT_DATA_DURATIONS,
    SP_PLOT_DATA_FLAME,      /* one row per call: ids, path, depth, inclusive/exclusive */
    SP_PLOT_DATA_TIMESERIES, /* per region and call index: time, mean/min/max over ranks */
    SP_PLOT_DATA_SPEEDUP,    /* per region and x: speedup over the runs (several runs) */
    SP_PLOT_DATA_KINDS
} sp_plot_data_kind;

typedef struct sp_plot_data {
    const sp_results *const *runs; /* the files, in order */
    const char *const *labels;     /* their names in the "file" column */
    size_t num_runs;
    const sp_filter *filter;    /* include/exclude and ranks (NULL: all) */
    const char *const *metrics; /* durations: "total", "avg", "min", "max", "std" */
    size_t num_metrics;
    int json;
    const char *x; /* speedup: the metadata key of the x axis (NULL: mpi_size) */
} sp_plot_data;

/* Appends the kind's document to out. SP_ERR_UNAVAILABLE for gantt data of an
 * aggregate-layout file (no calls), SP_ERR_BAD_OPTION for an unknown metric,
 * SP_ERR_BAD_PATTERN, SP_ERR_OUT_OF_MEMORY. */
sp_status sp_plot_data_write(sp_textbuf *out, sp_plot_data_kind kind, const sp_plot_data *d,
                             sp_error *err);

/* "gantt_data", "durations_data", "flame_data", "duration_timeseries_data", "speedup_data". */
const char *sp_plot_data_name(sp_plot_data_kind kind);

/* The metric names durations data knows, for messages. */
extern const char *const SP_PLOT_DATA_METRICS[5];

#endif
