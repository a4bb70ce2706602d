/* MPIRegion: one region pooled over every rank that recorded it (§3.2). */
#include <math.h>
#include <stdlib.h>

#include "analysis/internal.h"
#include "common/py_repr.h"
#include "common/utf8.h"
#include "common/text_buffer.h"
#include "common/error.h"
#include "analysis/exclusive.h"
#include "analysis/histograms.h"
#include "analysis/mpi_region.h"
#include "analysis/pool.h"
#include "analysis/region_entry.h"
#include "analysis/unavailable.h"

const sp_pool *sp_region_pooled(const sp_mpi_region *creg, sp_error *err) {
    sp_mpi_region *reg = (sp_mpi_region *)creg; /* lazily filled cache */
    if (reg->pooled_state == 1) return &reg->pooled;
    sp_status st = sp_pool_rows(reg->owner, reg->entries, reg->num_entries, SP_POOL_PERCENTILES,
                                &reg->pooled, err);
    if (st != SP_OK) return NULL;
    reg->pooled_state = 1;
    return &reg->pooled;
}

/* The pooled statistics, or NULL (out of memory: the accessors then answer NaN). */
static const sp_pool *pooled(const sp_mpi_region *reg) {
    return sp_region_pooled(reg, NULL);
}

const char *sp_mpi_region_name(const sp_mpi_region *reg) {
    return reg->owner->m.region_names[reg->index];
}

size_t sp_mpi_region_num_ranks(const sp_mpi_region *reg) {
    return reg->num_entries;
}

uint32_t sp_mpi_region_rank_id(const sp_mpi_region *reg, size_t index) {
    return index < reg->num_entries ? reg->owner->m.rows[reg->by_rank[index]].rank : UINT32_MAX;
}

uint64_t sp_mpi_region_num_calls(const sp_mpi_region *reg) {
    uint64_t n = 0;
    for (size_t i = 0; i < reg->num_entries; i++)
        n += reg->owner->m.rows[reg->entries[i]].count;
    return n;
}

double sp_mpi_region_total_duration(const sp_mpi_region *reg) {
    double total = 0.0; /* Python's left-to-right sum over the rank dict */
    for (size_t i = 0; i < reg->num_entries; i++)
        total += sp_seconds(reg->owner->rows[reg->entries[i]].total_ns);
    return total;
}

int64_t sp_mpi_region_total_duration_ns(const sp_mpi_region *reg) {
    int64_t total = 0;
    for (size_t i = 0; i < reg->num_entries; i++)
        total += reg->owner->rows[reg->entries[i]].total_ns;
    return total;
}

double sp_mpi_region_inclusive_duration(const sp_mpi_region *reg) {
    return sp_mpi_region_total_duration(reg);
}

double sp_mpi_region_average_duration(const sp_mpi_region *reg) {
    if (!sp_mpi_region_num_calls(reg)) return 0.0;
    return pooled(reg) ? pooled(reg)->average : NAN;
}

int64_t sp_mpi_region_min_duration_ns(const sp_mpi_region *reg) {
    int64_t v = 0;
    int have = 0;
    for (size_t i = 0; i < reg->num_entries; i++) {
        const sp_row_info *info = &reg->owner->rows[reg->entries[i]];
        if (reg->owner->m.rows[reg->entries[i]].count && (!have || info->min_ns < v)) {
            v = info->min_ns;
            have = 1;
        }
    }
    return v;
}

int64_t sp_mpi_region_max_duration_ns(const sp_mpi_region *reg) {
    int64_t v = 0;
    int have = 0;
    for (size_t i = 0; i < reg->num_entries; i++) {
        const sp_row_info *info = &reg->owner->rows[reg->entries[i]];
        if (reg->owner->m.rows[reg->entries[i]].count && (!have || info->max_ns > v)) {
            v = info->max_ns;
            have = 1;
        }
    }
    return v;
}

double sp_mpi_region_min_duration(const sp_mpi_region *reg) {
    return sp_seconds(sp_mpi_region_min_duration_ns(reg));
}

double sp_mpi_region_max_duration(const sp_mpi_region *reg) {
    return sp_seconds(sp_mpi_region_max_duration_ns(reg));
}

double sp_mpi_region_std_duration(const sp_mpi_region *reg) {
    if (!sp_mpi_region_num_calls(reg)) return 0.0;
    return pooled(reg) ? pooled(reg)->std : NAN;
}

double sp_mpi_region_first_duration(const sp_mpi_region *reg) {
    if (!sp_mpi_region_num_calls(reg)) return 0.0;
    return pooled(reg) ? pooled(reg)->first : NAN;
}

double sp_mpi_region_last_duration(const sp_mpi_region *reg) {
    if (!sp_mpi_region_num_calls(reg)) return 0.0;
    return pooled(reg) ? pooled(reg)->last : NAN;
}

double sp_mpi_region_first_start_time(const sp_mpi_region *reg) {
    if (!sp_mpi_region_num_calls(reg)) return 0.0;
    return pooled(reg) ? pooled(reg)->first_start : NAN;
}

double sp_mpi_region_last_end_time(const sp_mpi_region *reg) {
    if (!sp_mpi_region_num_calls(reg)) return 0.0;
    return pooled(reg) ? pooled(reg)->last_end : NAN;
}

double sp_mpi_region_imbalance(const sp_mpi_region *reg) {
    return pooled(reg) ? pooled(reg)->imbalance : NAN;
}

double sp_mpi_region_imbalance_pct(const sp_mpi_region *reg) {
    return pooled(reg) ? pooled(reg)->imbalance_pct : NAN;
}

