/* Building the results object around a model: derived per-row facts, the
 * MPIRegion entries (Python's per-region rank dicts) and the region order. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/internal.h"
#include "analysis/histograms.h"
#include "analysis/meta_value.h"
#include "analysis/results_build.h"
#include "model/event_window.h"

static void row_facts_events(const sp_model *m, const sp_model_row *row, sp_row_info *info) {
    const int64_t *s = m->starts + row->offset, *d = m->durations + row->offset;
    int64_t total = 0, lo = d[0], hi = d[0], first = s[0], last = sp_end_ns(s[0], d[0]);
    int sorted = 1;
    for (uint64_t i = 0; i < row->count; i++) {
        int64_t end = sp_end_ns(s[i], d[i]);
        total += d[i];
        if (d[i] < lo) lo = d[i];
        if (d[i] > hi) hi = d[i];
        if (s[i] < first) first = s[i];
        if (end > last) last = end;
        if (i + 1 < row->count &&
            (s[i + 1] < s[i] || (s[i + 1] == s[i] && sp_end_ns(s[i + 1], d[i + 1]) > end)))
            sorted = 0;
    }
    info->total_ns = total;
    info->min_ns = lo;
    info->max_ns = hi;
    info->first_start_ns = first;
    info->last_end_ns = last;
    info->tree_sorted = (uint8_t)sorted;
}

static void row_facts(const sp_model *m, const sp_model_row *row, sp_row_info *info) {
    memset(info, 0, sizeof *info);
    info->tree_sorted = 1;
    if (row->count == 0) return;
    if (m->layout == SP_LAYOUT_COLUMNAR && !row->events_skipped && !sp_model_streamed(m)) {
        row_facts_events(m, row, info);
    } else if (row->has_stats) {
        /* aggregate rows, rows of ranks not read, streamed rows (whose stored
         * statistics the reader matched against the calls) */
        if (sp_model_streamed(m)) info->tree_sorted = m->event_source->tree_sorted[row - m->rows];
        info->total_ns = row->stats.total;
        info->min_ns = row->stats.minimum;
        info->max_ns = row->stats.maximum;
        info->first_start_ns = row->stats.start_minimum;
        info->last_end_ns = row->stats.end_maximum;
    }
}

typedef struct row_key {
    uint32_t region, rank, row;
} row_key;

static int compare_row_key(const void *pa, const void *pb) {
    const row_key *a = pa, *b = pb;
    if (a->region != b->region) return a->region < b->region ? -1 : 1;
    if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
    return (a->row > b->row) - (a->row < b->row);
}

/* Fills slot[] (the row that occupies each first occurrence of a (region, rank)
 * pair, or UINT32_MAX) and the regions' by_rank arrays from the sorted keys. */
static void assign_entries(sp_results *r, const row_key *keys, uint32_t *slot) {
    const sp_model *m = &r->m;
    size_t i = 0;
    while (i < m->num_rows) {
        size_t j = i; /* keys[i..j]: one (region, rank) pair, rows ascending */
        while (j + 1 < m->num_rows && keys[j + 1].region == keys[i].region &&
               keys[j + 1].rank == keys[i].rank)
            r->rows[keys[j++].row].shadowed = 1;
        slot[keys[i].row] = keys[j].row;
        sp_mpi_region *reg = &r->regions[keys[i].region];
        reg->by_rank[reg->num_entries++] = keys[j].row;
        i = j + 1;
    }
}

/* keys[] = every row, ordered by (region, rank, row): a counting sort by
 * region (stable, so rows stay ascending), then a sort of each region's
 * rows by rank only where they are not in rank order already (files are
 * written rank by rank, so usually nowhere: no n log n pass over millions
 * of rows). per_region[g] = the number of rows of region g. */
