/* Region: one region on one rank, every value from its int64 ns calls (§3.1). */
#include <math.h>
#include <stdlib.h>

#include "analysis/internal.h"
#include "common/error.h"
#include "analysis/exclusive.h"
#include "analysis/histograms.h"
#include "analysis/pool.h"
#include "analysis/unavailable.h"
#include "model/event_window.h"

static const sp_model_row *model_row(const sp_rank_region *rr) {
    return &sp_rr_owner(rr)->m.rows[rr->row];
}

static const sp_row_info *info(const sp_rank_region *rr) {
    return &sp_rr_owner(rr)->rows[rr->row];
}

uint32_t sp_rank_region_rank(const sp_rank_region *rr) {
    return model_row(rr)->rank;
}

const char *sp_rank_region_name(const sp_rank_region *rr) {
    const sp_results *r = sp_rr_owner(rr);
    return r->m.region_names[model_row(rr)->region]; /* the row's, not the MPI region's */
}

uint64_t sp_rank_region_num_calls(const sp_rank_region *rr) {
    return model_row(rr)->count;
}

const int64_t *sp_rank_region_start_times_ns(const sp_rank_region *rr) {
    return sp_columnar(sp_rr_owner(rr)) ? sp_rr_owner(rr)->m.starts + model_row(rr)->offset : NULL;
}

const int64_t *sp_rank_region_durations_ns(const sp_rank_region *rr) {
    return sp_columnar(sp_rr_owner(rr)) ? sp_rr_owner(rr)->m.durations + model_row(rr)->offset
                                        : NULL;
}

sp_status sp_rank_region_calls_ns(const sp_rank_region *rr, sp_event_window *w,
                                  const int64_t **starts, const int64_t **durations,
                                  sp_error *err) {
    *starts = *durations = NULL;
    if (!sp_columnar(sp_rr_owner(rr))) return SP_ERR_UNAVAILABLE;
    sp_status st = sp_model_events(&sp_rr_owner(rr)->m, rr->row, rr->row + 1, w, err);
    if (st != SP_OK) return st;
    uint64_t at = model_row(rr)->offset - w->first;
    *starts = w->starts + at;
    *durations = w->durations + at;
    return SP_OK;
}

static sp_status per_call(const sp_rank_region *rr, double *out, size_t capacity, int what) {
    const sp_model *m = &sp_rr_owner(rr)->m;
    const sp_model_row *row = model_row(rr);
    if (!sp_columnar(sp_rr_owner(rr))) return SP_ERR_UNAVAILABLE;
    for (uint64_t i = 0; i < row->count && i < capacity; i++) {
        int64_t s = m->starts[row->offset + i], d = m->durations[row->offset + i];
        out[i] = sp_seconds(what == 0 ? d : what == 1 ? s : sp_end_ns(s, d));
    }
    return SP_OK;
}

sp_status sp_rank_region_durations(const sp_rank_region *rr, double *out, size_t capacity) {
    return per_call(rr, out, capacity, 0);
}

sp_status sp_rank_region_start_times(const sp_rank_region *rr, double *out, size_t capacity) {
    return per_call(rr, out, capacity, 1);
}

sp_status sp_rank_region_end_times(const sp_rank_region *rr, double *out, size_t capacity) {
    return per_call(rr, out, capacity, 2);
}

double sp_rank_region_total_duration(const sp_rank_region *rr) {
    return sp_seconds(info(rr)->total_ns);
}

double sp_rank_region_average_duration(const sp_rank_region *rr) {
    uint64_t n = model_row(rr)->count;
    if (n == 0) return 0.0;
    if (!sp_columnar(sp_rr_owner(rr))) return sp_rank_region_total_duration(rr) / (double)n;
    return (double)info(rr)->total_ns / (double)n / SP_NS_PER_SECOND;
}

double sp_rank_region_min_duration(const sp_rank_region *rr) {
    return sp_seconds(info(rr)->min_ns);
}

double sp_rank_region_max_duration(const sp_rank_region *rr) {
    return sp_seconds(info(rr)->max_ns);
}

