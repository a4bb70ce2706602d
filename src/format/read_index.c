#include <inttypes.h>
#include <math.h>
#include <stddef.h>
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

static sp_status check_range(sp_rd *rd, const int_column *c, const int64_t *values, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (values[i] < c->min || values[i] > c->max)
            return sp_rd_damaged(
                rd, "row %zu of %s holds %" PRId64 ", outside [%" PRId64 ", %" PRId64 "]", i,
                c->path, values[i], c->min, c->max);
    return SP_OK;
}

/* One integer column's values (NULL: the column is absent, or an optional
 * column left empty), checked against its range. */
static sp_status load_int_column(sp_rd *rd, const sp_model *m, const int_column *c, int64_t **out) {
    *out = NULL;
    if (!c->required && sp_rd_kind_of(rd->file, c->path) == SP_RD_ABSENT) return SP_OK;
    size_t n = m->num_rows;
    int64_t *values = NULL;
    sp_status st = sp_rd_int64_column(rd, c->path, &values, &n);
    int use = 1;
    if (!st && c->required) st = sp_rd_same_length(rd, c->path, n, REGION_ID, m->num_rows);
    if (!st && !c->required) st = sp_rd_optional_rows(rd, m, c->path, n, &use);
    if (!st && use) st = check_range(rd, c, values, m->num_rows);
    if (st || !use) {
        free(values);
        values = NULL;
    }
    *out = values;
    return st;
}

/* Columns per pass over the rows: the rows are wide (a pass per column cost
 * a cache miss per row and column on a 3 M-row index), and each column held
 * at once costs 8 bytes per row. */
#define COLUMNS_PER_PASS 2

/* The integer columns go into the rows, COLUMNS_PER_PASS per pass. */
static sp_status fill_int_columns(sp_rd *rd, sp_model *m, const int_column *cols, size_t num_cols) {
    sp_status st = SP_OK;
    for (size_t first = 0; !st && first < num_cols; first += COLUMNS_PER_PASS) {
        size_t count = num_cols - first < COLUMNS_PER_PASS ? num_cols - first : COLUMNS_PER_PASS;
        int64_t *values[COLUMNS_PER_PASS] = {NULL};
        for (size_t k = 0; !st && k < count; k++)
            st = load_int_column(rd, m, &cols[first + k], &values[k]);
        for (size_t i = 0; !st && i < m->num_rows; i++)
            for (size_t k = 0; k < count; k++) {
                const int_column *c = &cols[first + k];
                store(&m->rows[i], c->field, values[k] ? values[k][i] : c->fallback);
            }
        for (size_t k = 0; k < count; k++)
            free(values[k]);
    }
    return st;
}

/* The per-row string columns and the value of a row when one is absent. */
typedef struct string_column {
    const char *path;
    size_t offset; /* of the row's char * */
    const char *fallback;
} string_column;

static const string_column string_columns[] = {
    {INDEX "source_files", offsetof(sp_model_row, source_file), ""},
    {INDEX "source_texts", offsetof(sp_model_row, source_text), ""},
    {INDEX "tags", offsetof(sp_model_row, tags), "[]"},
    {INDEX "event_metadata", offsetof(sp_model_row, event_metadata), "[]"},
};
#define NUM_STRING_COLUMNS (sizeof string_columns / sizeof *string_columns)

/* Columns [first, first + count) into the rows in one pass. Even after a
 * failure the columns read go into the rows: their values may share one
 * buffer, which only the model knows how to free. */
static sp_status fill_string_group(sp_rd *rd, sp_model *m, size_t first, size_t count) {
    char **values[NUM_STRING_COLUMNS] = {NULL};
    size_t counts[NUM_STRING_COLUMNS] = {0};
    sp_status st = SP_OK;
    for (size_t k = first; !st && k < first + count; k++) {
        counts[k] = m->num_rows;
        if (sp_rd_kind_of(rd->file, string_columns[k].path) != SP_RD_ABSENT)
            st = sp_rd_shared_string_column(rd, m, string_columns[k].path, &values[k], &counts[k]);
    }
    for (size_t i = 0; i < m->num_rows; i++)
        for (size_t k = first; k < first + count; k++) {
            char **slot = (char **)((char *)&m->rows[i] + string_columns[k].offset);
            if (values[k]) {
                *slot = values[k][i];
                values[k][i] = NULL;
            } else if (!st && !(*slot = sp_strdup(string_columns[k].fallback))) {
                st = sp_rd_no_memory(rd);
            }
        }
    for (size_t k = first; k < first + count; k++)
        sp_rd_free_strings(values[k], counts[k]);
    return st;
}

/* Like the integers, the strings go into the rows COLUMNS_PER_PASS per pass. */
static sp_status fill_strings(sp_rd *rd, sp_model *m) {
    sp_status st = SP_OK;
    for (size_t k = 0; !st && k < NUM_STRING_COLUMNS; k += COLUMNS_PER_PASS) {
        size_t count =
            NUM_STRING_COLUMNS - k < COLUMNS_PER_PASS ? NUM_STRING_COLUMNS - k : COLUMNS_PER_PASS;
        st = fill_string_group(rd, m, k, count);
    }
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
    if (!st) st = check_range(rd, &region, region_ids, m->num_rows);
    for (size_t i = 0; !st && i < m->num_rows; i++)
        m->rows[i].region = (uint32_t)region_ids[i];
    free(region_ids);
    int aggregate = m->layout == SP_LAYOUT_AGGREGATE;
    const int_column *cols = aggregate ? aggregate_columns : columnar_columns;
    size_t num_cols = aggregate ? sizeof aggregate_columns / sizeof *aggregate_columns
                                : sizeof columnar_columns / sizeof *columnar_columns;
    if (!st) st = fill_int_columns(rd, m, cols, num_cols);
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
