/* Display order of the summary table rows (§5.3). */
#include <stdlib.h>
#include <string.h>

#include "common/text_buffer.h"
#include "analysis/table_build.h"
#include "common/error.h"

const char *const sp_sort_keys[] = {"start", "total", "calls",     "avg",  "min",
                                    "max",   "first", "last",      "std",  "p50",
                                    "p95",   "p99",   "imbalance", "name", NULL};

sp_status sp_table_parse_options(const char *sort, const char *percentage_mode,
                                 sp_table_sort *sort_key, int *exclusive_mode, sp_error *err) {
    if (!percentage_mode || strcmp(percentage_mode, "coverage") == 0)
        *exclusive_mode = 0;
    else if (strcmp(percentage_mode, "exclusive") == 0)
        *exclusive_mode = 1;
    else
        return sp_error_set(err, SP_ERR_BAD_OPTION,
                            "percentage_mode must be 'coverage' or 'exclusive'");
    if (!sort) sort = "start";
    for (int i = 0; sp_sort_keys[i]; i++) {
        if (strcmp(sort, sp_sort_keys[i]) == 0) {
            *sort_key = (sp_table_sort)i;
            return SP_OK;
        }
    }
    sp_textbuf b = {0};
    for (int i = 0; sp_sort_keys[i]; i++)
        sp_textbuf_printf(&b, "%s%s", i ? ", " : "", sp_sort_keys[i]);
    const char *keys = sp_textbuf_str(&b);
    sp_error_set(err, SP_ERR_BAD_OPTION, "unknown sort key '%s'; choose one of: %s", sort,
                 keys ? keys : "start");
    sp_textbuf_free(&b);
    return SP_ERR_BAD_OPTION;
}

typedef struct order_ctx {
    const sp_table_row *rows;
    sp_table_sort key;
} order_ctx;

/* The row's value for a sort key; 0 when it is None. */
static int sort_value(const sp_table_row *row, sp_table_sort key, double *v) {
    int timed = row->has_timing;
    switch (key) {
    case SP_SORT_TOTAL:
        *v = row->total;
        return timed;
    case SP_SORT_CALLS:
        *v = (double)row->calls;
        return 1;
    case SP_SORT_AVG:
        *v = row->avg;
        return timed;
    case SP_SORT_MIN:
        *v = row->min;
        return timed;
    case SP_SORT_MAX:
        *v = row->max;
        return timed;
    case SP_SORT_FIRST:
        *v = row->first;
        return row->has_first_last;
    case SP_SORT_LAST:
        *v = row->last;
        return row->has_first_last;
    case SP_SORT_STD:
        *v = row->std;
        return timed;
    case SP_SORT_P50:
        *v = row->p50;
        return timed && row->has_percentiles;
    case SP_SORT_P95:
        *v = row->p95;
        return timed && row->has_percentiles;
    case SP_SORT_P99:
        *v = row->p99;
        return timed && row->has_percentiles;
    case SP_SORT_IMBALANCE:
        *v = row->imbalance;
        return row->has_imbalance;
    default:
        *v = 0.0;
        return 0;
    }
}

/* Python: sorted by name, then stably by (value is not None, value) descending. */
static int compare_flat(const void *pa, const void *pb, void *arg) {
    const order_ctx *c = arg;
    size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
    const sp_table_row *a = &c->rows[ia], *b = &c->rows[ib];
    if (c->key != SP_SORT_NAME) {
        double va, vb;
        int ha = sort_value(a, c->key, &va), hb = sort_value(b, c->key, &vb);
        if (!ha) va = 0.0;
        if (!hb) vb = 0.0;
        if (ha != hb) return hb - ha;
        if (va != vb) return va > vb ? -1 : 1;
    }
    int byname = strcmp(a->name, b->name);
    if (byname) return byname;
    return (ia > ib) - (ia < ib);
}

