/*
 * The regression gate's run-level verdicts (docs/compare.md § Significance):
 * the calibration on seeded run sets (a model of run-to-run noise: each
 * run's value = base x (1 + slowdown) x exp(noise x N(0, 1))) reproduces its
 * false-alarm and power figures exactly; the no change / inconclusive /
 * one-run cases and the runs a decision needs; check --strict.
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

#include "scope_profiler/compare.h"

#define RUNS 5
/* The figures test_calibration_figures measured for its seeds (1.4 % noise, level 0.01). */
#define AA_SLOWER    4
#define AA_FASTER    2
#define AA_NO_CHANGE 28
#define AB_SLOWER    188

static void runs(uint64_t *seed, double slowdown, double noise, double *out, size_t n) {
    for (size_t i = 0; i < n; i++)
        out[i] = 1e-3 * (1.0 + slowdown) * exp(noise * normal(seed));
}

static sp_calibration_counts calibrate(uint64_t seed, int pairs, double slowdown, double noise,
                                       double level) {
    sp_calibration_counts c = {0};
    double a[RUNS], b[RUNS];
    for (int p = 0; p < pairs; p++) {
        runs(&seed, 0.0, noise, a, RUNS);
        runs(&seed, slowdown, noise, b, RUNS);
        sp_significance s = sp_significance_runs(a, RUNS, b, RUNS, level, 0.0);
        assert_int_equal(s.method, SP_SIG_RUNS);
        sp_calibration_count(&c, &s);
    }
    return c;
}

static void test_calibration_figures(void **state) {
    (void)state;
    /* 1.4 % run-to-run noise, 5 runs per side, level 0.01 */
    sp_calibration_counts aa = calibrate(2026, 1000, 0.0, 0.014, 0.01);
    sp_calibration_counts ab = calibrate(2027, 200, 0.05, 0.014, 0.01);
    print_message("A/A: %u slower, %u faster, %u no change, %u inconclusive of %u; noise %.4f\n",
                  aa.slower, aa.faster, aa.no_change, aa.inconclusive, aa.pairs,
                  sp_calibration_noise(&aa));
    print_message("A/B +5 %%: %u slower, %u inconclusive of %u\n", ab.slower, ab.inconclusive,
                  ab.pairs);
    /* the figures for this seed, exactly */
    assert_int_equal(aa.pairs, 1000);
    assert_int_equal(aa.slower, AA_SLOWER);
    assert_int_equal(aa.faster, AA_FASTER);
    assert_int_equal(aa.no_change, AA_NO_CHANGE);
    assert_int_equal(ab.slower, AB_SLOWER);
    /* and what they promise: false alarms at most the level + 1 point, power >= 0.9 */
    assert_true(aa.slower + aa.faster <= 20);
    assert_true(ab.slower >= 180);
    assert_int_equal(ab.faster, 0);
    assert_true(fabs(sp_calibration_noise(&aa) - 0.014) < 0.001);
}

static void test_one_run_and_too_few(void **state) {
    (void)state;
    double a = 1.0, b = 2.0;
    sp_significance s = sp_significance_runs(&a, 1, &b, 1, 0.01, 0.0);
    assert_int_equal(s.verdict, SP_VERDICT_ONE_RUN);
    assert_string_equal(s.text, "inconclusive (1 run per side)");
    assert_true(isnan(s.ratio));
    double two[2] = {1.0, 1.1};
    s = sp_significance_runs(&a, 1, two, 2, 0.01, 0.0);
    assert_int_equal(s.verdict, SP_VERDICT_TOO_FEW_CALLS);
    assert_string_equal(s.text, "n/a (fewer than 2 runs on a side)");
    double bad[2] = {1.0, 0.0};
    s = sp_significance_runs(two, 2, bad, 2, 0.01, 0.0);
    assert_int_equal(s.verdict, SP_VERDICT_NOT_A_DURATION);
}

