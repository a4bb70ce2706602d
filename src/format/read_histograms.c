/* Our extension /scope_profiler_c/histograms (docs/format.md): one duration
 * histogram per (rank, thread, call path), checked against the index. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "format/read_internal.h"

#define HISTS "/scope_profiler_c/histograms"
#define H     HISTS "/"

enum { C_RANK, C_THREAD, C_REGION, C_PARENT, C_MIN, C_MAX, C_OFFSET, C_COUNT, NUM_COLS };
static const char *const columns[NUM_COLS] = {H "ranks",         H "threads",     H "region_ids",
                                              H "parents",       H "minimums",    H "maximums",
                                              H "entry_offsets", H "entry_counts"};

typedef struct hist_columns {
    int64_t *col[NUM_COLS];
    size_t n;
    int64_t *totals; /* optional: NULL in files written before it */
    double *m2s;     /* optional, as totals */
    int64_t *forks;  /* optional, as totals */
    int64_t *buckets, *counts;
    size_t entries;
} hist_columns;

static void columns_free(hist_columns *c) {
    for (int k = 0; k < NUM_COLS; k++)
        free(c->col[k]);
    free(c->totals);
    free(c->m2s);
    free(c->forks);
    free(c->buckets);
    free(c->counts);
}

static sp_status check_layout(sp_rd *rd) {
    hid_t g = H5Gopen2(rd->file, HISTS, H5P_DEFAULT);
    if (g < 0) return sp_rd_damaged(rd, "cannot open %s", HISTS);
    int64_t version = 0, bits = 0, buckets = 0;
    int rv = sp_rd_attr_int64(g, "extension_version", &version);
    int rb = sp_rd_attr_int64(g, "sub_bucket_bits", &bits);
    int rn = sp_rd_attr_int64(g, "num_buckets", &buckets);
    H5Gclose(g);
    if (rv != 1 || rb != 1 || rn != 1)
        return sp_rd_damaged(rd,
                             "%s lacks its integer attributes extension_version, "
                             "sub_bucket_bits and num_buckets",
                             HISTS);
    if (version != 1)
        return sp_error_set(rd->err, SP_ERR_SCHEMA_TOO_NEW,
                            "%s: %s has extension_version %" PRId64
                            "; this version reads version 1 (upgrade scope-profiler)",
                            rd->path, HISTS, version);
    if (bits != SP_HIST_SUB_BITS || buckets != SP_HIST_NUM_BUCKETS)
        return sp_rd_damaged(rd,
                             "%s has %" PRId64 " sub-bucket bits and %" PRId64
                             " buckets; the layout has %d and %u",
                             HISTS, bits, buckets, SP_HIST_SUB_BITS, SP_HIST_NUM_BUCKETS);
    return SP_OK;
}

static sp_status read_columns(sp_rd *rd, hist_columns *c) {
    sp_status st = SP_OK;
    for (int k = 0; !st && k < NUM_COLS; k++) {
        size_t n = 0;
        st = sp_rd_int64_column(rd, columns[k], &c->col[k], &n);
        if (!st && k == 0) c->n = n;
        if (!st && k > 0) st = sp_rd_same_length(rd, columns[k], n, columns[0], c->n);
    }
    size_t n2 = 0;
    if (!st && sp_rd_kind_of(rd->file, H "totals") != SP_RD_ABSENT) {
        st = sp_rd_int64_column(rd, H "totals", &c->totals, &n2);
        if (!st) st = sp_rd_same_length(rd, H "totals", n2, columns[0], c->n);
    }
    if (!st && sp_rd_kind_of(rd->file, H "squared_deviations") != SP_RD_ABSENT) {
        st = sp_rd_float64_column(rd, H "squared_deviations", &c->m2s, &n2);
        if (!st) st = sp_rd_same_length(rd, H "squared_deviations", n2, columns[0], c->n);
    }
    if (!st && sp_rd_kind_of(rd->file, H "fork_parents") != SP_RD_ABSENT) {
        st = sp_rd_int64_column(rd, H "fork_parents", &c->forks, &n2);
        if (!st) st = sp_rd_same_length(rd, H "fork_parents", n2, columns[0], c->n);
    }
    if (!st) st = sp_rd_int64_column(rd, H "buckets", &c->buckets, &c->entries);
    if (!st) st = sp_rd_int64_column(rd, H "counts", &c->counts, &n2);
    if (!st) st = sp_rd_same_length(rd, H "counts", n2, H "buckets", c->entries);
    return st;
}

