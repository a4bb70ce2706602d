/*
 * sp_compare(): the rows of diff and check. The join, the threshold and the
 * order follow the Python package's diff_rows(); the verdicts are ours.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "compare/compare_internal.h"

static int is_duration_metric(sp_metric m) {
    return m != SP_METRIC_CALLS && m != SP_METRIC_IMBALANCE && m != SP_METRIC_EXCLUSIVE;
}

static sp_significance no_verdict(sp_verdict v) {
    sp_significance s = {v, SP_SIG_NONE, NAN, NAN, NAN, NAN, NAN, 0, 0, NAN, NAN, 0, ""};
    snprintf(s.text, sizeof s.text, "%s", sp_verdict_text(v));
    return s;
}

/* The within-run test (--per-call): the pooled calls of each side are the samples. */
static sp_significance per_call_verdict(const cmp_pooled *a, const cmp_pooled *b,
                                        const sp_compare_options *o, double level) {
    if (!a->has_samples || !b->has_samples) return no_verdict(SP_VERDICT_NO_PER_CALL_DATA);
    /* A sample variance from the pooled population variance. */
    double va = a->calls > 1 ? a->var * (double)a->calls / (double)(a->calls - 1) : 0.0;
    double vb = b->calls > 1 ? b->var * (double)b->calls / (double)(b->calls - 1) : 0.0;
    double factor = 1.0;
    if (o->metric == SP_METRIC_TOTAL)
        factor = ((double)b->calls / b->runs) / ((double)a->calls / a->runs);
    sp_significance s = sp_significance_test(a->calls, a->mean, va, b->calls, b->mean, vb, factor,
                                             level, o->margin);
    if (s.verdict == SP_VERDICT_TOO_FEW_CALLS) s.method = SP_SIG_NONE;
    return s;
}

static sp_significance verdict_of(const cmp_pooled *a, const cmp_pooled *b,
                                  const sp_compare_options *o, double level) {
    if (!is_duration_metric(o->metric)) return no_verdict(SP_VERDICT_NOT_A_DURATION);
    if (!a || !b) return no_verdict(SP_VERDICT_ONE_SIDE);
    if (o->per_call) return per_call_verdict(a, b, o, level);
    return sp_significance_runs(a->run_values, a->runs, b->run_values, b->runs, level, o->margin);
}

static int fill_row(sp_compare_row *row, const cmp_pooled *a, const cmp_pooled *b,
                    const sp_compare_options *o, double level) {
    const char *name = a ? a->name : b->name;
    if (!(row->name = strdup(name))) return 0;
    row->in_a = a != NULL;
    row->in_b = b != NULL;
    row->a = a ? a->value : NAN;
    row->b = b ? b->value : NAN;
    row->runs_a = a ? a->runs : 0;
    row->runs_b = b ? b->runs : 0;
    row->delta = (b ? b->value : 0.0) - (a ? a->value : 0.0);
    row->has_pct = a && a->value != 0.0;
    row->pct = row->has_pct ? row->delta / a->value * 100.0 : NAN;
    row->sig = o->significance ? verdict_of(a, b, o, level) : no_verdict(SP_VERDICT_NOT_COMPUTED);
    return 1;
}

/* A row's place: descending magnitude (no pct sorts last), ties by name, as
 * Python's name sort followed by a stable sort on the magnitude. */
typedef struct row_key {
    double key;
    const char *name;
    size_t index;
} row_key;

static int key_order(const void *pa, const void *pb) {
    const row_key *a = pa, *b = pb;
    if (a->key != b->key) return a->key > b->key ? -1 : 1;
    return strcmp(a->name, b->name);
}

static sp_status sort_rows(sp_comparison *c, sp_compare_sort sort, sp_error *err) {
    row_key *keys = malloc((c->count + 1) * sizeof *keys);
    sp_compare_row *sorted = malloc((c->count + 1) * sizeof *sorted);
    if (!keys || !sorted) {
        free(keys);
        free(sorted);
        return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    }
    for (size_t i = 0; i < c->count; i++) {
        const sp_compare_row *r = &c->rows[i];
        double k = 0.0;
        if (sort == SP_COMPARE_SORT_DELTA) k = fabs(r->delta);
        if (sort == SP_COMPARE_SORT_PCT) k = r->has_pct ? fabs(r->pct) : -1.0;
        keys[i] = (row_key){k, r->name, i};
    }
    qsort(keys, c->count, sizeof *keys, key_order);
    for (size_t i = 0; i < c->count; i++)
        sorted[i] = c->rows[keys[i].index];
    memcpy(c->rows, sorted, c->count * sizeof *sorted);
    free(keys);
    free(sorted);
    return SP_OK;
}

static int dropped(const sp_compare_row *row, const sp_compare_options *o) {
    return o->has_threshold && row->has_pct && fabs(row->pct) < o->threshold;
}

