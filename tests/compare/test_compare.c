/*
 * diff and check on hand-built pairs with exactly known timestamps: rows only
 * in one run, a zero baseline, recursion, call paths, several ranks, every
 * metric, every sort, the threshold, the budget, and the JSON and CSV text.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/results_model.h"
#include "model_builder.h"
#include "present/compare_out.h"
#include "scope_profiler/compare.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define US   1000 /* ns */

static void assert_near(double got, double want) {
    if (!(fabs(got - want) <= 1e-12 * fmax(fabs(got), fabs(want))))
        fail_msg("got %.17g, want %.17g", got, want);
}

enum { MAIN, WORK, REC, OLD, NEW, ZERO };
static const char *const names[] = {"main", "work", "rec", "old", "new", "zero"};

/* a: main 100 us holding work 20 + 30 us; rec 60 > 40 > 10 us; old 1 us; zero 0 us.
 * b: main 120 us holding work 30 + 50 us; rec 80 > 50 > 20 us; new 2 us; zero 5 us. */
static const mb_call calls_a[] = {
    {MAIN, 0, 0, 100 * US, MB_NO_THREAD},       {WORK, 0, 10 * US, 30 * US, MB_NO_THREAD},
    {WORK, 0, 40 * US, 70 * US, MB_NO_THREAD},  {REC, 0, 200 * US, 260 * US, MB_NO_THREAD},
    {REC, 0, 210 * US, 250 * US, MB_NO_THREAD}, {REC, 0, 220 * US, 230 * US, MB_NO_THREAD},
    {OLD, 0, 300 * US, 301 * US, MB_NO_THREAD}, {ZERO, 0, 400 * US, 400 * US, MB_NO_THREAD},
};
static const mb_call calls_b[] = {
    {MAIN, 0, 0, 120 * US, MB_NO_THREAD},       {WORK, 0, 10 * US, 40 * US, MB_NO_THREAD},
    {WORK, 0, 50 * US, 100 * US, MB_NO_THREAD}, {REC, 0, 200 * US, 280 * US, MB_NO_THREAD},
    {REC, 0, 210 * US, 260 * US, MB_NO_THREAD}, {REC, 0, 220 * US, 240 * US, MB_NO_THREAD},
    {NEW, 0, 300 * US, 302 * US, MB_NO_THREAD}, {ZERO, 0, 400 * US, 405 * US, MB_NO_THREAD},
};

typedef struct pair {
    sp_results *a, *b;
} pair;

static int setup(void **state) {
    pair *p = malloc(sizeof *p);
    mb_spec sa = {.path = "a.h5",
                  .regions = names,
                  .num_regions = N(names),
                  .calls = calls_a,
                  .num_calls = N(calls_a),
                  .label = "base"};
    mb_spec sb = {.path = "b.h5",
                  .regions = names,
                  .num_regions = N(names),
                  .calls = calls_b,
                  .num_calls = N(calls_b),
                  .label = "new"};
    p->a = mb_results(&sa);
    p->b = mb_results(&sb);
    *state = p;
    return 0;
}

static int teardown(void **state) {
    pair *p = *state;
    sp_results_free(p->a);
    sp_results_free(p->b);
    free(p);
    return 0;
}

static sp_comparison *compare(pair *p, sp_compare_options *o) {
    sp_error err = {0};
    const sp_results *a = p->a, *b = p->b;
    sp_comparison *c = sp_compare(&a, 1, &b, 1, o, &err);
    if (!c) fail_msg("sp_compare: %s", err.message);
    return c;
}

static const sp_compare_row *row_named(const sp_comparison *c, const char *name) {
    for (size_t i = 0; i < c->count; i++)
        if (strcmp(c->rows[i].name, name) == 0) return &c->rows[i];
    fail_msg("no row %s", name);
    return NULL;
}

static void assert_order(const sp_comparison *c, const char *const *want, size_t n) {
    assert_int_equal(c->count, n);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(c->rows[i].name, want[i]);
}

