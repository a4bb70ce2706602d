/* summary() and to_dataframe(per_rank=True) rows (§2.3, §2.4). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/filter.h"
#include "analysis/regions.h"
#include "common/error.h"
#include "analysis/exclusive.h"
#include "analysis/histograms.h"
#include "analysis/mpi_region.h"
#include "analysis/pool.h"

static const double summary_qs[3] = {50.0, 95.0, 99.0};

/* The region's entries on the selected ranks, in rank-dict order. */
static size_t selected_entries(const sp_mpi_region *reg, const sp_compiled_filter *f,
                               uint32_t *out) {
    size_t n = 0;
    for (size_t i = 0; i < reg->num_entries; i++)
        if (sp_filter_has_rank(f, reg->owner->m.rows[reg->entries[i]].rank))
            out[n++] = reg->entries[i];
    return n;
}

/* Tags of the lowest selected rank (§3.2), "[]" when there is none. */
static const char *lowest_rank_tags(const sp_results *r, const uint32_t *rows, size_t n) {
    const sp_model_row *best = NULL;
    for (size_t i = 0; i < n; i++)
        if (!best || r->m.rows[rows[i]].rank < best->rank) best = &r->m.rows[rows[i]];
    return best && best->tags ? best->tags : "[]";
}

static void fill_pooled_row(const sp_pool *p, sp_summary_row *row) {
    sp_summary s;
    sp_pool_summary(p, &s);
    row->num_ranks = p->num_entries;
    row->num_calls = s.num_calls;
    row->total_duration = s.total_duration;
    row->inclusive_duration = s.inclusive_duration;
    row->average_duration = s.average_duration;
    row->min_duration = s.min_duration;
    row->max_duration = s.max_duration;
    row->first_duration = s.first_duration;
    row->last_duration = s.last_duration;
    row->std_duration = s.std_duration;
    row->has_percentiles = p->has_percentiles || !p->has_timing;
    row->percentile_error = p->percentile_error;
    row->p50_duration = p->has_timing ? p->p50 : 0.0;
    row->p95_duration = p->has_timing ? p->p95 : 0.0;
    row->p99_duration = p->has_timing ? p->p99 : 0.0;
    row->rank_imbalance = p->imbalance;
    row->rank_imbalance_pct = p->imbalance_pct;
}

/* Aggregate files without stored exclusive totals: the row goes without one. */
static sp_status no_exclusive(sp_summary_row *row) {
    row->exclusive_duration = NAN;
    row->has_exclusive = 0;
    return SP_OK;
}

/* Left-to-right sum of the rows' exclusive times (MPIRegion.exclusive_duration). */
static sp_status sum_exclusive(const sp_results *r, const uint32_t *rows, size_t n,
                               sp_summary_row *row, sp_error *err) {
    row->exclusive_duration = 0.0;
    row->has_exclusive = 1;
    for (size_t i = 0; i < n; i++) {
        int64_t ns;
        sp_error local;
        sp_status st = sp_row_exclusive_ns(r, rows[i], &ns, &local);
        if (st == SP_ERR_UNAVAILABLE) return no_exclusive(row);
        if (st != SP_OK) {
            if (err) *err = local;
            return st;
        }
        row->exclusive_duration += sp_seconds(ns);
    }
    return SP_OK;
}

static sp_status pooled_row(const sp_mpi_region *reg, const sp_compiled_filter *f,
                            uint32_t *scratch, sp_summary_row *row, sp_error *err) {
    const sp_results *r = reg->owner;
    size_t nranks;
    const uint32_t *ranks = sp_filter_ranks(f, &nranks);
    size_t n = selected_entries(reg, f, scratch);
    sp_pool local;
    const sp_pool *p = &local;
    sp_status st;
    if (ranks)
        st = sp_pool_rows(r, scratch, n, SP_POOL_PERCENTILES, &local, err);
    else
        st = (p = sp_region_pooled(reg, err)) ? SP_OK : SP_ERR_OUT_OF_MEMORY;
    if (st != SP_OK) return st;
    row->name = sp_mpi_region_name(reg);
    row->rank = -1;
    fill_pooled_row(p, row);
    row->tags = lowest_rank_tags(r, scratch, n);
    return sum_exclusive(r, scratch, n, row, err);
}