/* Row i's identity, parent and entry slice. */
static sp_status check_row(sp_rd *rd, const sp_model *m, const hist_columns *c, size_t i,
                           uint64_t expected_offset) {
    int64_t const *const *col = (int64_t const *const *)c->col;
    if (col[C_RANK][i] < 0 || col[C_RANK][i] > UINT32_MAX)
        return sp_rd_damaged(rd, "%s[%zu] is %" PRId64 ", not a rank", columns[C_RANK], i,
                             col[C_RANK][i]);
    if (col[C_THREAD][i] < -1)
        return sp_rd_damaged(rd, "%s[%zu] is %" PRId64 " (a thread index, or -1)",
                             columns[C_THREAD], i, col[C_THREAD][i]);
    if (col[C_REGION][i] < 0 || (uint64_t)col[C_REGION][i] >= m->num_regions)
        return sp_rd_damaged(rd, "%s[%zu] is %" PRId64 ", not a region id", columns[C_REGION], i,
                             col[C_REGION][i]);
    int64_t p = col[C_PARENT][i];
    if (p < -1 || p >= (int64_t)i)
        return sp_rd_damaged(rd, "%s[%zu] is %" PRId64 " (an earlier row, or -1)",
                             columns[C_PARENT], i, p);
    if (p >= 0 && (col[C_RANK][p] != col[C_RANK][i] || col[C_THREAD][p] != col[C_THREAD][i]))
        return sp_rd_damaged(rd, "%s[%zu] names a row of another rank or thread", columns[C_PARENT],
                             i);
    int64_t f = c->forks ? c->forks[i] : -1;
    if (f < -1 || f >= (int64_t)i ||
        (f >= 0 &&
         (p >= 0 || col[C_RANK][f] != col[C_RANK][i] || col[C_THREAD][f] == col[C_THREAD][i])))
        return sp_rd_damaged(rd,
                             "%s[%zu] is %" PRId64
                             " (for a top-level row, an earlier row of the same rank and another "
                             "thread, or -1)",
                             H "fork_parents", i, f);
    if (col[C_OFFSET][i] < 0 || (uint64_t)col[C_OFFSET][i] != expected_offset ||
        col[C_COUNT][i] <= 0 || (uint64_t)col[C_COUNT][i] > c->entries - expected_offset)
        return sp_rd_damaged(rd, "%s and %s of row %zu are not the running slices of %s",
                             columns[C_OFFSET], columns[C_COUNT], i, H "buckets");
    return SP_OK;
}

/* Row i's buckets into h: ascending, in range, positive counts, and its
 * minimum and maximum inside its first and last bucket. */