static void test_total_rows_exact(void **state) {
    sp_compare_options o = {0};
    sp_comparison *c = compare(*state, &o);
    static const char *const order[] = {"rec", "work", "main", "zero", "new", "old"};
    assert_order(c, order, N(order));
    const sp_compare_row *r = row_named(c, "rec");
    assert_near(r->a, 110e-6);
    assert_near(r->b, 150e-6);
    assert_near(r->delta, 40e-6);
    assert_true(r->has_pct);
    assert_near(r->pct, 40.0 / 110.0 * 100.0);
    r = row_named(c, "old");
    assert_true(r->in_a && !r->in_b && isnan(r->b));
    assert_near(r->delta, -1e-6);
    assert_near(r->pct, -100.0);
    r = row_named(c, "new");
    assert_true(!r->in_a && r->in_b && !r->has_pct);
    assert_near(r->delta, 2e-6);
    r = row_named(c, "zero"); /* a zero baseline has no percentage */
    assert_true(r->in_a && r->in_b && r->a == 0.0 && !r->has_pct);
    assert_near(r->delta, 5e-6);
    assert_int_equal(c->num_only_a, 1);
    assert_string_equal(c->only_a[0], "old");
    assert_int_equal(c->num_only_b, 1);
    assert_string_equal(c->only_b[0], "new");
    assert_int_equal(c->num_common, 4);
    assert_int_equal(c->num_selected, 6);
    assert_int_equal(r->sig.verdict, SP_VERDICT_NOT_COMPUTED);
    sp_comparison_free(c);
}

static void test_sorts_and_threshold(void **state) {
    sp_compare_options o = {0};
    o.sort = SP_COMPARE_SORT_PCT;
    sp_comparison *c = compare(*state, &o);
    static const char *const by_pct[] = {"old", "work", "rec", "main", "new", "zero"};
    assert_order(c, by_pct, N(by_pct));
    sp_comparison_free(c);
    o.sort = SP_COMPARE_SORT_NAME;
    c = compare(*state, &o);
    static const char *const by_name[] = {"main", "new", "old", "rec", "work", "zero"};
    assert_order(c, by_name, N(by_name));
    sp_comparison_free(c);
    o.sort = SP_COMPARE_SORT_DELTA;
    o.has_threshold = 1;
    o.threshold = 30.0; /* main (+20 %) goes; rows without a percentage stay */
    c = compare(*state, &o);
    static const char *const kept[] = {"rec", "work", "zero", "new", "old"};
    assert_order(c, kept, N(kept));
    assert_int_equal(c->num_selected, 6);
    sp_comparison_free(c);
}

typedef struct metric_case {
    sp_metric metric;
    const char *name;
    double a, b;
} metric_case;

static void test_every_metric(void **state) {
    static const metric_case cases[] = {
        {SP_METRIC_TOTAL, "work", 50e-6, 80e-6},
        {SP_METRIC_AVG, "work", 25e-6, 40e-6},
        {SP_METRIC_MIN, "work", 20e-6, 30e-6},
        {SP_METRIC_MAX, "work", 30e-6, 50e-6},
        {SP_METRIC_P50, "work", 25e-6, 40e-6},
        {SP_METRIC_P95, "work", 29.5e-6, 49e-6},
        {SP_METRIC_P99, "rec", 59.6e-6, 79.4e-6}, /* 10 40 60 and 20 50 80 us */
        {SP_METRIC_IMBALANCE, "work", 0.0, 0.0},
        {SP_METRIC_CALLS, "rec", 3, 3},
        {SP_METRIC_EXCLUSIVE, "main", 50e-6, 40e-6},
        {SP_METRIC_EXCLUSIVE, "rec", 60e-6, 80e-6}, /* 20 + 30 + 10 and 30 + 30 + 20 */
    };
    for (size_t i = 0; i < N(cases); i++) {
        sp_compare_options o = {0};
        o.metric = cases[i].metric;
        sp_comparison *c = compare(*state, &o);
        const sp_compare_row *r = row_named(c, cases[i].name);
        assert_near(r->a, cases[i].a);
        assert_near(r->b, cases[i].b);
        assert_near(r->delta, cases[i].b - cases[i].a);
        sp_comparison_free(c);
    }
}

static void test_metric_names(void **state) {
    (void)state;
    sp_metric m;
    assert_true(sp_metric_parse("p95", &m) && m == SP_METRIC_P95);
    assert_false(sp_metric_parse("p90", &m));
    assert_string_equal(sp_metric_label(SP_METRIC_IMBALANCE), "imbalance [%]");
    assert_string_equal(sp_metric_label(SP_METRIC_TOTAL), "total [s]");
    assert_string_equal(sp_metric_name(SP_METRIC_EXCLUSIVE), "exclusive");
    assert_null(sp_metric_name(SP_METRIC_COUNT_));
}