static sp_status rank_row(const sp_rank_region *rr, sp_summary_row *row, sp_error *err) {
    sp_summary s;
    sp_error local;
    sp_status st = sp_rank_region_get_summary(rr, &s, &local);
    if (st != SP_OK && st != SP_ERR_UNAVAILABLE) {
        if (err) *err = local;
        return st;
    }
    const sp_model_row *mr = &sp_rr_owner(rr)->m.rows[rr->row];
    *row = (sp_summary_row){.name = sp_rank_region_name(rr),
                            .rank = mr->rank,
                            .num_ranks = 1,
                            .num_calls = s.num_calls,
                            .total_duration = s.total_duration,
                            .inclusive_duration = s.inclusive_duration,
                            .exclusive_duration = s.exclusive_duration,
                            .average_duration = s.average_duration,
                            .min_duration = s.min_duration,
                            .max_duration = s.max_duration,
                            .first_duration = s.first_duration,
                            .last_duration = s.last_duration,
                            .std_duration = s.std_duration,
                            .tags = mr->tags ? mr->tags : "[]",
                            .has_exclusive = st == SP_OK};
    st = SP_OK;
    double p[3] = {NAN, NAN, NAN};
    row->has_percentiles = sp_columnar(sp_rr_owner(rr)) || sp_has_histograms(sp_rr_owner(rr));
    row->percentile_error = sp_results_percentile_error(sp_rr_owner(rr));
    if (row->has_percentiles) st = sp_rank_region_percentiles(rr, summary_qs, 3, p, err);
    if (st != SP_OK) return st;
    row->p50_duration = p[0];
    row->p95_duration = p[1];
    row->p99_duration = p[2];
    return SP_OK;
}

static sp_status rank_rows(const sp_mpi_region *reg, const sp_compiled_filter *f,
                           sp_summary_rows *out, sp_error *err) {
    for (size_t i = 0; i < reg->num_entries; i++) {
        const sp_rank_region *rr = &reg->owner->rank_regions[reg->by_rank[i]];
        if (!sp_filter_has_rank(f, sp_rank_region_rank(rr))) continue;
        sp_status st = rank_row(rr, &out->rows[out->count], err);
        if (st != SP_OK) return st;
        out->count++;
    }
    return SP_OK;
}

static size_t rows_needed(const sp_results *r, const uint32_t *regions, size_t n, int per_rank) {
    if (!per_rank) return n;
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += r->regions[regions[i]].num_entries;
    return total;
}

static sp_status build_rows(const sp_results *r, sp_compiled_filter *f, int per_rank,
                            sp_summary_rows *out, sp_error *err) {
    uint32_t *regions = NULL, *scratch = NULL;
    size_t n = 0;
    sp_status st = sp_select_regions(r, f, &regions, &n, err);
    if (st != SP_OK) return st;
    out->rows = calloc(rows_needed(r, regions, n, per_rank) + 1, sizeof *out->rows);
    scratch = malloc((r->m.num_rows + 1) * sizeof *scratch);
    if (!out->rows || !scratch) st = sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    for (size_t i = 0; st == SP_OK && i < n; i++) {
        const sp_mpi_region *reg = &r->regions[regions[i]];
        if (per_rank)
            st = rank_rows(reg, f, out, err);
        else if ((st = pooled_row(reg, f, scratch, &out->rows[out->count], err)) == SP_OK)
            out->count++;
    }
    free(regions);
    free(scratch);
    return st;
}

sp_summary_rows *sp_results_summary(const sp_results *r, const sp_filter *filter, int per_rank,
                                    sp_error *err) {
    sp_compiled_filter *f = sp_filter_compile(filter, err);
    if (!f) return NULL;
    sp_summary_rows *out = calloc(1, sizeof *out);
    sp_status st = out ? build_rows(r, f, per_rank, out, err)
                       : sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    sp_filter_free(f);
    if (st != SP_OK) {
        sp_summary_rows_free(out);
        return NULL;
    }
    return out;
}

void sp_summary_rows_free(sp_summary_rows *rows) {
    if (!rows) return;
    free(rows->rows);
    free(rows);
}
