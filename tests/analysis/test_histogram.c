/*
 * The log-linear histogram (src/model/histogram.h): bucket layout, quantiles
 * within the stated relative error of the exact (numpy linear) quantiles on
 * known workloads with fixed seeds, and merging equal to the union.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/histogram.h"

static uint64_t rng_state;

static uint64_t next_u64(void) { /* splitmix64 */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double uniform01(void) {
    return ((double)(next_u64() >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void) { /* Box-Muller */
    return sqrt(-2.0 * log(uniform01())) * cos(2.0 * M_PI * uniform01());
}

static int compare_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* numpy.percentile's default on sorted values. */
static double exact_percentile(const int64_t *sorted, size_t n, double q) {
    double pos = (double)(n - 1) * q / 100.0;
    size_t i = (size_t)floor(pos);
    if (i >= n - 1) return (double)sorted[n - 1];
    double f = pos - (double)i;
    return (double)sorted[i] + ((double)sorted[i + 1] - (double)sorted[i]) * f;
}

static void check_quantiles(int64_t *v, size_t n, const char *what) {
    sp_hist h = SP_HIST_INIT;
    for (size_t i = 0; i < n; i++)
        assert_int_equal(sp_hist_add(&h, v[i]), SP_OK);
    assert_int_equal(h.count, n);
    qsort(v, n, sizeof *v, compare_i64);
    assert_int_equal(h.min, v[0]);
    assert_int_equal(h.max, v[n - 1]);
    static const double qs[] = {0, 0.1, 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9, 100};
    double worst = 0.0;
    for (size_t k = 0; k < sizeof qs / sizeof *qs; k++) {
        double exact = exact_percentile(v, n, qs[k]), got = sp_hist_percentile(&h, qs[k]);
        double rel = fabs(got - exact) / exact;
        if (rel > worst) worst = rel;
        if (!(rel <= SP_HIST_RELATIVE_ERROR))
            fail_msg("%s p%g: histogram %.17g, exact %.17g (relative error %.5f)", what, qs[k], got,
                     exact, rel);
    }
    print_message("%s: worst relative error %.5f over %zu quantiles (bound %.5f)\n", what, worst,
                  sizeof qs / sizeof *qs, SP_HIST_RELATIVE_ERROR);
    sp_hist_free(&h);
}

#define N 200000

static void uniform_workload(void **state) {
    (void)state;
    int64_t *v = malloc(N * sizeof *v);
    assert_non_null(v);
    rng_state = 17;
    for (size_t i = 0; i < N; i++)
        v[i] = 1000 + (int64_t)(uniform01() * 999000.0); /* 1 us .. 1 ms */
    check_quantiles(v, N, "uniform");
    free(v);
}

static void lognormal_workload(void **state) {
    (void)state;
    int64_t *v = malloc(N * sizeof *v);
    assert_non_null(v);
    rng_state = 4242;
    for (size_t i = 0; i < N; i++)
        v[i] = 1 + (int64_t)exp(log(1e5) + 1.5 * normal()); /* median 100 us, wide tails */
    check_quantiles(v, N, "lognormal");
    free(v);
}

static void bimodal_workload(void **state) {
    (void)state;
    int64_t *v = malloc(N * sizeof *v);
    assert_non_null(v);
    rng_state = 99;
    for (size_t i = 0; i < N; i++) {
        double x = uniform01() < 0.7 ? 2e4 + 2e3 * normal() : 5e7 + 5e6 * normal();
        v[i] = x < 1.0 ? 1 : (int64_t)x; /* 20 us and 50 ms modes */
    }
    check_quantiles(v, N, "bimodal");
    free(v);
}

/* Small values are exact; every value lies in its bucket; buckets are at
 * most 1/64 of their lower bound wide and follow each other without gaps. */
static void bucket_layout(void **state) {
    (void)state;
    for (int64_t v = 0; v < 128; v++) {
        assert_int_equal(sp_hist_bucket(v), v);
        assert_int_equal(sp_hist_bucket_width((uint32_t)v), 1);
    }
    for (uint32_t i = 128; i < SP_HIST_NUM_BUCKETS; i++) {
        int64_t low = sp_hist_bucket_low(i), w = sp_hist_bucket_width(i);
        assert_true(64 * w <= low);
        assert_int_equal(sp_hist_bucket(low), i);
        assert_int_equal(sp_hist_bucket(low + (w - 1)), i);
        if (i + 1 < SP_HIST_NUM_BUCKETS) assert_int_equal(sp_hist_bucket_low(i + 1), low + w);
    }
    assert_int_equal(sp_hist_bucket(INT64_MAX), SP_HIST_NUM_BUCKETS - 1);
    assert_int_equal(sp_hist_bucket(-5), 0);
    sp_hist h = SP_HIST_INIT;
    assert_int_equal(sp_hist_add_bucket(&h, SP_HIST_NUM_BUCKETS, 1), SP_ERR_INVALID_ARGUMENT);
    assert_true(isnan(sp_hist_percentile(&h, 50.0)));
    assert_int_equal(sp_hist_add(&h, 777), SP_OK);
    assert_true(sp_hist_percentile(&h, 50.0) == 777.0); /* clamped to [min, max] */
    sp_hist_free(&h);
}

/* Histograms of parts (threads, ranks, runs) merged in any order equal the
 * histogram of all values, bucket for bucket. */
static void merge_equals_union(void **state) {
    (void)state;
    enum { PARTS = 5, M = 50000 };
    sp_hist parts[PARTS], all = SP_HIST_INIT, merged = SP_HIST_INIT, reversed = SP_HIST_INIT;
    for (int p = 0; p < PARTS; p++)
        parts[p] = (sp_hist)SP_HIST_INIT;
    rng_state = 7;
    for (size_t i = 0; i < M; i++) {
        int p = (int)(next_u64() % PARTS);
        /* each part its own range, so the windows differ */
        int64_t v = (int64_t)(exp(log(50.0) + (double)p * 2.0 + normal()));
        assert_int_equal(sp_hist_add(&parts[p], v), SP_OK);
        assert_int_equal(sp_hist_add(&all, v), SP_OK);
    }
    for (int p = 0; p < PARTS; p++)
        assert_int_equal(sp_hist_merge(&merged, &parts[p]), SP_OK);
    for (int p = PARTS; p-- > 0;)
        assert_int_equal(sp_hist_merge(&reversed, &parts[p]), SP_OK);
    assert_true(sp_hist_equal(&merged, &all));
    assert_true(sp_hist_equal(&reversed, &all));
    assert_int_equal(merged.count, M);
    for (double q = 0; q <= 100; q += 12.5)
        assert_true(sp_hist_percentile(&merged, q) == sp_hist_percentile(&all, q));
    sp_hist empty = SP_HIST_INIT;
    assert_int_equal(sp_hist_merge(&merged, &empty), SP_OK);
    assert_true(sp_hist_equal(&merged, &all));
    assert_false(sp_hist_equal(&merged, &parts[0]));
    for (int p = 0; p < PARTS; p++)
        sp_hist_free(&parts[p]);
    sp_hist_free(&all);
    sp_hist_free(&merged);
    sp_hist_free(&reversed);
}

/* A reserved window takes values in its range without moving; an empty
 * reserved histogram still reads as empty and merges as nothing. */
static void reserve_window(void **state) {
    (void)state;
    sp_hist h = SP_HIST_INIT, plain = SP_HIST_INIT;
    assert_int_equal(sp_hist_reserve(&h, 1000, 1000000), SP_OK);
    const uint64_t *counts = h.counts;
    uint32_t lo = h.lo, hi = h.hi;
    assert_int_equal(lo, sp_hist_bucket(1000));
    assert_int_equal(hi, sp_hist_bucket(1000000) + 1);
    assert_int_equal(h.count, 0);
    assert_true(isnan(sp_hist_percentile(&h, 50)));
    for (int64_t v = 1000; v <= 1000000; v += 997) {
        assert_int_equal(sp_hist_add(&h, v), SP_OK);
        assert_int_equal(sp_hist_add(&plain, v), SP_OK);
    }
    assert_ptr_equal(h.counts, counts); /* no reallocation */
    assert_int_equal(h.lo, lo);
    assert_int_equal(h.hi, hi);
    assert_true(sp_hist_equal(&h, &plain));
    sp_hist empty = SP_HIST_INIT, reserved = SP_HIST_INIT;
    assert_int_equal(sp_hist_reserve(&reserved, 5, 7), SP_OK);
    assert_int_equal(sp_hist_merge(&empty, &reserved), SP_OK);
    assert_int_equal(empty.count, 0);
    sp_hist_free(&h);
    sp_hist_free(&plain);
    sp_hist_free(&empty);
    sp_hist_free(&reserved);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bucket_layout),      cmocka_unit_test(uniform_workload),
        cmocka_unit_test(lognormal_workload), cmocka_unit_test(bimodal_workload),
        cmocka_unit_test(merge_equals_union), cmocka_unit_test(reserve_window),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
