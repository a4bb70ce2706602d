/* Run-wide times (§2): origin, span, start and finalize from the metadata. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/internal.h"
#include "analysis/meta_value.h"


/* metadata[key] / 1e9 as Python computes it, or NaN when absent or not a number. */
static double meta_seconds(const sp_results *r, const char *key) {
    const sp_meta_entry *e = sp_model_meta_find(&r->m, key);
    double v;
    if (!e || !sp_meta_to_double(e, &v)) return NAN;
    return v / SP_NS_PER_SECOND;
}

double sp_results_run_start_time(const sp_results *r) {
    return meta_seconds(r, "start_time_ns");
}

double sp_results_finalize_time(const sp_results *r) {
    return meta_seconds(r, "finalize_time_ns");
}

double sp_results_time_origin(const sp_results *r) {
    double start = sp_results_run_start_time(r);
    return isnan(start) ? r->min_start : start;
}

int64_t sp_results_time_origin_ns(const sp_results *r) {
    const sp_meta_entry *e = sp_model_meta_find(&r->m, "start_time_ns");
    double v;
    if (e && e->type == SP_META_INT) return e->i;
    if (e && sp_meta_to_double(e, &v) && fabs(v) < 9.2e18) return (int64_t)llround(v);
    return r->has_calls ? r->min_start_ns : 0;
}

double sp_results_minimum_start_time(const sp_results *r) {
    return r->min_start;
}

int64_t sp_results_minimum_start_time_ns(const sp_results *r) {
    return r->has_calls ? r->min_start_ns : 0;
}

double sp_results_maximum_end_time(const sp_results *r) {
    return r->max_end;
}

int64_t sp_results_maximum_end_time_ns(const sp_results *r) {
    return r->has_calls ? r->max_end_ns : 0;
}

double sp_results_time_span(const sp_results *r) {
    return r->has_calls ? r->max_end - r->min_start : 0.0;
}

double sp_results_startup_time(const sp_results *r) {
    return r->min_start - sp_results_time_origin(r);
}

double sp_results_total_time(const sp_results *r) {
    return sp_results_finalize_time(r) - sp_results_run_start_time(r); /* NaN if either is */
}
