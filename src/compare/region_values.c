/*
 * One run's values by region name, as the Python package's region_rows()
 * gives them: durations pooled over the selected ranks, total and avg from
 * the exact integer sum of the nanoseconds (total = sum / 1e9, avg =
 * (sum / calls) / 1e9), percentiles numpy's (for a region under several
 * parents: its last call path's row, as the Python package's summary gives);
 * a duration metric has no value when the region made no call on those ranks.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/error.h"
#include "compare/compare_internal.h"

void cmp_entries_free(cmp_entries *e) {
    for (size_t i = 0; e->items && i < e->count; i++)
        free(e->items[i].name);
    free(e->items);
    e->items = NULL;
    e->count = 0;
}

/* The metrics that come from summary() rows instead of the pooled statistics:
 * exclusive times, and with a rank list percentiles and imbalance (over all
 * ranks the region's cached pooled values serve, without the call trees that
 * summary() walks for its exclusive column). */
static int needs_summary(const sp_compare_options *o) {
    sp_metric m = o->metric;
    if (m == SP_METRIC_EXCLUSIVE) return 1;
    return o->filter.num_ranks && (sp_metric_needs_events(m) || m == SP_METRIC_IMBALANCE);
}

/* A percentile of the last call path row of the region (the Python package
 * keys its summary by name, so a later path's row replaces an earlier one);
 * 0 when the table has no such row. */
static int from_last_path(const sp_table_rows *rows, const char *name, sp_metric m, cmp_entry *e) {
    for (size_t i = rows ? rows->count : 0; i-- > 0;) {
        const sp_table_row *row = &rows->rows[i];
        if (!row->call_path || strcmp(row->name, name) != 0) continue;
        if (!row->has_percentiles || !row->calls) return 0;
        e->value = m == SP_METRIC_P50 ? row->p50 : m == SP_METRIC_P95 ? row->p95 : row->p99;
        e->has_value = !isnan(e->value);
        return 1;
    }
    return 0;
}

/* Percentiles and imbalance over all ranks, from the region itself. */
static void from_region(const sp_mpi_region *reg, sp_metric m, cmp_entry *e, sp_error *err) {
    if (m == SP_METRIC_IMBALANCE) {
        e->value = sp_mpi_region_imbalance_pct(reg);
        e->has_value = 1;
        return;
    }
    double q = m == SP_METRIC_P50 ? 50.0 : m == SP_METRIC_P95 ? 95.0 : 99.0;
    e->value = sp_mpi_region_percentile(reg, q, err);
    e->has_value = e->calls > 0 && !isnan(e->value);
}

static sp_status unavailable(const sp_results *r, sp_metric m, sp_error *err) {
    if (m == SP_METRIC_EXCLUSIVE)
        return sp_error_set(err, SP_ERR_UNAVAILABLE,
                            "%s holds no per-call data and no stored exclusive times: the "
                            "metric exclusive cannot be computed (use total, avg, min, max, "
                            "calls or imbalance)",
                            sp_results_path_text(r));
    return sp_error_set(err, SP_ERR_UNAVAILABLE,
                        "%s holds no per-call data (aggregate file): the metric %s needs "
                        "per-call durations (use total, avg, min, max, calls or imbalance)",
                        sp_results_path_text(r), sp_metric_name(m));
}

/* The metric's value from a summary() row. */
static void from_summary(const sp_summary_row *row, sp_metric m, cmp_entry *e) {
    switch (m) {
    case SP_METRIC_P50:
        e->value = row->p50_duration;
        break;
    case SP_METRIC_P95:
        e->value = row->p95_duration;
        break;
    case SP_METRIC_P99:
        e->value = row->p99_duration;
        break;
    case SP_METRIC_IMBALANCE:
        e->value = row->rank_imbalance_pct;
        e->has_value = 1; /* Python: 0.0 even without calls */
        return;
    default:
        e->value = row->exclusive_duration;
        break;
    }
    e->has_value = e->calls > 0 && !isnan(e->value);
}

/* The exact sum of the region's durations on the selected ranks, in ns; 0
 * when the per-call durations are not at hand (aggregate file with a rank list). */
static int exact_total_ns(const sp_mpi_region *reg, const sp_filter *f, int64_t *out) {
    if (!f->num_ranks) {
        *out = sp_mpi_region_total_duration_ns(reg);
        return 1;
    }
    int64_t sum = 0;
    for (size_t i = 0; i < f->num_ranks; i++) {
        const sp_rank_region *rr = sp_mpi_region_rank(reg, f->ranks[i], NULL);
        if (!rr) continue;
        const int64_t *d = sp_rank_region_durations_ns(rr);
        uint64_t n = sp_rank_region_num_calls(rr);
        if (!d && n) return 0;
        for (uint64_t k = 0; k < n; k++)
            sum += d[k];
    }
    *out = sum;
    return 1;
}

