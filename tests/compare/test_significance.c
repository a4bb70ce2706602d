/*
 * The verdicts' calibration, with fixed seeds: a real 3 % slowdown is
 * found; runs drawn from one distribution are called significant in at most
 * the level's share of 1,000 repetitions (plus three binomial standard
 * deviations); run-to-run offsets fool the per-call test but not the
 * run-level test of pooled repeats; more repeats narrow the interval; the
 * t distribution against known quantiles.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../support/seeded_random.h"

#include "compare/compare_internal.h"
#include "model_builder.h"

#define REPEATS 1000

/* splitmix64: a small generator with a fixed, portable sequence. */
static const char *const region_names[] = {"solve"};

/* One run: `calls` back-to-back calls of mean_ns * (1 + offset) with
 * relative noise `noise` per call. */
static sp_results *make_run(uint64_t *seed, size_t calls, double mean_ns, double noise,
                            double offset) {
    mb_call *c = malloc(calls * sizeof *c);
    int64_t t = 0;
    for (size_t i = 0; i < calls; i++) {
        double d = mean_ns * (1.0 + offset) * (1.0 + noise * normal(seed));
        int64_t ns = d < 1.0 ? 1 : (int64_t)llround(d);
        c[i] = (mb_call){0, 0, t, t + ns, MB_NO_THREAD};
        t += ns + 10;
    }
    mb_spec spec = {.regions = region_names, .num_regions = 1, .calls = c, .num_calls = calls};
    sp_results *r = mb_results(&spec);
    free(c);
    return r;
}

static int significant(sp_verdict v) {
    return v == SP_VERDICT_SLOWER || v == SP_VERDICT_FASTER;
}

/* One run per side: the per-call test (--per-call); several: the run-level test. */
static sp_compare_row compare_runs(sp_results **a, size_t na, sp_results **b, size_t nb,
                                   double level, sp_metric metric) {
    sp_compare_options o = {0};
    o.significance = 1;
    o.per_call = na == 1 || nb == 1;
    o.level = level;
    o.metric = metric;
    sp_error err = {0};
    sp_comparison *c =
        sp_compare((const sp_results *const *)a, na, (const sp_results *const *)b, nb, &o, &err);
    if (!c) fail_msg("sp_compare: %s", err.message);
    assert_int_equal(c->count, 1);
    sp_compare_row row = c->rows[0];
    row.name = NULL;
    sp_comparison_free(c);
    return row;
}

static void free_runs(sp_results **r, size_t n) {
    for (size_t i = 0; i < n; i++)
        sp_results_free(r[i]);
}

static void test_three_percent_slower_is_found(void **state) {
    (void)state;
    uint64_t seed = 12;
    sp_results *a = make_run(&seed, 1000, 1e6, 0.01, 0.0);
    sp_results *b = make_run(&seed, 1000, 1.03e6, 0.01, 0.0);
    sp_compare_row r = compare_runs(&a, 1, &b, 1, 0.01, SP_METRIC_AVG);
    assert_int_equal(r.sig.verdict, SP_VERDICT_SLOWER);
    assert_int_equal(r.sig.method, SP_SIG_CALLS);
    assert_true(r.sig.ratio_low > 1.025 && r.sig.ratio_high < 1.035);
    assert_true(r.sig.ratio_low < r.sig.ratio && r.sig.ratio < r.sig.ratio_high);
    assert_true(r.sig.p_value < 1e-10);
    /* and the other way round */
    r = compare_runs(&b, 1, &a, 1, 0.01, SP_METRIC_TOTAL);
    assert_int_equal(r.sig.verdict, SP_VERDICT_FASTER);
    assert_true(r.sig.ratio_high < 1.0);
    sp_results_free(a);
    sp_results_free(b);
}

/* How often runs from one distribution are called significant at `level`. */
static int false_positives(uint64_t seed, double level, size_t calls, double noise) {
    int hits = 0;
    for (int i = 0; i < REPEATS; i++) {
        sp_results *a = make_run(&seed, calls, 1e6, noise, 0.0);
        sp_results *b = make_run(&seed, calls, 1e6, noise, 0.0);
        sp_compare_row r = compare_runs(&a, 1, &b, 1, level, SP_METRIC_AVG);
        assert_true(r.sig.verdict == SP_VERDICT_NO_CHANGE || significant(r.sig.verdict) ||
                    r.sig.verdict == SP_VERDICT_INCONCLUSIVE);
        /* the interval excludes 1 exactly when the verdict is significant */
        int excludes = r.sig.ratio_low > 1.0 || r.sig.ratio_high < 1.0;
        assert_int_equal(excludes, significant(r.sig.verdict));
        hits += significant(r.sig.verdict);
        sp_results_free(a);
        sp_results_free(b);
    }
    return hits;
}

/* At most level * REPEATS plus three binomial standard deviations. */
static int tolerated(double level) {
    return (int)floor(level * REPEATS + 3.0 * sqrt(REPEATS * level * (1.0 - level)));
}

static void test_same_distribution_is_calibrated(void **state) {
    (void)state;
    int at_5 = false_positives(1, 0.05, 200, 0.01);
    int at_1 = false_positives(2, 0.01, 200, 0.05);
    print_message("false positives in %d repetitions: %d at level 0.05 (at most %d), %d at 0.01 "
                  "(at most %d)\n",
                  REPEATS, at_5, tolerated(0.05), at_1, tolerated(0.01));
    assert_true(at_5 <= tolerated(0.05));
    assert_true(at_1 <= tolerated(0.01));
    /* a test that never fires would pass the above: it must fire at about the level */
    assert_true(at_5 >= 20);
}