double sp_rank_region_first_duration(const sp_rank_region *rr) {
    const sp_model_row *row = model_row(rr);
    if (row->count == 0) return 0.0;
    return sp_seconds(sp_columnar(sp_rr_owner(rr)) ? sp_rr_owner(rr)->m.durations[row->offset]
                                                   : row->stats.first);
}

double sp_rank_region_last_duration(const sp_rank_region *rr) {
    const sp_model_row *row = model_row(rr);
    if (row->count == 0) return 0.0;
    return sp_seconds(sp_columnar(sp_rr_owner(rr))
                          ? sp_rr_owner(rr)->m.durations[row->offset + row->count - 1]
                          : row->stats.last);
}

double sp_rank_region_std_duration(const sp_rank_region *rr) {
    const sp_model_row *row = model_row(rr);
    double n = (double)row->count;
    if (row->count == 0) return 0.0;
    if (!sp_columnar(sp_rr_owner(rr))) {
        double m2 = row->has_stats && row->stats.m2 > 0.0 ? row->stats.m2 : 0.0; /* NaN: unknown */
        return sqrt(m2 / n) / SP_NS_PER_SECOND;
    }
    double mean = (double)info(rr)->total_ns / n;
    return sqrt(sp_rows_numpy_sum(sp_rr_owner(rr), &rr->row, 1, 1.0, 1, mean) / n) /
           SP_NS_PER_SECOND;
}

double sp_rank_region_first_start_time(const sp_rank_region *rr) {
    return model_row(rr)->count ? sp_seconds(info(rr)->first_start_ns) : 0.0;
}

double sp_rank_region_last_end_time(const sp_rank_region *rr) {
    return model_row(rr)->count ? sp_seconds(info(rr)->last_end_ns) : 0.0;
}

double sp_rank_region_exclusive_duration(const sp_rank_region *rr, sp_error *err) {
    int64_t ns;
    if (sp_row_exclusive_ns(sp_rr_owner(rr), rr->row, &ns, err) != SP_OK) return NAN;
    return sp_seconds(ns);
}

sp_status sp_rank_region_percentiles(const sp_rank_region *rr, const double *qs, size_t nq,
                                     double *out, sp_error *err) {
    const sp_model_row *row = model_row(rr);
    for (size_t i = 0; i < nq; i++) {
        if (!(qs[i] >= 0.0 && qs[i] <= 100.0))
            return sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "percentile %g is outside [0, 100]",
                                qs[i]);
        out[i] = 0.0;
    }
    if (!sp_columnar(sp_rr_owner(rr)) && !sp_has_histograms(sp_rr_owner(rr)))
        return sp_unavailable(sp_rr_owner(rr), "percentiles", err);
    if (row->count == 0) return SP_OK;
    for (size_t done = 0; done < nq; done += 8) { /* at most 8 per selection */
        size_t k = nq - done < 8 ? nq - done : 8;
        if (sp_rows_percentiles(sp_rr_owner(rr), &rr->row, 1, qs + done, k, 1.0, out + done) !=
            SP_OK)
            return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    }
    for (size_t i = 0; i < nq; i++)
        out[i] /= SP_NS_PER_SECOND;
    return SP_OK;
}

double sp_rank_region_percentile(const sp_rank_region *rr, double q, sp_error *err) {
    double out;
    return sp_rank_region_percentiles(rr, &q, 1, &out, err) == SP_OK ? out : NAN;
}

sp_status sp_rank_region_get_summary(const sp_rank_region *rr, sp_summary *out, sp_error *err) {
    out->num_calls = sp_rank_region_num_calls(rr);
    out->total_duration = out->inclusive_duration = sp_rank_region_total_duration(rr);
    out->average_duration = sp_rank_region_average_duration(rr);
    out->min_duration = sp_rank_region_min_duration(rr);
    out->max_duration = sp_rank_region_max_duration(rr);
    out->first_duration = sp_rank_region_first_duration(rr);
    out->last_duration = sp_rank_region_last_duration(rr);
    out->std_duration = sp_rank_region_std_duration(rr);
    sp_error local = {SP_OK, ""};
    out->exclusive_duration = sp_rank_region_exclusive_duration(rr, &local);
    if (local.status != SP_OK && err) *err = local;
    return local.status;
}