double sp_mpi_region_exclusive_duration(const sp_mpi_region *reg, sp_error *err) {
    double total = 0.0;
    for (size_t i = 0; i < reg->num_entries; i++) {
        int64_t ns;
        if (sp_row_exclusive_ns(reg->owner, reg->entries[i], &ns, err) != SP_OK) return NAN;
        total += sp_seconds(ns);
    }
    return total;
}

double sp_mpi_region_percentile(const sp_mpi_region *reg, double q, sp_error *err) {
    const sp_results *r = reg->owner;
    if (!(q >= 0.0 && q <= 100.0)) {
        sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "percentile %g is outside [0, 100]", q);
        return NAN;
    }
    if (!sp_columnar(r) && !sp_has_histograms(r)) {
        sp_unavailable(r, "percentiles", err);
        return NAN;
    }
    if (sp_mpi_region_num_calls(reg) == 0) return 0.0;
    double out;
    if (sp_rows_percentiles(r, reg->entries, reg->num_entries, &q, 1, SP_NS_PER_SECOND, &out)) {
        sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        return NAN;
    }
    return out;
}

/* out[i] = value of the i-th rank in ascending order. */
#define PER_RANK(reg, out, capacity, expr)                                                         \
    for (size_t i = 0; i < (reg)->num_entries && i < (capacity); i++) {                            \
        const sp_rank_region *rr = &(reg)->owner->rank_regions[(reg)->by_rank[i]];                 \
        (out)[i] = (expr);                                                                         \
    }

size_t sp_mpi_region_num_calls_per_rank(const sp_mpi_region *reg, uint64_t *out, size_t capacity) {
    PER_RANK(reg, out, capacity, sp_rank_region_num_calls(rr));
    return reg->num_entries;
}

size_t sp_mpi_region_total_durations(const sp_mpi_region *reg, double *out, size_t capacity) {
    PER_RANK(reg, out, capacity, sp_rank_region_total_duration(rr));
    return reg->num_entries;
}

size_t sp_mpi_region_average_durations(const sp_mpi_region *reg, double *out, size_t capacity) {
    PER_RANK(reg, out, capacity, sp_rank_region_average_duration(rr));
    return reg->num_entries;
}

size_t sp_mpi_region_min_durations(const sp_mpi_region *reg, double *out, size_t capacity) {
    PER_RANK(reg, out, capacity, sp_rank_region_min_duration(rr));
    return reg->num_entries;
}

size_t sp_mpi_region_max_durations(const sp_mpi_region *reg, double *out, size_t capacity) {
    PER_RANK(reg, out, capacity, sp_rank_region_max_duration(rr));
    return reg->num_entries;
}

void sp_pool_summary(const sp_pool *p, sp_summary *out) {
    out->num_calls = p->calls;
    out->total_duration = out->inclusive_duration = p->total_lr;
    out->average_duration = p->has_timing ? p->average : 0.0;
    out->min_duration = sp_seconds(p->min_ns);
    out->max_duration = sp_seconds(p->max_ns);
    out->first_duration = p->has_timing ? p->first : 0.0;
    out->last_duration = p->has_timing ? p->last : 0.0;
    out->std_duration = p->has_timing ? p->std : 0.0;
    out->exclusive_duration = 0.0;
}

sp_status sp_mpi_region_get_summary(const sp_mpi_region *reg, sp_summary *out, sp_error *err) {
    sp_error local = {SP_OK, ""};
    const sp_pool *p = sp_region_pooled(reg, &local);
    if (!p) {
        if (err) *err = local;
        return local.status;
    }
    sp_pool_summary(p, out);
    out->exclusive_duration = sp_mpi_region_exclusive_duration(reg, &local);
    if (local.status != SP_OK && err) *err = local;
    return local.status;
}

const sp_rank_region *sp_mpi_region_rank(const sp_mpi_region *reg, uint32_t rank, sp_error *err) {
    int found;
    uint32_t i = sp_region_entry_index(reg, rank, &found);
    if (found) return &reg->owner->rank_regions[reg->by_rank[i]];
    sp_textbuf b = {0};
    uint32_t *ranks = malloc((reg->num_entries ? reg->num_entries : 1) * sizeof *ranks);
    sp_textbuf_append(&b, "Region ");
    sp_py_str_repr(&b, sp_mpi_region_name(reg));
    sp_textbuf_printf(&b, " has no data for rank %u. Available ranks: ", (unsigned)rank);
    for (size_t k = 0; ranks && k < reg->num_entries; k++)
        ranks[k] = sp_mpi_region_rank_id(reg, k);
    if (ranks) sp_py_u32_list_repr(&b, ranks, reg->num_entries);
    const char *text = sp_textbuf_str(&b);
    sp_error_set(err, SP_ERR_NO_SUCH_RANK, "%s", text && ranks ? text : "no data for that rank");
    free(ranks);
    sp_textbuf_free(&b);
    return NULL;
}

int sp_mpi_region_describe(const sp_mpi_region *reg, char *buf, size_t size) {
    sp_textbuf b = {0};
    sp_textbuf_append(&b, "<MPIRegion ");
    sp_py_str_repr(&b, sp_mpi_region_name(reg));
    sp_textbuf_printf(&b, ": %llu calls on %zu rank(s), total %.6g s, avg %.6g s>",
                      (unsigned long long)sp_mpi_region_num_calls(reg), reg->num_entries,
                      sp_mpi_region_total_duration(reg), sp_mpi_region_average_duration(reg));
    const char *text = sp_textbuf_str(&b);
    int needed = text ? (int)b.len : -1;
    if (text && size) snprintf(buf, size, "%s", text);
    sp_textbuf_free(&b);
    return needed;
}
