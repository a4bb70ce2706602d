/* Statistics pooled over several rows of one region (MPIRegion, §3.2;
 * region_statistics.json, §6.1; fallback table rows, §5.2). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/internal.h"
#include "common/error.h"
#include "analysis/histograms.h"
#include "analysis/numpy_stats.h"
#include "analysis/pool.h"

/* The pooled calls as a virtual array of doubles for sp_numpy_sum_gen:
 * d / divisor, or (d / divisor - mean)^2 when squared. */
typedef struct pool_seq {
    const sp_results *r;
    const uint32_t *rows;
    size_t num_rows;
    double divisor, mean;
    int squared;
    size_t row, pos; /* where the next element comes from */
} pool_seq;

/* Row by row: each run of one row's durations converts in one loop. */
static void pool_fill(void *ctx, size_t first, size_t count, double *buf) {
    pool_seq *q = ctx;
    (void)first; /* blocks are requested in order */
    for (size_t k = 0; k < count;) {
        while (q->pos >= q->r->m.rows[q->rows[q->row]].count) {
            q->row++;
            q->pos = 0;
        }
        const sp_model_row *row = &q->r->m.rows[q->rows[q->row]];
        size_t take = (size_t)(row->count - q->pos);
        if (take > count - k) take = count - k;
        sp_fill_scaled(q->r->m.durations + row->offset + q->pos, take, q->divisor, q->squared,
                       q->mean, buf + k);
        k += take;
        q->pos += take;
    }
}

double sp_rows_numpy_sum(const sp_results *r, const uint32_t *rows, size_t n, double divisor,
                         int squared, double mean) {
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += r->m.rows[rows[i]].count;
    pool_seq q = {r, rows, n, divisor, mean, squared, 0, 0};
    return sp_numpy_sum_gen((size_t)total, pool_fill, &q);
}

/* first/last duration (§3.2): from the entry with the earliest first start and
 * the one with the latest end, the first such entry on ties. */
static void pool_first_last(const sp_results *r, const uint32_t *rows, size_t n, sp_pool *out) {
    int have = 0;
    for (size_t i = 0; i < n; i++) {
        const sp_model_row *row = &r->m.rows[rows[i]];
        if (row->count == 0) continue;
        double fs = sp_seconds(r->rows[rows[i]].first_start_ns);
        double le = sp_seconds(r->rows[rows[i]].last_end_ns);
        int64_t first = sp_columnar(r) ? r->m.durations[row->offset] : row->stats.first;
        int64_t last =
            sp_columnar(r) ? r->m.durations[row->offset + row->count - 1] : row->stats.last;
        if (!have || fs < out->first_start) {
            out->first_start = fs;
            out->first = sp_seconds(first);
        }
        if (!have || le > out->last_end) {
            out->last_end = le;
            out->last = sp_seconds(last);
        }
        have = 1;
    }
}

/* rank_imbalance (§3.2): max/mean of the positive per-entry totals. */
static void pool_imbalance(const sp_results *r, const uint32_t *rows, size_t n, sp_pool *out) {
    double stack_totals[64];
    double *t = n <= 64 ? stack_totals : malloc(n * sizeof *t);
    size_t k = 0;
    double max = 0.0;
    for (size_t i = 0; t && i < n; i++) {
        double total = sp_seconds(r->rows[rows[i]].total_ns);
        if (!(total > 0.0)) continue;
        if (k == 0 || total > max) max = total;
        t[k++] = total;
    }
    out->imbalance = k < 2 ? 0.0 : max / (sp_numpy_sum(t, k) / (double)k);
    out->imbalance_pct = out->imbalance != 0.0 ? (out->imbalance - 1.0) * 100.0 : 0.0;
    if (!t) out->imbalance = out->imbalance_pct = NAN; /* out of memory: unknown */
    if (t != stack_totals) free(t);
}