static sp_status fill_hist(sp_rd *rd, const hist_columns *c, size_t i, sp_hist *h) {
    uint64_t first = (uint64_t)c->col[C_OFFSET][i], n = (uint64_t)c->col[C_COUNT][i];
    int64_t lo_b = c->buckets[first], hi_b = c->buckets[first + n - 1];
    for (uint64_t e = first; e < first + n; e++) {
        int64_t b = c->buckets[e];
        if (b < 0 || b >= SP_HIST_NUM_BUCKETS || (e > first && b <= c->buckets[e - 1]))
            return sp_rd_damaged(rd,
                                 "%s[%" PRIu64 "] is %" PRId64
                                 ": bucket indices must ascend within a histogram "
                                 "and lie below %u",
                                 H "buckets", e, b, SP_HIST_NUM_BUCKETS);
        if (c->counts[e] <= 0 || (uint64_t)c->counts[e] > (uint64_t)INT64_MAX - h->count)
            return sp_rd_damaged(rd, "%s[%" PRIu64 "] is %" PRId64 " (a positive count)",
                                 H "counts", e, c->counts[e]);
        if (!h->counts) { /* one allocation for the whole window */
            h->counts = calloc((size_t)(hi_b - lo_b + 1), sizeof *h->counts);
            if (!h->counts) return sp_rd_no_memory(rd);
            h->lo = (uint32_t)lo_b;
            h->hi = (uint32_t)hi_b + 1;
        }
        h->counts[b - lo_b] = (uint64_t)c->counts[e];
        h->count += (uint64_t)c->counts[e];
    }
    h->min = c->col[C_MIN][i];
    h->max = c->col[C_MAX][i];
    if (h->min < 0 || h->max < h->min || sp_hist_bucket(h->min) != (uint32_t)lo_b ||
        sp_hist_bucket(h->max) != (uint32_t)hi_b)
        return sp_rd_damaged(rd,
                             "row %zu of %s: minimum %" PRId64 " and maximum %" PRId64
                             " do not lie in its first and last bucket",
                             i, HISTS, h->min, h->max);
    return SP_OK;
}

/* Row i's total: count x minimum <= total <= count x maximum, within 1/1024
 * (the minimum and maximum are in the clock rate the histograms were filled
 * with, the total in the run's final one, as the index). */
static sp_status check_total(sp_rd *rd, const sp_hist *h, int64_t total, size_t i) {
    typedef unsigned __int128 u128;
    u128 lo = (u128)h->count * (uint64_t)h->min, hi = (u128)h->count * (uint64_t)h->max;
    if (total < 0 || (u128)total * 1024 < lo * 1023 || (u128)total * 1024 > hi * 1025)
        return sp_rd_damaged(rd,
                             "row %zu of %s: total %" PRId64 " ns does not fit %" PRIu64
                             " calls of %" PRId64 " to %" PRId64 " ns",
                             i, HISTS, total, h->count, h->min, h->max);
    return SP_OK;
}

/* Row i's Σ (d - mean)²: at most count x (maximum - minimum)², within 1/512
 * (the rates, as for totals). */
static sp_status check_spread(sp_rd *rd, const sp_hist *h, double m2, size_t i) {
    long double span = (long double)h->max - (long double)h->min;
    if (!(m2 >= 0.0) || !isfinite(m2) ||
        (long double)m2 > (long double)h->count * span * span * (1.0L + 1.0L / 512))
        return sp_rd_damaged(rd,
                             "row %zu of %s: squared deviations %.17g ns² do not fit %" PRIu64
                             " calls of %" PRId64 " to %" PRId64 " ns",
                             i, HISTS, m2, h->count, h->min, h->max);
    return SP_OK;
}

