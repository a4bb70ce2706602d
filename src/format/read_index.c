#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "format/read_internal.h"

#define INDEX     "/rank_region_index/"
#define REGION_ID INDEX "region_ids"

static int compare_strings(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static sp_status check_unique_names(sp_rd *rd, char **names, size_t n) {
    if (n < 2) return SP_OK;
    char **sorted = malloc(n * sizeof *sorted);
    if (!sorted) return sp_rd_no_memory(rd);
    memcpy(sorted, names, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, compare_strings);
    sp_status st = SP_OK;
    for (size_t i = 1; i < n && !st; i++)
        if (strcmp(sorted[i], sorted[i - 1]) == 0)
            st = sp_rd_damaged(
                rd, "the region name \"%.200s\" appears twice in /region_table/names", sorted[i]);
    free(sorted);
    return st;
}

sp_status sp_rd_region_table(sp_rd *rd, sp_model *m) {
    sp_status st =
        sp_rd_string_column(rd, "/region_table/names", &m->region_names, &m->num_regions);
    if (st) return st;
    if (m->num_regions > UINT32_MAX)
        return sp_rd_damaged(rd,
                             "/region_table/names has %zu entries, more than region ids "
                             "can index",
                             m->num_regions);
    return check_unique_names(rd, m->region_names, m->num_regions);
}

/* The integer columns of the index and where each value goes. */
typedef enum field {
    F_REGION,
    F_RANK,
    F_OFFSET,
    F_COUNT,
    F_LINE,
    F_EXCLUSIVE,
    F_TOTAL,
    F_MINIMUM,
    F_MAXIMUM
} field;

typedef struct int_column {
    const char *path;
    field field;
    int required;
    int64_t min, max; /* valid range */
    int64_t fallback; /* value when the column is absent */
} int_column;

static const int_column columnar_columns[] = {
    {INDEX "ranks", F_RANK, 1, 0, UINT32_MAX, 0},
    {INDEX "event_offsets", F_OFFSET, 1, 0, INT64_MAX, 0},
    {INDEX "event_counts", F_COUNT, 1, 0, INT64_MAX, 0},
    {INDEX "source_lines", F_LINE, 0, INT64_MIN, INT64_MAX, -1},
    {INDEX "exclusive_totals", F_EXCLUSIVE, 0, INT64_MIN, INT64_MAX, -1},
};

static const int_column aggregate_columns[] = {
    {INDEX "ranks", F_RANK, 1, 0, UINT32_MAX, 0},
    {INDEX "aggregate_counts", F_COUNT, 1, 0, INT64_MAX, 0},
    {INDEX "aggregate_totals", F_TOTAL, 1, 0, INT64_MAX, 0},
    {INDEX "aggregate_minimums", F_MINIMUM, 1, 0, INT64_MAX, 0},
    {INDEX "aggregate_maximums", F_MAXIMUM, 1, 0, INT64_MAX, 0},
    {INDEX "aggregate_exclusives", F_EXCLUSIVE, 0, INT64_MIN, INT64_MAX, -1},
    {INDEX "source_lines", F_LINE, 0, INT64_MIN, INT64_MAX, -1},
};

static void store(sp_model_row *r, field f, int64_t v) {
    switch (f) {
    case F_REGION:
        r->region = (uint32_t)v;
        break;
    case F_RANK:
        r->rank = (uint32_t)v;
        break;
    case F_OFFSET:
        r->offset = (uint64_t)v;
        break;
    case F_COUNT:
        r->count = (uint64_t)v;
        break;
    case F_LINE:
        r->source_line = v;
        break;
    case F_EXCLUSIVE:
        r->exclusive_total = v;
        break;
    case F_TOTAL:
        r->stats.total = v;
        break;
    case F_MINIMUM:
        r->stats.minimum = v;
        break;
    case F_MAXIMUM:
        r->stats.maximum = v;
        break;
    }
}

sp_status sp_rd_optional_rows(sp_rd *rd, const sp_model *m, const char *path, size_t n, int *use) {
    *use = 1;
    if (n == m->num_rows) return SP_OK;
    /* The Python writer leaves the per-call columns empty in aggregate files. */
    if (n == 0 && m->layout == SP_LAYOUT_AGGREGATE) {
        *use = 0;
        return SP_OK;
    }
    return sp_rd_same_length(rd, path, n, REGION_ID, m->num_rows);
}

static sp_status fill_int_column(sp_rd *rd, sp_model *m, const int_column *c,
                                 const int64_t *given) {
    int64_t *owned = NULL;
    const int64_t *values = given;
    size_t n = m->num_rows;
    sp_status st = SP_OK;
    if (!values && (c->required || sp_rd_kind_of(rd->file, c->path) != SP_RD_ABSENT)) {
        st = sp_rd_int64_column(rd, c->path, &owned, &n);
        int use = 1;
        if (!st && c->required) st = sp_rd_same_length(rd, c->path, n, REGION_ID, m->num_rows);
        if (!st && !c->required) st = sp_rd_optional_rows(rd, m, c->path, n, &use);
        values = use ? owned : NULL;
    }
    for (size_t i = 0; !st && i < m->num_rows; i++) {
        int64_t v = values ? values[i] : c->fallback;
        if (v < c->min || v > c->max)
            st = sp_rd_damaged(
                rd, "row %zu of %s holds %" PRId64 ", outside [%" PRId64 ", %" PRId64 "]", i,
                c->path, v, c->min, c->max);
        else
            store(&m->rows[i], c->field, v);
    }
    free(owned);
    return st;
}

static sp_status fill_string_column(sp_rd *rd, sp_model *m, const char *path, size_t offset,
                                    const char *fallback) {
    char **values = NULL;
    size_t n = m->num_rows;
    sp_status st = SP_OK;
    if (sp_rd_kind_of(rd->file, path) != SP_RD_ABSENT)
        st = sp_rd_shared_string_column(rd, m, path, &values, &n);
    for (size_t i = 0; !st && i < m->num_rows; i++) {
        char **slot = (char **)((char *)&m->rows[i] + offset);
        if (values) {
            *slot = values[i];
            values[i] = NULL;
        } else if (!(*slot = sp_strdup(fallback))) {
            st = sp_rd_no_memory(rd);
        }
    }
    sp_rd_free_strings(values, n);
    return st;
}

static sp_status fill_strings(sp_rd *rd, sp_model *m) {
    sp_status st =
        fill_string_column(rd, m, INDEX "source_files", offsetof(sp_model_row, source_file), "");
    if (!st)
        st = fill_string_column(rd, m, INDEX "source_texts", offsetof(sp_model_row, source_text),
                                "");
    if (!st) st = fill_string_column(rd, m, INDEX "tags", offsetof(sp_model_row, tags), "[]");
    if (!st)
        st = fill_string_column(rd, m, INDEX "event_metadata",
                                offsetof(sp_model_row, event_metadata), "[]");
    return st;
}

sp_status sp_rd_index(sp_rd *rd, sp_model *m) {
    int64_t *region_ids = NULL;
    size_t n = 0;
    sp_status st = sp_rd_int64_column(rd, REGION_ID, &region_ids, &n);
    if (!st) {
        m->rows = calloc(n ? n : 1, sizeof *m->rows);
        if (!m->rows)
            st = sp_rd_no_memory(rd);
        else
            m->num_rows = n;
    }
    static const int_column region = {REGION_ID, F_REGION, 1, 0, UINT32_MAX, 0};
    if (!st) st = fill_int_column(rd, m, &region, region_ids);
    free(region_ids);
    int aggregate = m->layout == SP_LAYOUT_AGGREGATE;
    const int_column *cols = aggregate ? aggregate_columns : columnar_columns;
    size_t num_cols = aggregate ? sizeof aggregate_columns / sizeof *aggregate_columns
                                : sizeof columnar_columns / sizeof *columnar_columns;
    for (size_t i = 0; !st && i < num_cols; i++)
        st = fill_int_column(rd, m, &cols[i], NULL);
    return st ? st : fill_strings(rd, m);
}

static int compare_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

sp_status sp_rd_check_unique_rows(sp_rd *rd, const sp_model *m) {
    if (m->num_rows < 2) return SP_OK;
    uint64_t *keys = malloc(m->num_rows * sizeof *keys);
    if (!keys) return sp_rd_no_memory(rd);
    int ascending = 1; /* as writers order them: rank by rank, regions in id order */
    for (size_t i = 0; i < m->num_rows; i++) {
        keys[i] = (uint64_t)m->rows[i].rank << 32 | m->rows[i].region;
        if (i && keys[i] <= keys[i - 1]) ascending = 0;
    }
    if (!ascending) qsort(keys, m->num_rows, sizeof *keys, compare_u64);
    sp_status st = SP_OK;
    for (size_t i = 1; i < m->num_rows && !st; i++)
        if (keys[i] == keys[i - 1])
            st = sp_rd_damaged(
                rd, "/rank_region_index has two rows for rank %" PRIu64 " and region id %" PRIu64,
                keys[i] >> 32, keys[i] & UINT32_MAX);
    free(keys);
    return st;
}

void sp_rd_fill_missing_stats(sp_model *m) {
    for (size_t i = 0; i < m->num_rows; i++) {
        sp_model_row *r = &m->rows[i];
        if (r->has_stats || r->count == 0) continue;
        if (m->layout == SP_LAYOUT_COLUMNAR) {
            sp_row_stats_compute(&r->stats, m->starts + r->offset, m->durations + r->offset,
                                 r->count);
        } else {
            /* Aggregate rows keep count, total, minimum and maximum only; the
             * spread of single calls is unknown, hence NaN rather than 0. */
            r->stats.mean = (double)r->stats.total / (double)r->count;
            r->stats.m2 = NAN;
        }
        r->has_stats = 1;
    }
}