static sp_status join(const cmp_side *sa, const cmp_side *sb, const sp_compare_options *o,
                      double level, sp_comparison *c, sp_error *err) {
    c->rows = calloc(sa->num_keys + sb->num_keys + 1, sizeof *c->rows);
    if (!c->rows) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    size_t i = 0, j = 0;
    while (i < sa->num_keys || j < sb->num_keys) {
        const cmp_pooled *a = i < sa->num_keys ? &sa->keys[i] : NULL;
        const cmp_pooled *b = j < sb->num_keys ? &sb->keys[j] : NULL;
        int cmp = !a ? 1 : !b ? -1 : strcmp(a->name, b->name);
        if (cmp < 0) b = NULL;
        if (cmp > 0) a = NULL;
        i += a != NULL;
        j += b != NULL;
        if (a && b) c->num_common++;
        c->num_selected++;
        sp_compare_row *row = &c->rows[c->count];
        if (!fill_row(row, a, b, o, level))
            return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        if (dropped(row, o)) {
            free(row->name);
            memset(row, 0, sizeof *row);
        } else {
            c->count++;
        }
    }
    return SP_OK;
}

static sp_status list_one_sided(sp_comparison *c, sp_error *err) {
    c->only_a = malloc((c->count + 1) * sizeof *c->only_a);
    c->only_b = malloc((c->count + 1) * sizeof *c->only_b);
    if (!c->only_a || !c->only_b) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    for (size_t i = 0; i < c->count; i++) {
        if (!c->rows[i].in_b) c->only_a[c->num_only_a++] = c->rows[i].name;
        if (!c->rows[i].in_a) c->only_b[c->num_only_b++] = c->rows[i].name;
    }
    return SP_OK;
}

static sp_status check_options(size_t num_a, size_t num_b, const sp_compare_options *o,
                               double *level, sp_error *err) {
    if (!num_a || !num_b)
        return sp_error_set(err, SP_ERR_INVALID_ARGUMENT,
                            "a comparison needs at least one run "
                            "on each side");
    if ((unsigned)o->metric >= SP_METRIC_COUNT_ || (unsigned)o->by > SP_COMPARE_BY_PATH ||
        (unsigned)o->sort > SP_COMPARE_SORT_NAME)
        return sp_error_set(err, SP_ERR_INVALID_ARGUMENT, "unknown metric, row kind or order");
    *level = o->level == 0.0 ? SP_COMPARE_DEFAULT_LEVEL : o->level;
    if (!(*level > 0.0 && *level < 1.0))
        return sp_error_set(err, SP_ERR_INVALID_ARGUMENT,
                            "the significance level must lie between 0 and 1 (got %g)", *level);
    if (!(o->margin >= 0.0 && o->margin < 1.0))
        return sp_error_set(err, SP_ERR_INVALID_ARGUMENT,
                            "the equivalence margin must lie between 0 and 1 (got %g)", o->margin);
    return SP_OK;
}

/* The largest percentile error bound of a side's runs (percentile metrics only). */
static double side_error(const sp_results *const *runs, size_t n, sp_metric m) {
    double worst = 0.0;
    for (size_t i = 0; sp_metric_needs_events(m) && i < n; i++) {
        double e = sp_results_percentile_error(runs[i]);
        if (e > worst) worst = e;
    }
    return worst;
}

sp_comparison *sp_compare(const sp_results *const *a, size_t num_a, const sp_results *const *b,
                          size_t num_b, const sp_compare_options *options, sp_error *err) {
    sp_error local;
    if (!err) err = &local;
    sp_error_clear(err);
    sp_compare_options o = {0};
    if (options) o = *options;
    double level = SP_COMPARE_DEFAULT_LEVEL;
    if (check_options(num_a, num_b, &o, &level, err) != SP_OK) return NULL;
    if (o.margin == 0.0) o.margin = SP_COMPARE_DEFAULT_MARGIN;
    sp_comparison *c = calloc(1, sizeof *c);
    if (!c) {
        sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    c->metric = o.metric;
    c->by = o.by;
    c->level = level;
    c->margin = o.margin;
    c->error_a = side_error(a, num_a, o.metric);
    c->error_b = side_error(b, num_b, o.metric);
    cmp_side sa, sb;
    memset(&sb, 0, sizeof sb);
    sp_status st = cmp_side_build(a, num_a, &o, &sa, err);
    if (st == SP_OK) st = cmp_side_build(b, num_b, &o, &sb, err);
    if (st == SP_OK) st = join(&sa, &sb, &o, level, c, err);
    if (st == SP_OK) {
        st = sort_rows(c, o.sort, err);
        if (st == SP_OK) st = list_one_sided(c, err);
    }
    cmp_side_free(&sa);
    cmp_side_free(&sb);
    if (st != SP_OK) {
        sp_comparison_free(c);
        return NULL;
    }
    return c;
}

void sp_comparison_free(sp_comparison *c) {
    if (!c) return;
    for (size_t i = 0; c->rows && i < c->count; i++)
        free(c->rows[i].name);
    free(c->rows);
    free(c->only_a);
    free(c->only_b);
    free(c);
}
