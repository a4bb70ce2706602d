/*
 * scope_profiler/report.h: one self-contained HTML report of one or more
 * runs (libscope_profiler).
 *
 * The report holds everything inline (CSS, the SVG charts of plot.h, a little
 * plain JavaScript), fetches nothing, opens from file:// and prints well.
 * For a run: a header (file, label, date, host when recorded, ranks,
 * threads), headline figures, hotspots, the region tree (sortable,
 * collapsible), load balance per rank and the charts; a filter box applies
 * to the table and the charts. With several runs the first is the baseline
 * and the report adds the comparison and, when the runs differ in ranks or
 * threads, the speedup chart. Names and metadata are always text, never
 * markup. docs/plots.md describes every section.
 */
#ifndef SCOPE_PROFILER_REPORT_H
#define SCOPE_PROFILER_REPORT_H

#include <scope_profiler/results.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Report options; all-zero means the defaults. */
typedef struct sp_report_options {
    sp_filter filter;  /* regions and ranks shown */
    int width;         /* chart width in pixels, 0 = 960 */
    const char *title; /* NULL = the first run's display label */
} sp_report_options;

/** The report as HTML text (free() it), its length in *len; NULL with err set
 *  (SP_ERR_BAD_PATTERN, SP_ERR_BAD_OPTION, SP_ERR_OUT_OF_MEMORY). A chart that
 *  a file cannot give (an aggregate-layout file has no per-call data) is
 *  replaced by a note saying why. */
SP_API char *sp_report_html(const sp_results *const *runs, size_t num_runs,
                            const sp_report_options *options, size_t *len, sp_error *err);

/** sp_report_html() written to path (atomically, parent directories created). */
SP_API sp_status sp_write_report_html(const sp_results *const *runs, size_t num_runs,
                                      const sp_report_options *options, const char *path,
                                      sp_error *err);

#ifdef __cplusplus
}
#endif

#endif /* SCOPE_PROFILER_REPORT_H */