static void test_call_paths(void **state) {
    sp_compare_options o = {0};
    o.by = SP_COMPARE_BY_PATH;
    o.sort = SP_COMPARE_SORT_NAME;
    sp_comparison *c = compare(*state, &o);
    /* the recursion collapses into one path element */
    static const char *const paths[] = {"main", "main > work", "new", "old", "rec", "zero"};
    assert_order(c, paths, N(paths));
    const sp_compare_row *r = row_named(c, "main > work");
    assert_near(r->a, 50e-6);
    assert_near(r->b, 80e-6);
    assert_near(row_named(c, "rec")->b, 150e-6);
    sp_comparison_free(c);
}

static void test_include_exclude(void **state) {
    const char *inc[] = {"m", "w"}, *exc[] = {"wo"};
    sp_compare_options o = {0};
    o.filter.include = inc;
    o.filter.num_include = 2;
    o.filter.exclude = exc;
    o.filter.num_exclude = 1;
    sp_comparison *c = compare(*state, &o);
    static const char *const only[] = {"main"};
    assert_order(c, only, 1);
    sp_comparison_free(c);
    const char *bad[] = {"("};
    o.filter.include = bad;
    o.filter.num_include = 1;
    sp_error err = {0};
    pair *p = *state;
    const sp_results *a = p->a, *b = p->b;
    assert_null(sp_compare(&a, 1, &b, 1, &o, &err));
    assert_int_equal(err.status, SP_ERR_BAD_PATTERN);
}

/* Two ranks: work 10 us on rank 0 and 30 us on rank 1 in a, 10 and 50 us in b. */
static void test_several_ranks(void **state) {
    (void)state;
    static const char *const reg[] = {"work"};
    static const mb_call ca[] = {{0, 0, 0, 10 * US, MB_NO_THREAD},
                                 {0, 1, 0, 30 * US, MB_NO_THREAD}};
    static const mb_call cb[] = {{0, 0, 0, 10 * US, MB_NO_THREAD},
                                 {0, 1, 0, 50 * US, MB_NO_THREAD}};
    mb_spec sa = {.regions = reg, .num_regions = 1, .calls = ca, .num_calls = 2};
    mb_spec sb = {.regions = reg, .num_regions = 1, .calls = cb, .num_calls = 2};
    sp_results *a = mb_results(&sa), *b = mb_results(&sb);
    const sp_results *ca_ = a, *cb_ = b;
    sp_compare_options o = {0};
    sp_error err = {0};
    sp_comparison *c = sp_compare(&ca_, 1, &cb_, 1, &o, &err);
    assert_near(c->rows[0].a, 40e-6);
    assert_near(c->rows[0].b, 60e-6);
    sp_comparison_free(c);
    o.metric = SP_METRIC_IMBALANCE; /* (30 / 20 - 1) * 100 and (50 / 30 - 1) * 100 */
    c = sp_compare(&ca_, 1, &cb_, 1, &o, &err);
    assert_near(c->rows[0].a, 50.0);
    assert_near(c->rows[0].b, (50.0 / 30.0 - 1.0) * 100.0);
    sp_comparison_free(c);
    static const uint32_t rank1[] = {1};
    o.metric = SP_METRIC_TOTAL;
    o.filter.ranks = rank1;
    o.filter.num_ranks = 1;
    c = sp_compare(&ca_, 1, &cb_, 1, &o, &err);
    assert_near(c->rows[0].a, 30e-6);
    assert_near(c->rows[0].b, 50e-6);
    assert_near(c->rows[0].pct, 200.0 / 3.0);
    sp_comparison_free(c);
    sp_results_free(a);
    sp_results_free(b);
}