static void test_no_change_inside_margin(void **state) {
    (void)state;
    /* spread 0.1 %: the 99 % interval of equal sides lies well inside +/- 2 % */
    double a[4] = {1.000, 1.001, 0.999, 1.0005}, b[4] = {1.0005, 0.9995, 1.001, 1.000};
    sp_significance s = sp_significance_runs(a, 4, b, 4, 0.01, 0.0);
    assert_int_equal(s.verdict, SP_VERDICT_NO_CHANGE);
    assert_string_equal(s.text, "no change");
    assert_true(s.ratio_low >= 0.98 && s.ratio_high <= 1.02);
    assert_int_equal(s.runs_needed, 0);
    /* a margin of 0.01 % is narrower than that interval: inconclusive */
    s = sp_significance_runs(a, 4, b, 4, 0.01, 0.0001);
    assert_int_equal(s.verdict, SP_VERDICT_INCONCLUSIVE);
}

/* Runs with sample mean exactly m and log spread sd (symmetric pairs). */
static void spread(double m, double sd, double *out, size_t n) {
    for (size_t i = 0; i < n; i++) /* +-d alternately; sample sd of n values = d sqrt(n/(n-1)) */
        out[i] = m * exp((i % 2 ? -1.0 : 1.0) * sd * sqrt((double)(n - 1) / (double)n));
}

static void test_inconclusive_says_runs_needed(void **state) {
    (void)state;
    double a[4], b[4];
    spread(1.0, 0.05, a, 4);
    spread(1.0, 0.05, b, 4);
    sp_significance s = sp_significance_runs(a, 4, b, 4, 0.01, 0.0);
    assert_int_equal(s.verdict, SP_VERDICT_INCONCLUSIVE);
    assert_true(fabs(s.spread_a - 0.05) < 1e-12 && fabs(s.spread_b - 0.05) < 1e-12);
    uint32_t n = s.runs_needed;
    assert_true(n > 4 && n < 1000);
    char want[64];
    snprintf(want, sizeof want, "inconclusive (about %u runs per side needed)", n);
    assert_string_equal(s.text, want);
    /* with that many runs at the same spread the verdict is decided; one fewer is not */
    double *ma = malloc(n * sizeof *ma), *mb = malloc(n * sizeof *mb);
    spread(1.0, 0.05, ma, n);
    spread(1.0, 0.05, mb, n);
    if (n % 2) { /* an odd count: keep the mean exact with a middle run */
        ma[n - 1] = mb[n - 1] = 1.0;
    }
    s = sp_significance_runs(ma, n, mb, n, 0.01, 0.0);
    assert_int_equal(s.verdict, SP_VERDICT_NO_CHANGE);
    free(ma);
    free(mb);
    /* a spread no run count fixes */
    spread(1.0, 3.0, a, 4);
    s = sp_significance_runs(a, 4, b, 4, 0.01, 0.0);
    assert_int_equal(s.runs_needed, UINT32_MAX);
    assert_string_equal(s.text, "inconclusive (over 1000 runs per side needed)");
}

static void test_check_strict(void **state) {
    (void)state;
    sp_compare_row r = {0};
    r.in_a = r.in_b = 1;
    r.has_pct = 1;
    r.pct = 1.0;
    r.sig.verdict = SP_VERDICT_INCONCLUSIVE;
    r.sig.ratio_low = 0.9;
    r.sig.ratio_high = 1.2;
    sp_check_options k = {5.0, 0, 1, 0};
    assert_false(sp_compare_row_violates(&r, &k)); /* inconclusive passes */
    k.strict = 1;
    assert_true(sp_compare_row_violates(&r, &k)); /* +20 % not ruled out */
    r.sig.ratio_high = 1.04;
    assert_false(sp_compare_row_violates(&r, &k)); /* within the 5 % budget */
    r.sig.verdict = SP_VERDICT_SLOWER;
    r.pct = 6.0;
    k.strict = 0;
    assert_true(sp_compare_row_violates(&r, &k));
    r.sig.verdict = SP_VERDICT_NO_CHANGE;
    assert_false(sp_compare_row_violates(&r, &k));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_calibration_figures),
        cmocka_unit_test(test_one_run_and_too_few),
        cmocka_unit_test(test_no_change_inside_margin),
        cmocka_unit_test(test_inconclusive_says_runs_needed),
        cmocka_unit_test(test_check_strict),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
