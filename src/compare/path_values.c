/*
 * One run's values by call path: the rows of the summary table (the call
 * tree of every selected rank, adjacent repeats of a name collapsed into one
 * recursive path element), keyed "timestep > solve". Aggregate files give
 * the table's flat rows, keyed by name; calls that do not nest are an error.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/error.h"
#include "compare/compare_internal.h"

static void path_value(const sp_table_row *row, sp_metric m, cmp_entry *e) {
    e->has_value = row->has_timing && row->calls > 0;
    switch (m) {
    case SP_METRIC_TOTAL:
        e->value = row->total;
        break;
    case SP_METRIC_AVG:
        e->value = row->avg;
        break;
    case SP_METRIC_MIN:
        e->value = row->min;
        break;
    case SP_METRIC_MAX:
        e->value = row->max;
        break;
    case SP_METRIC_P50:
    case SP_METRIC_P95:
    case SP_METRIC_P99:
        e->value = m == SP_METRIC_P50 ? row->p50 : m == SP_METRIC_P95 ? row->p95 : row->p99;
        e->has_value = e->has_value && row->has_percentiles;
        break;
    case SP_METRIC_IMBALANCE:
        e->value = row->has_imbalance ? row->imbalance : 0.0;
        e->has_value = 1;
        break;
    case SP_METRIC_CALLS:
        e->value = (double)row->calls;
        e->has_value = 1;
        break;
    default:
        e->value = row->exclusive;
        e->has_value = e->has_value && row->has_exclusive && !isnan(row->exclusive);
        break;
    }
}

sp_status cmp_path_entries(const sp_results *r, const sp_compare_options *o, cmp_entries *out,
                           sp_error *err) {
    out->items = NULL;
    out->count = 0;
    if (sp_metric_needs_events(o->metric) && !sp_results_has_events(r) &&
        isnan(sp_results_percentile_error(r))) /* neither calls nor histograms */
        return sp_error_set(err, SP_ERR_UNAVAILABLE,
                            "%s holds no per-call data (aggregate file): the metric %s needs "
                            "per-call durations (use total, avg, min, max, calls or imbalance)",
                            sp_results_path_text(r), sp_metric_name(o->metric));
    sp_table_rows rows;
    sp_status st = sp_table_rows_build(r, &o->filter, "start", NULL, &rows, err);
    if (st != SP_OK) return st;
    out->items = calloc(rows.count ? rows.count : 1, sizeof *out->items);
    if (!out->items) st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    int events = sp_results_has_events(r);
    for (size_t i = 0; st == SP_OK && i < rows.count; i++) {
        const sp_table_row *row = &rows.rows[i];
        cmp_entry *e = &out->items[out->count];
        if (!(e->name = strdup(row->call_path ? row->call_path : row->name))) {
            st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
            break;
        }
        out->count++;
        e->calls = row->calls;
        e->total = row->has_timing ? row->total : 0.0;
        e->mean = row->has_timing ? row->avg : 0.0;
        e->var = row->has_timing ? row->std * row->std : 0.0;
        e->has_samples = events && row->has_timing && row->calls > 0;
        path_value(row, o->metric, e);
    }
    sp_table_rows_free(&rows);
    if (st != SP_OK) cmp_entries_free(out);
    return st;
}