static void from_pool(const sp_pool_stats *p, const sp_mpi_region *reg, const sp_filter *f,
                      sp_metric m, cmp_entry *e) {
    e->has_value = p->count > 0;
    int64_t ns = 0;
    int exact = (m == SP_METRIC_TOTAL || m == SP_METRIC_AVG) && p->count &&
                exact_total_ns(reg, f, &ns);
    switch (m) {
    case SP_METRIC_TOTAL:
        e->value = exact ? (double)ns / 1e9 : p->total;
        break;
    case SP_METRIC_AVG:
        e->value = exact ? ((double)ns / (double)p->count) / 1e9 : p->average;
        break;
    case SP_METRIC_MIN:
        e->value = p->min;
        break;
    case SP_METRIC_MAX:
        e->value = p->max;
        break;
    case SP_METRIC_CALLS:
        e->value = (double)p->count;
        e->has_value = 1;
        break;
    default:
        break;
    }
}

static sp_status fill(const sp_results *r, const sp_compare_options *o,
                      const sp_mpi_region *const *regions, size_t n, const sp_summary_rows *summary,
                      const sp_table_rows *paths, cmp_entries *out, sp_error *err) {
    out->items = calloc(n ? n : 1, sizeof *out->items);
    if (!out->items) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    int events = sp_results_has_events(r);
    for (size_t i = 0; i < n; i++) {
        cmp_entry *e = &out->items[out->count];
        sp_pool_stats p;
        sp_status st =
            sp_region_pool_stats(regions[i], o->filter.ranks, o->filter.num_ranks, &p, err);
        if (st != SP_OK) return st;
        if (!(e->name = strdup(sp_mpi_region_name(regions[i]))))
            return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        out->count++;
        e->calls = p.count;
        e->total = p.total;
        e->mean = p.average;
        e->var = p.std * p.std;
        e->has_samples = events && p.count > 0;
        if (sp_metric_needs_events(o->metric) && e->calls &&
            from_last_path(paths, e->name, o->metric, e))
            continue;
        if (sp_metric_needs_events(o->metric) || o->metric == SP_METRIC_IMBALANCE) {
            if (!needs_summary(o)) {
                from_region(regions[i], o->metric, e, err);
                if (e->calls && isnan(e->value)) return err->status;
                continue;
            }
        } else if (o->metric != SP_METRIC_EXCLUSIVE) {
            from_pool(&p, regions[i], &o->filter, o->metric, e);
            continue;
        }
        if (i >= summary->count || strcmp(summary->rows[i].name, e->name) != 0)
            return sp_error_set(err, SP_ERR_INVALID_ARGUMENT,
                                "internal: summary rows out of order");
        const sp_summary_row *row = &summary->rows[i];
        if (o->metric == SP_METRIC_EXCLUSIVE && !row->has_exclusive && p.count)
            return unavailable(r, o->metric, err);
        from_summary(row, o->metric, e);
    }
    return SP_OK;
}

sp_status cmp_region_entries(const sp_results *r, const sp_compare_options *o, cmp_entries *out,
                             sp_error *err) {
    out->items = NULL;
    out->count = 0;
    if (sp_metric_needs_events(o->metric) && !sp_results_has_events(r) &&
        isnan(sp_results_percentile_error(r))) /* neither calls nor histograms */
        return unavailable(r, o->metric, err);
    size_t n = 0;
    const sp_mpi_region **regions = sp_results_get_regions(r, &o->filter, &n, err);
    if (!regions) return err ? err->status : SP_ERR_OUT_OF_MEMORY;
    sp_summary_rows *summary = NULL;
    sp_status st = SP_OK;
    if (needs_summary(o) && !(summary = sp_results_summary(r, &o->filter, 0, err)))
        st = err ? err->status : SP_ERR_OUT_OF_MEMORY;
    /* the call paths, for percentiles (a file whose calls do not nest keeps the pooled ones) */
    sp_table_rows paths = {0};
    int have_paths = st == SP_OK && sp_metric_needs_events(o->metric) &&
                     sp_table_rows_build(r, &o->filter, "start", NULL, &paths, NULL) == SP_OK;
    if (st == SP_OK) st = fill(r, o, regions, n, summary, have_paths ? &paths : NULL, out, err);
    if (have_paths) sp_table_rows_free(&paths);
    sp_summary_rows_free(summary);
    sp_region_list_free(regions);
    if (st != SP_OK) cmp_entries_free(out);
    return st;
}