static void test_check_budget(void **state) {
    sp_compare_options o = {0};
    o.sort = SP_COMPARE_SORT_PCT;
    sp_comparison *c = compare(*state, &o);
    sp_check_options k = {0};
    size_t fails = 0;
    for (size_t i = 0; i < c->count; i++)
        fails += (size_t)sp_compare_row_violates(&c->rows[i], &k);
    assert_int_equal(fails, 3); /* work, rec, main */
    k.max_regression = 40.0;    /* work +60 % only */
    assert_true(sp_compare_row_violates(row_named(c, "work"), &k));
    assert_false(sp_compare_row_violates(row_named(c, "rec"), &k));
    assert_false(sp_compare_row_violates(row_named(c, "new"), &k));
    assert_false(sp_compare_row_violates(row_named(c, "zero"), &k)); /* in a, no pct */
    k.fail_on_new = 1;
    assert_true(sp_compare_row_violates(row_named(c, "new"), &k));
    assert_false(sp_compare_row_violates(row_named(c, "zero"), &k));
    assert_false(sp_compare_row_violates(row_named(c, "old"), &k));
    sp_comparison_free(c);
}

static void test_aggregate_files(void **state) {
    pair *p = *state;
    (void)p;
    sp_model ma, mb;
    mb_spec sa = {.path = "agg_a.h5",
                  .regions = names,
                  .num_regions = N(names),
                  .calls = calls_a,
                  .num_calls = N(calls_a)};
    mb_spec sb = {.path = "agg_b.h5",
                  .regions = names,
                  .num_regions = N(names),
                  .calls = calls_b,
                  .num_calls = N(calls_b)};
    mb_model(&sa, &ma);
    mb_model(&sb, &mb);
    mb_make_aggregate(&ma);
    mb_make_aggregate(&mb);
    sp_error err = {0};
    sp_results *a = sp_results_adopt(&ma, &err), *b = sp_results_adopt(&mb, &err);
    assert_non_null(a);
    assert_non_null(b);
    const sp_results *ca = a, *cb = b;
    sp_compare_options o = {0};
    o.significance = 1;
    o.per_call = 1;
    sp_comparison *c = sp_compare(&ca, 1, &cb, 1, &o, &err);
    assert_non_null(c);
    const sp_compare_row *r = row_named(c, "work");
    assert_near(r->a, 50e-6);
    assert_near(r->b, 80e-6);
    assert_int_equal(r->sig.verdict, SP_VERDICT_NO_PER_CALL_DATA);
    assert_string_equal(sp_verdict_text(r->sig.verdict), "n/a (no per-call data)");
    /* a budget check without a verdict falls back to the budget */
    sp_check_options k = {0, 0, 1, 0};
    assert_true(sp_compare_row_violates(r, &k));
    sp_comparison_free(c);
    o.metric = SP_METRIC_P95;
    assert_null(sp_compare(&ca, 1, &cb, 1, &o, &err));
    assert_int_equal(err.status, SP_ERR_UNAVAILABLE);
    assert_string_equal(err.message,
                        "agg_a.h5 holds no per-call data (aggregate file): the metric p95 needs "
                        "per-call durations (use total, avg, min, max, calls or imbalance)");
    sp_results_free(a);
    sp_results_free(b);
}

static char *text_of(void (*fn)(sp_textbuf *, const sp_comparison *, const sp_compare_doc *),
                     const sp_comparison *c, const sp_compare_doc *d) {
    sp_textbuf b = SP_TEXTBUF_INIT;
    fn(&b, c, d);
    return sp_textbuf_take(&b);
}