/* Start order: by (start, index), index breaking ties (stable). */
static int compare_start(const void *pa, const void *pb, void *arg) {
    const order_ctx *c = arg;
    size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
    double sa = c->rows[ia].start, sb = c->rows[ib].start;
    if (sa != sb) return sa < sb ? -1 : 1;
    return (ia > ib) - (ia < ib);
}

typedef struct tree {
    size_t *first_child; /* CSR: children of row i at kids[first_child[i] .. first_child[i+1]) */
    size_t *kids;
    size_t *top; /* roots and fallback rows */
    size_t num_top;
} tree;

static void emit(const tree *t, size_t i, size_t *order, size_t *n) {
    order[(*n)++] = i;
    for (size_t k = t->first_child[i]; k < t->first_child[i + 1]; k++)
        emit(t, t->kids[k], order, n);
}

/* Rows are numbered so that fallback rows come after all path rows, and a
 * root's index among the roots follows path insertion order: sorting the
 * top level by (start, row index) is the (start, index) order of §5.3. */
static sp_status start_order(const sp_table_rows *rows, size_t num_paths, const size_t *parent,
                             size_t *order) {
    size_t n = rows->count;
    tree t = {calloc(n + 2, sizeof(size_t)), malloc((n + 1) * sizeof(size_t)),
              malloc((n + 1) * sizeof(size_t)), 0};
    sp_status st = t.first_child && t.kids && t.top ? SP_OK : SP_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; st == SP_OK && i < num_paths; i++)
        if (parent[i] != SIZE_MAX) t.first_child[parent[i] + 2]++;
    for (size_t i = 0; st == SP_OK && i < n; i++)
        t.first_child[i + 2] += t.first_child[i + 1];
    for (size_t i = 0; st == SP_OK && i < n; i++) {
        if (i < num_paths && parent[i] != SIZE_MAX)
            t.kids[t.first_child[parent[i] + 1]++] = i;
        else
            t.top[t.num_top++] = i;
    }
    order_ctx c = {rows->rows, SP_SORT_START};
    for (size_t i = 0; st == SP_OK && i < n; i++)
        qsort_r(t.kids + t.first_child[i], t.first_child[i + 1] - t.first_child[i], sizeof(size_t),
                compare_start, &c);
    if (st == SP_OK) qsort_r(t.top, t.num_top, sizeof(size_t), compare_start, &c);
    size_t k = 0;
    for (size_t i = 0; st == SP_OK && i < t.num_top; i++)
        emit(&t, t.top[i], order, &k);
    free(t.first_child);
    free(t.kids);
    free(t.top);
    return st;
}

sp_status sp_table_order(sp_table_rows *rows, size_t num_paths, const size_t *parent,
                         sp_table_sort key, sp_error *err) {
    size_t n = rows->count;
    size_t *order = malloc((n + 1) * sizeof *order);
    sp_table_row *sorted = malloc((n + 1) * sizeof *sorted);
    sp_status st = order && sorted ? SP_OK : SP_ERR_OUT_OF_MEMORY;
    if (st == SP_OK && key == SP_SORT_START) {
        st = start_order(rows, num_paths, parent, order);
    } else if (st == SP_OK) {
        for (size_t i = 0; i < n; i++)
            order[i] = i;
        order_ctx c = {rows->rows, key};
        qsort_r(order, n, sizeof *order, compare_flat, &c);
    }
    if (st == SP_OK) {
        for (size_t i = 0; i < n; i++)
            sorted[i] = rows->rows[order[i]];
        memcpy(rows->rows, sorted, n * sizeof *sorted);
        for (size_t i = 0; i < n && !rows->has_session_total; i++) {
            if (strcmp(rows->rows[i].name, "scope_profiler.session") != 0) continue;
            rows->has_session_total = rows->rows[i].has_timing;
            rows->session_total = rows->rows[i].total;
            break;
        }
    }
    free(order);
    free(sorted);
    return st == SP_OK ? SP_OK : sp_error_set(err, st, "out of memory");
}
