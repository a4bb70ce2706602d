/*
 * A side of a comparison: the entries of each of its runs, pooled by key.
 * A key's value is the mean over the runs that give it a value; its
 * per-call statistics pool those runs' calls (parallel-variance formula);
 * its run-level samples are the runs' values of the metric themselves.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "compare/compare_internal.h"

typedef struct key_ref {
    const cmp_entry *e;
    size_t run;
} key_ref;

static int by_name_then_run(const void *pa, const void *pb) {
    const key_ref *a = pa, *b = pb;
    int c = strcmp(a->e->name, b->e->name);
    if (c) return c;
    return a->run < b->run ? -1 : a->run > b->run;
}

/* Running sums of one key over the runs. */
typedef struct pool_acc {
    double value_sum;
    uint64_t calls;
    double mean, m2; /* pooled calls */
} pool_acc;

static void add_run(cmp_pooled *k, pool_acc *acc, const cmp_entry *e, double *value_slot) {
    k->runs++;
    acc->value_sum += e->value;
    *value_slot = e->value;
    if (!e->has_samples) {
        k->has_samples = 0;
        return;
    }
    /* Chan et al.'s combination of two (count, mean, M2) summaries. */
    double n1 = (double)acc->calls, n2 = (double)e->calls, n = n1 + n2;
    double d = e->mean - acc->mean;
    acc->mean += d * n2 / n;
    acc->m2 += e->var * n2 + d * d * n1 * n2 / n;
    acc->calls += e->calls;
}

static void finish_key(cmp_pooled *k, const pool_acc *acc) {
    k->value = acc->value_sum / k->runs;
    k->calls = acc->calls;
    k->mean = acc->mean;
    k->var = acc->calls ? acc->m2 / (double)acc->calls : 0.0;
}

static sp_status pool(cmp_side *s, sp_error *err) {
    size_t total = 0;
    for (size_t i = 0; i < s->num_runs; i++)
        total += s->runs[i].count;
    key_ref *refs = malloc((total ? total : 1) * sizeof *refs);
    s->keys = calloc(total ? total : 1, sizeof *s->keys);
    s->values = calloc(total ? total : 1, sizeof *s->values);
    if (!refs || !s->keys || !s->values) {
        free(refs);
        return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    }
    size_t n = 0;
    for (size_t i = 0; i < s->num_runs; i++)
        for (size_t j = 0; j < s->runs[i].count; j++)
            if (s->runs[i].items[j].has_value) refs[n++] = (key_ref){&s->runs[i].items[j], i};
    qsort(refs, n, sizeof *refs, by_name_then_run);
    size_t used = 0;
    for (size_t i = 0; i < n;) {
        cmp_pooled *k = &s->keys[s->num_keys++];
        pool_acc acc = {0};
        k->name = refs[i].e->name;
        k->has_samples = 1;
        k->run_values = s->values + used;
        size_t j = i;
        for (; j < n && strcmp(refs[j].e->name, k->name) == 0; j++)
            if (j == i || refs[j].run != refs[j - 1].run)
                add_run(k, &acc, refs[j].e, &s->values[used++]);
        finish_key(k, &acc);
        i = j;
    }
    free(refs);
    return SP_OK;
}

sp_status cmp_side_build(const sp_results *const *runs, size_t n, const sp_compare_options *o,
                         cmp_side *out, sp_error *err) {
    memset(out, 0, sizeof *out);
    out->runs = calloc(n ? n : 1, sizeof *out->runs);
    if (!out->runs) return sp_error_set(err, SP_ERR_OUT_OF_MEMORY, "out of memory");
    out->num_runs = n;
    for (size_t i = 0; i < n; i++) {
        sp_status st = o->by == SP_COMPARE_BY_PATH
                           ? cmp_path_entries(runs[i], o, &out->runs[i], err)
                           : cmp_region_entries(runs[i], o, &out->runs[i], err);
        if (st != SP_OK) return st;
    }
    return pool(out, err);
}

void cmp_side_free(cmp_side *s) {
    for (size_t i = 0; s->runs && i < s->num_runs; i++)
        cmp_entries_free(&s->runs[i]);
    free(s->runs);
    free(s->keys);
    free(s->values);
    memset(s, 0, sizeof *s);
}