static void test_csv_and_json(void **state) {
    const char *inc[] = {"work", "old", "new"};
    sp_compare_options o = {0};
    o.filter.include = inc;
    o.filter.num_include = 3;
    o.metric = SP_METRIC_CALLS; /* a region without calls counts 0 calls, as in Python */
    sp_comparison *c = compare(*state, &o);
    const char *fa[] = {"a.h5"}, *fb[] = {"b.h5"};
    sp_compare_doc d = {"diff", "base - a.h5 (1 rank)", "new - b.h5 (1 rank)", fa, 1, fb, 1, 0,
                        NULL};
    char *csv = text_of(sp_compare_csv, c, &d);
    assert_string_equal(csv, "name,a,b,delta,pct,runs_a,runs_b\r\n"
                             "new,0,1,1,,1,1\r\n"
                             "old,1,0,-1,-100.0,1,1\r\n"
                             "work,2,2,0,0.0,1,1\r\n");
    free(csv);
    sp_comparison_free(c);
    o.metric = SP_METRIC_TOTAL; /* here a region without calls has no value */
    c = compare(*state, &o);
    char *json = sp_compare_json(c, &d);
    assert_string_equal(json, "{\n"
                              "  \"command\": \"diff\",\n"
                              "  \"a\": {\n"
                              "    \"title\": \"base - a.h5 (1 rank)\",\n"
                              "    \"files\": [\n"
                              "      \"a.h5\"\n"
                              "    ]\n"
                              "  },\n"
                              "  \"b\": {\n"
                              "    \"title\": \"new - b.h5 (1 rank)\",\n"
                              "    \"files\": [\n"
                              "      \"b.h5\"\n"
                              "    ]\n"
                              "  },\n"
                              "  \"metric\": \"total\",\n"
                              "  \"by\": \"region\",\n"
                              "  \"rows\": [\n"
                              "    {\n"
                              "      \"name\": \"work\",\n"
                              "      \"a\": 5e-05,\n"
                              "      \"b\": 8e-05,\n"
                              "      \"delta\": 3.0000000000000004e-05,\n"
                              "      \"pct\": 60.00000000000001,\n"
                              "      \"runs_a\": 1,\n"
                              "      \"runs_b\": 1\n"
                              "    },\n"
                              "    {\n"
                              "      \"name\": \"new\",\n"
                              "      \"a\": null,\n"
                              "      \"b\": 2e-06,\n"
                              "      \"delta\": 2e-06,\n"
                              "      \"pct\": null,\n"
                              "      \"runs_a\": 0,\n"
                              "      \"runs_b\": 1\n"
                              "    },\n"
                              "    {\n"
                              "      \"name\": \"old\",\n"
                              "      \"a\": 1e-06,\n"
                              "      \"b\": null,\n"
                              "      \"delta\": -1e-06,\n"
                              "      \"pct\": -100.0,\n"
                              "      \"runs_a\": 1,\n"
                              "      \"runs_b\": 0\n"
                              "    }\n"
                              "  ],\n"
                              "  \"only_in_a\": [\n"
                              "    \"old\"\n"
                              "  ],\n"
                              "  \"only_in_b\": [\n"
                              "    \"new\"\n"
                              "  ]\n"
                              "}\n");
    free(json);
    sp_comparison_free(c);
}

static void test_text_table(void **state) {
    const char *inc[] = {"work", "new"};
    sp_compare_options o = {0};
    o.filter.include = inc;
    o.filter.num_include = 2;
    sp_comparison *c = compare(*state, &o);
    sp_textbuf b = SP_TEXTBUF_INIT;
    sp_compare_text(&b, c, "Regions (2)", 0, 0);
    assert_string_equal(
        sp_textbuf_str(&b),
        "Regions (2)\n"
        "  ╭──────────┬─────────────────┬─────────────────┬─────────┬─────────────╮\n"
        "  │ region   │ total [s] (a)   │ total [s] (b)   │ delta   │ delta [%]   │\n"
        "  ├──────────┼─────────────────┼─────────────────┼─────────┼─────────────┤\n"
        "  │ work     │ 5e-05           │ 8e-05           │ +3e-05  │ +60%        │\n"
        "  │ new      │ -               │ 2e-06           │ +2e-06  │ -           │\n"
        "  ╰──────────┴─────────────────┴─────────────────┴─────────┴─────────────╯\n"
        "  Only in b: new\n"
        "\n");
    sp_textbuf_free(&b);
    sp_comparison_free(c);
}

static void test_bad_arguments(void **state) {
    pair *p = *state;
    const sp_results *a = p->a;
    sp_error err = {0};
    assert_null(sp_compare(&a, 1, NULL, 0, NULL, &err));
    assert_int_equal(err.status, SP_ERR_INVALID_ARGUMENT);
    sp_compare_options o = {0};
    o.level = 1.5;
    assert_null(sp_compare(&a, 1, &a, 1, &o, &err));
    assert_int_equal(err.status, SP_ERR_INVALID_ARGUMENT);
}

/* Back-to-back calls of region 0 with the given durations (ns). */
static sp_results *calls_of(const char *path, const int64_t *d, size_t n) {
    static const char *const one[] = {"work"};
    mb_call c[8];
    int64_t t = 0;
    for (size_t i = 0; i < n; i++) {
        c[i] = (mb_call){0, 0, t, t + d[i], MB_NO_THREAD};
        t += d[i] + 1000;
    }
    mb_spec spec = {.path = path, .regions = one, .num_regions = 1, .calls = c, .num_calls = n};
    return mb_results(&spec);
}