sp_status sp_rows_percentiles(const sp_results *r, const uint32_t *rows, size_t n, const double *qs,
                              size_t nq, double divisor, double *out) {
    if (!sp_columnar(r)) return sp_rows_hist_percentiles(r, rows, n, qs, nq, divisor, out);
    sp_span stack_spans[16] = {{NULL, 0}};
    sp_span *spans = n <= 16 ? stack_spans : malloc(n * sizeof *spans);
    if (!spans) return SP_ERR_OUT_OF_MEMORY;
    size_t k = 0;
    int64_t lo = 0, hi = 0;
    for (size_t i = 0; i < n; i++) {
        const sp_model_row *row = &r->m.rows[rows[i]];
        const sp_row_info *info = &r->rows[rows[i]];
        if (row->count == 0) continue;
        if (k == 0 || info->min_ns < lo) lo = info->min_ns;
        if (k == 0 || info->max_ns > hi) hi = info->max_ns;
        spans[k++] = (sp_span){r->m.durations + row->offset, (size_t)row->count};
    }
    sp_status st = sp_percentiles_spans(spans, k, lo, hi, qs, nq, divisor, out);
    if (spans != stack_spans) free(spans);
    return st;
}

static sp_status pool_percentiles(const sp_results *r, const uint32_t *rows, size_t n, sp_pool *out,
                                  sp_error *err) {
    static const double qs[3] = {50.0, 95.0, 99.0};
    double p[3];
    if (sp_rows_percentiles(r, rows, n, qs, 3, SP_NS_PER_SECOND, p) != SP_OK)
        return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    out->p50 = p[0];
    out->p95 = p[1];
    out->p99 = p[2];
    out->has_percentiles = 1;
    out->percentile_error = sp_columnar(r) ? 0.0 : SP_HIST_RELATIVE_ERROR;
    return SP_OK;
}

/* Aggregate layout: combine the rows' stored statistics (parallel variance). */
static void pool_aggregate(const sp_results *r, const uint32_t *rows, size_t n, sp_pool *out) {
    double mean = 0.0, m2 = 0.0;
    for (size_t i = 0; i < n; i++) {
        const sp_model_row *row = &r->m.rows[rows[i]];
        if (row->count && row->has_stats) mean += (double)row->count * row->stats.mean;
    }
    mean /= (double)out->calls;
    for (size_t i = 0; i < n; i++) {
        const sp_model_row *row = &r->m.rows[rows[i]];
        if (!row->count || !row->has_stats) continue;
        double dev = row->stats.mean - mean;
        m2 += (isnan(row->stats.m2) ? 0.0 : row->stats.m2) + (double)row->count * dev * dev;
    }
    out->total_psum = out->total_lr;
    out->average = out->total_lr / (double)out->calls;
    out->std = sqrt(m2 > 0.0 ? m2 / (double)out->calls : 0.0) / SP_NS_PER_SECOND;
}

static void pool_columnar(const sp_results *r, const uint32_t *rows, size_t n, sp_pool *out) {
    double calls = (double)out->calls;
    out->total_psum = sp_rows_numpy_sum(r, rows, n, SP_NS_PER_SECOND, 0, 0.0);
    out->average = out->total_psum / calls;
    double ss = sp_rows_numpy_sum(r, rows, n, SP_NS_PER_SECOND, 1, out->average);
    out->std = sqrt(ss / calls);
}

sp_status sp_pool_rows(const sp_results *r, const uint32_t *rows, size_t n, int what, sp_pool *out,
                       sp_error *err) {
    memset(out, 0, sizeof *out);
    out->num_entries = n;
    out->p50 = out->p95 = out->p99 = NAN;
    int have = 0;
    for (size_t i = 0; i < n; i++) {
        const sp_row_info *info = &r->rows[rows[i]];
        uint64_t count = r->m.rows[rows[i]].count;
        out->calls += count;
        out->total_lr += sp_seconds(info->total_ns);
        if (!count) continue;
        if (!have || info->min_ns < out->min_ns) out->min_ns = info->min_ns;
        if (!have || info->max_ns > out->max_ns) out->max_ns = info->max_ns;
        have = 1;
    }
    out->has_timing = out->calls > 0;
    pool_imbalance(r, rows, n, out);
    if (!out->has_timing) return SP_OK;
    pool_first_last(r, rows, n, out);
    if (!sp_columnar(r)) {
        pool_aggregate(r, rows, n, out);
        if ((what & SP_POOL_PERCENTILES) && sp_has_histograms(r))
            return pool_percentiles(r, rows, n, out, err);
        return SP_OK;
    }
    pool_columnar(r, rows, n, out);
    return (what & SP_POOL_PERCENTILES) ? pool_percentiles(r, rows, n, out, err) : SP_OK;
}