static int compare_row_key(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Every call of every index row is in exactly one histogram of its rank and
 * region; with totals, those of its histograms add up to the row's total. */
static sp_status check_coverage(sp_rd *rd, const sp_model *m) {
    size_t n = m->num_rows;
    uint64_t *keys = malloc((n ? n : 1) * 3 * sizeof *keys); /* (key, count, total) */
    if (!keys) return sp_rd_no_memory(rd);
    for (size_t i = 0; i < n; i++) {
        keys[3 * i] = (uint64_t)m->rows[i].rank << 32 | m->rows[i].region;
        keys[3 * i + 1] = keys[3 * i + 2] = 0;
    }
    qsort(keys, n, 3 * sizeof *keys, compare_row_key);
    sp_status st = SP_OK;
    for (size_t i = 0; !st && i < m->num_hists; i++) {
        const sp_model_hist *h = &m->hists[i];
        uint64_t key = (uint64_t)h->rank << 32 | h->region;
        uint64_t *slot = bsearch(&key, keys, n, 3 * sizeof *keys, compare_row_key);
        if (!slot)
            st = sp_rd_damaged(rd,
                               "row %zu of %s is for rank %" PRIu32 " and region id %" PRIu32
                               ", which the index has no row for",
                               i, HISTS, h->rank, h->region);
        else {
            slot[1] += h->hist.count;
            uint64_t t = (uint64_t)h->total; /* saturates: the index's total is an int64 */
            slot[2] = slot[2] > (uint64_t)INT64_MAX - t ? UINT64_MAX : slot[2] + t;
        }
    }
    for (size_t i = 0; !st && i < n; i++) {
        const sp_model_row *r = &m->rows[i];
        uint64_t key = (uint64_t)r->rank << 32 | r->region;
        const uint64_t *slot = bsearch(&key, keys, n, 3 * sizeof *keys, compare_row_key);
        if (slot[1] != r->count)
            st = sp_rd_damaged(rd,
                               "the histograms of region \"%.200s\" on rank %" PRIu32
                               " hold %" PRIu64 " calls, the index %" PRIu64,
                               m->region_names[r->region], r->rank, slot[1], r->count);
        else if (m->hist_totals && slot[2] != (uint64_t)r->stats.total)
            st = sp_rd_damaged(rd,
                               "the totals of the histograms of region \"%.200s\" on rank %" PRIu32
                               " add up to %" PRIu64 " ns, the index has %" PRId64,
                               m->region_names[r->region], r->rank, slot[2], r->stats.total);
    }
    free(keys);
    return st;
}

sp_status sp_rd_histograms(sp_rd *rd, sp_model *m) {
    sp_rd_kind kind = sp_rd_kind_of(rd->file, HISTS);
    if (kind == SP_RD_ABSENT) return SP_OK;
    if (kind != SP_RD_GROUP)
        return sp_error_set(rd->err, SP_ERR_BAD_DATASET, "%s: %s is not a group", rd->path, HISTS);
    sp_status st = check_layout(rd);
    hist_columns c;
    memset(&c, 0, sizeof c);
    if (!st) st = read_columns(rd, &c);
    if (!st) {
        m->hists = calloc(c.n ? c.n : 1, sizeof *m->hists);
        if (!m->hists) st = sp_rd_no_memory(rd);
    }
    uint64_t offset = 0;
    for (size_t i = 0; !st && i < c.n; i++) {
        st = check_row(rd, m, &c, i, offset);
        if (st) break;
        sp_model_hist *h = &m->hists[m->num_hists++];
        h->rank = (uint32_t)c.col[C_RANK][i];
        h->thread = c.col[C_THREAD][i];
        h->region = (uint32_t)c.col[C_REGION][i];
        h->parent = c.col[C_PARENT][i];
        h->fork_parent = c.forks ? c.forks[i] : -1;
        st = fill_hist(rd, &c, i, &h->hist);
        if (!st && c.totals) st = check_total(rd, &h->hist, c.totals[i], i);
        if (!st && c.totals) h->total = c.totals[i];
        if (!st && c.m2s) st = check_spread(rd, &h->hist, c.m2s[i], i);
        if (!st && c.m2s) h->m2 = c.m2s[i];
        offset += (uint64_t)c.col[C_COUNT][i];
    }
    if (!st && offset != c.entries)
        st = sp_rd_damaged(rd, "%s has %zu entries but its rows use %" PRIu64, H "buckets",
                           c.entries, offset);
    m->hist_totals = !st && c.totals != NULL;
    m->hist_spread = !st && c.m2s != NULL;
    m->hist_forks = !st && c.forks != NULL;
    columns_free(&c);
    return st ? st : check_coverage(rd, m);
}