/* Totals whose sum of float seconds and exact integer sum print differently
 * (%.6g, the table's format): 3324605 ns and 3979625 ns sit on a rounding tie.
 * The Python package divides the exact integer sum: 0.00332461, 0.00397962
 * (numpy's sum of the seconds would print 0.0033246 and 0.00397963). */
static void test_rounding_tie_totals(void **state) {
    (void)state;
    static const int64_t da[] = {653259, 2671346};
    static const int64_t db[] = {542611, 632380, 802866, 299071, 418104, 1284593};
    sp_results *a = calls_of("tie_a.h5", da, N(da)), *b = calls_of("tie_b.h5", db, N(db));
    const sp_results *ca = a, *cb = b;
    sp_compare_options o = {0};
    sp_error err = {0};
    sp_comparison *c = sp_compare(&ca, 1, &cb, 1, &o, &err);
    assert_non_null(c);
    char text[32];
    snprintf(text, sizeof text, "%.6g", row_named(c, "work")->a);
    assert_string_equal(text, "0.00332461");
    snprintf(text, sizeof text, "%.6g", row_named(c, "work")->b);
    assert_string_equal(text, "0.00397962");
    assert_true(row_named(c, "work")->a == 3324605 / 1e9);
    sp_comparison_free(c);
    o.metric = SP_METRIC_AVG; /* (sum / calls) / 1e9 */
    c = sp_compare(&ca, 1, &cb, 1, &o, &err);
    assert_true(row_named(c, "work")->a == (3324605 / 2.0) / 1e9);
    assert_true(row_named(c, "work")->b == (3979625 / 6.0) / 1e9);
    sp_comparison_free(c);
    sp_results_free(a);
    sp_results_free(b);
}

/* solve under "first" (3 x 100 ns) and under "second" (3 x 1000 ns): the
 * plain diff's p50 is the last path's (1000 ns), not the pooled 550 ns;
 * --by path keeps both paths exactly. */
static void test_percentile_under_several_parents(void **state) {
    (void)state;
    static const char *const two[] = {"first", "second", "solve"};
    mb_call c[8];
    size_t n = 0;
    c[n++] = (mb_call){0, 0, 0, 10000, MB_NO_THREAD};
    for (int k = 0; k < 3; k++)
        c[n++] = (mb_call){2, 0, 1000 + k * 1000, 1100 + k * 1000, MB_NO_THREAD};
    c[n++] = (mb_call){1, 0, 20000, 40000, MB_NO_THREAD};
    for (int k = 0; k < 3; k++)
        c[n++] = (mb_call){2, 0, 21000 + k * 2000, 22000 + k * 2000, MB_NO_THREAD};
    mb_spec spec = {.regions = two, .num_regions = 3, .calls = c, .num_calls = n};
    sp_results *r = mb_results(&spec);
    const sp_results *cr = r;
    sp_compare_options o = {0};
    o.metric = SP_METRIC_P50;
    sp_error err = {0};
    sp_comparison *cmp = sp_compare(&cr, 1, &cr, 1, &o, &err);
    assert_non_null(cmp);
    assert_near(row_named(cmp, "solve")->a, 1000e-9);
    sp_comparison_free(cmp);
    o.by = SP_COMPARE_BY_PATH;
    cmp = sp_compare(&cr, 1, &cr, 1, &o, &err);
    assert_near(row_named(cmp, "first > solve")->a, 100e-9);
    assert_near(row_named(cmp, "second > solve")->a, 1000e-9);
    sp_comparison_free(cmp);
    sp_results_free(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_total_rows_exact, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sorts_and_threshold, setup, teardown),
        cmocka_unit_test_setup_teardown(test_every_metric, setup, teardown),
        cmocka_unit_test(test_metric_names),
        cmocka_unit_test_setup_teardown(test_call_paths, setup, teardown),
        cmocka_unit_test_setup_teardown(test_include_exclude, setup, teardown),
        cmocka_unit_test(test_several_ranks),
        cmocka_unit_test(test_rounding_tie_totals),
        cmocka_unit_test(test_percentile_under_several_parents),
        cmocka_unit_test_setup_teardown(test_check_budget, setup, teardown),
        cmocka_unit_test_setup_teardown(test_aggregate_files, setup, teardown),
        cmocka_unit_test_setup_teardown(test_csv_and_json, setup, teardown),
        cmocka_unit_test_setup_teardown(test_text_table, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_arguments, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