/* Runs on a noisy machine: each run offset by N(0, 2 %), calls with 1 % noise. */
static int run_to_run_false_positives(uint64_t seed, size_t runs, double level) {
    int hits = 0;
    sp_results *a[8], *b[8];
    for (int i = 0; i < REPEATS / 4; i++) {
        for (size_t k = 0; k < runs; k++) {
            a[k] = make_run(&seed, 100, 1e6, 0.01, 0.02 * normal(&seed));
            b[k] = make_run(&seed, 100, 1e6, 0.01, 0.02 * normal(&seed));
        }
        sp_compare_row r = compare_runs(a, runs, b, runs, level, SP_METRIC_AVG);
        assert_int_equal(r.sig.method, runs >= 2 ? SP_SIG_RUNS : SP_SIG_CALLS);
        hits += significant(r.sig.verdict);
        free_runs(a, runs);
        free_runs(b, runs);
    }
    return hits;
}

static void test_pooled_runs_count_run_to_run_variation(void **state) {
    (void)state;
    int single = run_to_run_false_positives(3, 1, 0.05);
    int pooled = run_to_run_false_positives(4, 5, 0.05);
    int n = REPEATS / 4;
    print_message("run-to-run offsets, %d repetitions at level 0.05: %d significant with one run "
                  "per side, %d with five\n",
                  n, single, pooled);
    /* per-call samples mistake the offsets for changes most of the time */
    assert_true(single > n / 2);
    assert_true(pooled <= (int)floor(0.05 * n + 3.0 * sqrt(n * 0.05 * 0.95)));
}

static double interval_width(uint64_t seed, size_t runs) {
    sp_results *a[8], *b[8];
    for (size_t k = 0; k < runs; k++) {
        a[k] = make_run(&seed, 100, 1e6, 0.01, 0.02 * normal(&seed));
        b[k] = make_run(&seed, 100, 1.1e6, 0.01, 0.02 * normal(&seed));
    }
    sp_compare_row r = compare_runs(a, runs, b, runs, 0.01, SP_METRIC_TOTAL);
    free_runs(a, runs);
    free_runs(b, runs);
    assert_int_equal(r.sig.method, SP_SIG_RUNS);
    assert_true(r.sig.ratio_low < 1.1 && 1.1 < r.sig.ratio_high);
    return r.sig.ratio_high - r.sig.ratio_low;
}

static void test_pooled_repeats_narrow_the_interval(void **state) {
    (void)state;
    double w2 = interval_width(5, 2), w4 = interval_width(6, 4), w8 = interval_width(7, 8);
    print_message("99%% interval width: %.4f with 2 runs per side, %.4f with 4, %.4f with 8\n", w2,
                  w4, w8);
    assert_true(w4 < w2);
    assert_true(w8 < w4);
}

static void test_t_distribution(void **state) {
    (void)state;
    /* two-sided 1 % and 5 % points of Student's t (standard tables) */
    static const struct {
        double df, p, t;
    } cases[] = {{1, 0.05, 12.7062047},      {2, 0.01, 9.9248432},  {5, 0.05, 2.5705818},
                 {10, 0.01, 3.1692727},      {30, 0.05, 2.0422725}, {1e9, 0.05, 1.9599640},
                 {INFINITY, 0.01, 2.5758293}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double t = cmp_t_quantile_two_sided(cases[i].p, cases[i].df);
        assert_true(fabs(t - cases[i].t) < 1e-6);
        assert_true(fabs(cmp_t_two_sided_p(cases[i].t, cases[i].df) - cases[i].p) < 1e-8);
    }
    assert_true(cmp_t_two_sided_p(0.0, 7) == 1.0);
}

static void test_edge_cases(void **state) {
    (void)state;
    sp_significance s = sp_significance_test(1, 1.0, 0.0, 10, 1.0, 0.1, 1.0, 0.01, 0.0);
    assert_int_equal(s.verdict, SP_VERDICT_TOO_FEW_CALLS);
    assert_true(isnan(s.ratio));
    s = sp_significance_test(5, 2.0, 0.0, 5, 2.0, 0.0, 1.0, 0.01, 0.0); /* no spread, equal */
    assert_int_equal(s.verdict, SP_VERDICT_NO_CHANGE);
    assert_true(s.ratio == 1.0 && s.ratio_low == 1.0 && s.ratio_high == 1.0);
    s = sp_significance_test(5, 2.0, 0.0, 5, 3.0, 0.0, 1.0, 0.01, 0.0); /* no spread, different */
    assert_int_equal(s.verdict, SP_VERDICT_SLOWER);
    assert_true(s.ratio == 1.5 && s.p_value == 0.0);
    s = sp_significance_test(100, 1.0, 0.01, 100, 1.0, 0.01, 2.0, 0.01, 0.0); /* twice the calls */
    assert_int_equal(s.verdict, SP_VERDICT_SLOWER);
    assert_true(fabs(s.ratio - 2.0) < 1e-12);
    s = sp_significance_test(5, 0.0, 0.0, 5, 0.0, 0.0, 1.0, 0.01, 0.0);
    assert_int_equal(s.verdict, SP_VERDICT_NO_CHANGE);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_three_percent_slower_is_found),
        cmocka_unit_test(test_same_distribution_is_calibrated),
        cmocka_unit_test(test_pooled_runs_count_run_to_run_variation),
        cmocka_unit_test(test_pooled_repeats_narrow_the_interval),
        cmocka_unit_test(test_t_distribution),
        cmocka_unit_test(test_edge_cases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