static void order_rows(const sp_model *m, const size_t *per_region, size_t *next, row_key *keys) {
    size_t at = 0;
    for (size_t g = 0; g < m->num_regions; g++) {
        next[g] = at;
        at += per_region[g];
    }
    for (size_t i = 0; i < m->num_rows; i++) {
        const sp_model_row *row = &m->rows[i];
        keys[next[row->region]++] = (row_key){row->region, row->rank, (uint32_t)i};
    }
    for (size_t g = 0, first = 0; g < m->num_regions; first += per_region[g++]) {
        int sorted = 1;
        for (size_t k = first + 1; sorted && k < first + per_region[g]; k++)
            sorted = keys[k - 1].rank <= keys[k].rank;
        if (!sorted) qsort(keys + first, per_region[g], sizeof *keys, compare_row_key);
    }
}

static sp_status build_entries(sp_results *r) {
    const sp_model *m = &r->m;
    size_t nrows = m->num_rows;
    row_key *keys = malloc((nrows ? nrows : 1) * sizeof *keys);
    uint32_t *slot = malloc((nrows ? nrows : 1) * sizeof *slot);
    size_t *per_region = calloc(m->num_regions + 1, sizeof *per_region);
    size_t *next = malloc((m->num_regions + 1) * sizeof *next);
    sp_status st = keys && slot && per_region && next ? SP_OK : SP_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; st == SP_OK && i < nrows; i++) {
        per_region[m->rows[i].region]++;
        slot[i] = UINT32_MAX;
    }
    if (st == SP_OK) order_rows(m, per_region, next, keys);
    for (size_t g = 0; st == SP_OK && g < m->num_regions; g++) {
        size_t n = per_region[g] ? per_region[g] : 1;
        r->regions[g].by_rank = malloc(n * sizeof(uint32_t));
        r->regions[g].entries = malloc(n * sizeof(uint32_t));
        if (!r->regions[g].by_rank || !r->regions[g].entries) st = SP_ERR_OUT_OF_MEMORY;
    }
    if (st == SP_OK) assign_entries(r, keys, slot);
    for (size_t g = 0; st == SP_OK && g < m->num_regions; g++)
        r->regions[g].num_entries = 0;
    for (size_t i = 0; st == SP_OK && i < nrows; i++) {
        if (slot[i] == UINT32_MAX) continue;
        sp_mpi_region *reg = &r->regions[m->rows[i].region];
        reg->entries[reg->num_entries++] = slot[i];
    }
    free(next);
    free(per_region);
    free(keys);
    free(slot);
    return st;
}

static int compare_u32(const void *pa, const void *pb) {
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return (a > b) - (a < b);
}

/* Distinct ranks with data, and Python's num_ranks (§1.3, §1.4). */
static sp_status build_ranks(sp_results *r) {
    const sp_model *m = &r->m;
    r->data_ranks = malloc((m->num_rows ? m->num_rows : 1) * sizeof *r->data_ranks);
    if (!r->data_ranks) return SP_ERR_OUT_OF_MEMORY;
    int sorted = 1;
    for (size_t i = 0; i < m->num_rows; i++) {
        r->data_ranks[i] = m->rows[i].rank;
        if (i && r->data_ranks[i - 1] > r->data_ranks[i]) sorted = 0;
    }
    if (!sorted) qsort(r->data_ranks, m->num_rows, sizeof *r->data_ranks, compare_u32);
    size_t n = 0;
    for (size_t i = 0; i < m->num_rows; i++)
        if (n == 0 || r->data_ranks[n - 1] != r->data_ranks[i])
            r->data_ranks[n++] = r->data_ranks[i];
    r->num_data_ranks = n;
    if (m->schema == 1) {
        r->num_ranks = n;
        return SP_OK;
    }
    /* A rank's own file (the MPI library's NAME.rank<N>.h5 when the shared
     * file could not be written) names its mpi_rank and holds that rank alone. */
    const sp_meta_entry *own = sp_model_meta_find(m, "mpi_rank");
    if (own && own->type == SP_META_INT && n == 1) {
        r->num_ranks = 1;
        return SP_OK;
    }
    double mpi_size = 1.0;
    const sp_meta_entry *e = sp_model_meta_find(m, "mpi_size");
    if (e && (!sp_meta_to_double(e, &mpi_size) || !(mpi_size >= 1.0) || mpi_size > 1e9))
        mpi_size = 1.0;
    if (n == 0) { /* no calls on any rank: the run still had its mpi_size ranks */
        r->num_ranks = e ? (size_t)mpi_size : 0;
        return SP_OK;
    }
    size_t from_index = (size_t)r->data_ranks[n - 1] + 1;
    r->num_ranks = (size_t)mpi_size > from_index ? (size_t)mpi_size : from_index;
    return SP_OK;
}

static double region_order_key(const sp_results *r, const sp_mpi_region *reg) {
    if (reg->num_entries == 0) return INFINITY; /* Python fails here; we sort it last */
    double key = INFINITY;
    for (size_t i = 0; i < reg->num_entries; i++) {
        uint32_t row = reg->entries[i];
        double s = r->m.rows[row].count ? sp_seconds(r->rows[row].first_start_ns) : 0.0;
        if (s < key) key = s;
    }
    return key;
}

static int compare_order(const void *pa, const void *pb, void *ctx) {
    const sp_results *r = ctx;
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    double ka = r->regions[a].order_key, kb = r->regions[b].order_key;
    if (ka != kb) return ka < kb ? -1 : 1;
    return (a > b) - (a < b);
}

static sp_status build_order(sp_results *r) {
    size_t n = r->m.num_regions;
    r->start_order = malloc((n ? n : 1) * sizeof *r->start_order);
    if (!r->start_order) return SP_ERR_OUT_OF_MEMORY;
    for (size_t g = 0; g < n; g++) {
        r->regions[g].order_key = region_order_key(r, &r->regions[g]);
        r->start_order[g] = (uint32_t)g;
    }
    qsort_r(r->start_order, n, sizeof *r->start_order, compare_order, r);
    return SP_OK;
}

/* Earliest start and latest end over all calls (§2). */
static void build_time_span(sp_results *r) {
    for (size_t i = 0; i < r->m.num_rows; i++) {
        if (r->rows[i].shadowed || r->m.rows[i].count == 0) continue;
        const sp_row_info *info = &r->rows[i];
        if (!r->has_calls || info->first_start_ns < r->min_start_ns)
            r->min_start_ns = info->first_start_ns;
        if (!r->has_calls || info->last_end_ns > r->max_end_ns) r->max_end_ns = info->last_end_ns;
        r->has_calls = 1;
    }
    r->min_start = r->has_calls ? sp_seconds(r->min_start_ns) : 0.0;
    r->max_end = r->has_calls ? sp_seconds(r->max_end_ns) : 0.0;
}

sp_status sp_results_build(sp_results *r) {
    const sp_model *m = &r->m;
    r->rows = calloc(m->num_rows ? m->num_rows : 1, sizeof *r->rows);
    r->rank_regions = calloc(m->num_rows ? m->num_rows : 1, sizeof *r->rank_regions);
    r->regions = calloc(m->num_regions ? m->num_regions : 1, sizeof *r->regions);
    if (!r->rows || !r->rank_regions || !r->regions) return SP_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < m->num_rows; i++) {
        row_facts(m, &m->rows[i], &r->rows[i]);
        r->rank_regions[i] = (sp_rank_region){&r->regions[m->rows[i].region], (uint32_t)i};
    }
    for (size_t g = 0; g < m->num_regions; g++) {
        r->regions[g].owner = r;
        r->regions[g].index = (uint32_t)g;
    }
    sp_status st = build_entries(r);
    if (st == SP_OK) st = build_ranks(r);
    if (st == SP_OK) st = build_order(r);
    if (st == SP_OK) build_time_span(r);
    return st;
}

void sp_results_build_free(sp_results *r) {
    for (size_t g = 0; r->regions && g < r->m.num_regions; g++) {
        free(r->regions[g].entries);
        free(r->regions[g].by_rank);
    }
    free(r->regions);
    free(r->rows);
    free(r->rank_regions);
    free(r->data_ranks);
    free(r->start_order);
    free(r->row_exclusive);
    sp_row_histograms_free(r);
}
