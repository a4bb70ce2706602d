/*
 * Statistics on hand-built profiles with exactly known timestamps: numpy's
 * summation and percentiles (against values numpy 1.24 printed), the
 * tutorial's shapes field by field, one call, two calls, equal durations,
 * zero-length calls, pooled first/last and imbalance over ranks.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/internal.h"
#include "model_builder.h"
#include "analysis/numpy_stats.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Hand-computed values go through a few floating-point operations. */
static void assert_near(double got, double want) {
    if (!(fabs(got - want) <= 1e-12 * fmax(fabs(got), fabs(want))))
        fail_msg("got %.17g, want %.17g", got, want);
}

/* --- numpy primitives ------------------------------------------------------ */

static void test_numpy_sum_matches_numpy(void **state) {
    (void)state;
    static const struct {
        size_t n;
        double sum, std;
    } cases[] = {
        {1, 0x1.0000000000000p+0, 0x0.0p+0},
        {7, 0x1.4be2be2be2be2p+1, 0x1.1f64c20d26f17p-2},
        {8, 0x1.5be2be2be2be2p+1, 0x1.1962af5c2d815p-2},
        {9, 0x1.6a1ba1ba1ba1bp+1, 0x1.134e450009b61p-2},
        {16, 0x1.b0bbba47475d4p+1, 0x1.dd90c573db0afp-3},
        {127, 0x1.5b38ae9541ca6p+2, 0x1.aedec8381dea7p-4},
        {128, 0x1.5bb8ae9541ca7p+2, 0x1.ad5e50ee72a66p-4},
        {129, 0x1.5c37b09149ba9p+2, 0x1.abe1ecf0333e3p-4},
        {1000, 0x1.df11f45f4e61ap+2, 0x1.46705817fbd53p-5},
        {8192, 0x1.32d273ee79fcap+3, 0x1.ceba8d24aa6f3p-7},
        {8193, 0x1.32d373e67a3cap+3, 0x1.ceb35c98f919fp-7},
        {20000, 0x1.4f62202468759p+3, 0x1.28abfd38ef56fp-7},
    };
    double *x = malloc(20000 * sizeof *x), *sq = malloc(20000 * sizeof *sq);
    for (size_t c = 0; c < N(cases); c++) {
        size_t n = cases[c].n;
        for (size_t i = 0; i < n; i++)
            x[i] = 1.0 / (double)(i + 1);
        double sum = sp_numpy_sum(x, n);
        assert_true(sum == cases[c].sum);
        double mean = sum / (double)n;
        for (size_t i = 0; i < n; i++)
            sq[i] = (x[i] - mean) * (x[i] - mean);
        assert_true(sqrt(sp_numpy_sum(sq, n) / (double)n) == cases[c].std);
    }
    assert_true(sp_numpy_sum(x, 0) == 0.0);
    free(x);
    free(sq);
}

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void test_percentiles_match_numpy(void **state) {
    (void)state;
    static const struct {
        double q, want;
    } cases[] = {{0, 0x0.0p+0},
                 {1, 0x1.6d593bfa2608dp+0},
                 {33.3, 0x1.7c30dc0382c78p+5},
                 {50, 0x1.1d6db6db6db6ep+6},
                 {95, 0x1.0f283a83a83a8p+7},
                 {99, 0x1.1a930463796acp+7},
                 {99.9, 0x1.1d24a502a215bp+7},
                 {100, 0x1.1d6db6db6db6ep+7}};
    double x[1000];
    int64_t ints[1000];
    for (int i = 0; i < 1000; i++) {
        ints[i] = (i * 7919) % 1000;
        x[i] = (double)ints[i] / 7.0;
    }
    qsort(x, 1000, sizeof *x, compare_double);
    for (size_t c = 0; c < N(cases); c++) {
        assert_true(sp_numpy_percentile_sorted(x, 1000, cases[c].q) == cases[c].want);
        double got;
        sp_span span = {ints, 1000}; /* selection on the unsorted values */
        assert_int_equal(sp_percentiles_spans(&span, 1, 0, 999, &cases[c].q, 1, 7.0, &got), SP_OK);
        assert_true(got == cases[c].want);
    }
    assert_true(isnan(sp_numpy_percentile_sorted(x, 0, 50)));
}

/* Selection agrees with sorting on random, duplicate-heavy, skewed and tiny
 * inputs, split over several spans, large enough for the radix passes. */
static void test_selection_equals_sorting(void **state) {
    (void)state;
    static const size_t sizes[] = {1, 2, 3, 17, 100, 2049, 4099, 70001};
    static const double qs[] = {99, 0, 50, 95, 100, 12.5, 99.99, 0.001};
    uint64_t seed = 42;
    int64_t *x = malloc(70001 * sizeof *x);
    double *sorted = malloc(70001 * sizeof *sorted);
    for (int shape = 0; shape < 4; shape++) {
        for (size_t s = 0; s < N(sizes); s++) {
            size_t n = sizes[s];
            int64_t lo = INT64_MAX, hi = INT64_MIN;
            for (size_t i = 0; i < n; i++) {
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                x[i] = shape == 0   ? (int64_t)(seed >> 61)        /* 8 values */
                       : shape == 1 ? (int64_t)(seed >> 20)        /* wide */
                       : shape == 2 ? (int64_t)(seed >> 50) - 5000 /* negative too */
                                    : (i % 1000 ? 100 + (int64_t)(seed >> 60) : INT64_MAX / 3);
                if (x[i] < lo) lo = x[i];
                if (x[i] > hi) hi = x[i];
                sorted[i] = (double)x[i] / 1e9;
            }
            qsort(sorted, n, sizeof *sorted, compare_double);
            sp_span spans[3] = {{x, n / 3}, {x + n / 3, n / 2 - n / 3}, {x + n / 2, n - n / 2}};
            double got[N(qs)];
            assert_int_equal(sp_percentiles_spans(spans, 3, lo, hi, qs, N(qs), 1e9, got), SP_OK);
            for (size_t k = 0; k < N(qs); k++)
                if (got[k] != sp_numpy_percentile_sorted(sorted, n, qs[k]))
                    fail_msg("shape %d n %zu q %g: %.17g", shape, n, qs[k], got[k]);
        }
    }
    free(x);
    free(sorted);
}

/* --- the tutorial's shapes --------------------------------------------------- */

enum { ASSEMBLE, SETUP, TIMESTEP, SOLVE };
static const char *const tutorial_regions[] = {"assemble", "setup", "timestep", "solve"};

/* setup once, then 5 timesteps holding assemble (4, 8, 12, 4, 8 us) and solve
 * (3000 + k ns); each timestep adds 35 ns of its own. */
static size_t tutorial_calls(mb_call *calls) {
    size_t n = 0;
    calls[n++] = (mb_call){SETUP, 0, 1000100, 1020100, MB_NO_THREAD};
    for (int k = 0; k < 5; k++) {
        int64_t t = 1030000 + k * 100000, a = 4000 * (1 + k % 3), s = 3000 + k;
        calls[n++] = (mb_call){TIMESTEP, 0, t, t + 10 + a + 5 + s + 20, MB_NO_THREAD};
        calls[n++] = (mb_call){ASSEMBLE, 0, t + 10, t + 10 + a, MB_NO_THREAD};
        calls[n++] = (mb_call){SOLVE, 0, t + 10 + a + 5, t + 10 + a + 5 + s, MB_NO_THREAD};
    }
    return n;
}

static sp_results *tutorial(void) {
    static mb_call calls[16];
    mb_spec spec = {.regions = tutorial_regions,
                    .num_regions = 4,
                    .calls = calls,
                    .num_calls = tutorial_calls(calls),
                    .has_start = 1,
                    .start_time_ns = 1000000,
                    .has_finalize = 1,
                    .finalize_time_ns = 1600000,
                    .label = "tutorial 2"};
    return mb_results(&spec);
}

static void test_tutorial_timestep(void **state) {
    (void)state;
    sp_results *r = tutorial();
    sp_error err = {0};
    const sp_mpi_region *ts = sp_results_get(r, "timestep", &err);
    assert_non_null(ts);
    /* durations 7035, 11036, 15037, 7038, 11039 ns; mean 10237 */
    assert_int_equal(sp_mpi_region_num_calls(ts), 5);
    assert_int_equal(sp_mpi_region_total_duration_ns(ts), 51185);
    assert_true(sp_mpi_region_total_duration(ts) == 51185 / 1e9);
    assert_near(sp_mpi_region_average_duration(ts), 10237e-9);
    assert_true(sp_mpi_region_min_duration(ts) == 7035 / 1e9);
    assert_true(sp_mpi_region_max_duration(ts) == 15037 / 1e9);
    assert_true(sp_mpi_region_first_duration(ts) == 7035 / 1e9);
    assert_true(sp_mpi_region_last_duration(ts) == 11039 / 1e9);
    assert_near(sp_mpi_region_std_duration(ts), sqrt(44808010.0 / 5) / 1e9);
    assert_near(sp_mpi_region_exclusive_duration(ts, &err), 175e-9);
    assert_near(sp_mpi_region_percentile(ts, 50, &err), 11036e-9);
    assert_near(sp_mpi_region_percentile(ts, 95, &err), 14237.4e-9);
    assert_near(sp_mpi_region_percentile(ts, 99, &err), 14877.08e-9);
    assert_true(sp_mpi_region_imbalance(ts) == 0.0);
    assert_true(sp_mpi_region_imbalance_pct(ts) == 0.0);
    sp_summary s;
    assert_int_equal(sp_mpi_region_get_summary(ts, &s, &err), SP_OK);
    assert_true(s.total_duration == s.inclusive_duration);
    assert_near(s.exclusive_duration, 175e-9);
    assert_true(s.std_duration == sp_mpi_region_std_duration(ts));
    sp_results_free(r);
}

static void test_tutorial_rank_region(void **state) {
    (void)state;
    sp_results *r = tutorial();
    sp_error err = {0};
    const sp_rank_region *rr = sp_mpi_region_rank(sp_results_get(r, "timestep", &err), 0, &err);
    assert_non_null(rr);
    assert_int_equal(sp_rank_region_rank(rr), 0);
    assert_string_equal(sp_rank_region_name(rr), "timestep");
    double d[5], s[5], e[5];
    assert_int_equal(sp_rank_region_durations(rr, d, 5), SP_OK);
    assert_int_equal(sp_rank_region_start_times(rr, s, 5), SP_OK);
    assert_int_equal(sp_rank_region_end_times(rr, e, 5), SP_OK);
    assert_true(d[2] == 15037 / 1e9);
    assert_true(s[1] == 1130000 / 1e9);
    assert_true(e[1] == (1130000 + 11036) / 1e9);
    assert_int_equal(sp_rank_region_start_times_ns(rr)[4], 1430000);
    assert_int_equal(sp_rank_region_durations_ns(rr)[4], 11039);
    sp_summary sum;
    assert_int_equal(sp_rank_region_get_summary(rr, &sum, &err), SP_OK);
    assert_int_equal(sum.num_calls, 5);
    assert_true(sum.average_duration == 10237 / 1e9); /* (sum / n) / 1e9, exact here */
    assert_true(sum.first_duration == 7035 / 1e9 && sum.last_duration == 11039 / 1e9);
    assert_true(sum.std_duration == sqrt(44808010.0 / 5) / 1e9);
    assert_near(sum.exclusive_duration, 175e-9);
    assert_true(sp_rank_region_percentile(rr, 50, &err) == 11036 / 1e9);
    assert_near(sp_rank_region_percentile(rr, 95, &err), 14237.4e-9);
    assert_true(sp_rank_region_first_start_time(rr) == 1030000 / 1e9);
    assert_true(sp_rank_region_last_end_time(rr) == (1430000 + 11039) / 1e9);
    sp_results_free(r);
}

static void test_tutorial_summary_rows(void **state) {
    (void)state;
    sp_results *r = tutorial();
    sp_error err = {0};
    sp_summary_rows *rows = sp_results_summary(r, NULL, 0, &err);
    assert_non_null(rows);
    assert_int_equal(rows->count, 4);
    static const char *order[] = {"setup", "timestep", "assemble", "solve"};
    static const double totals[] = {20000e-9, 51185e-9, 36000e-9, 15010e-9};
    static const double exclusive[] = {20000e-9, 175e-9, 36000e-9, 15010e-9};
    for (int i = 0; i < 4; i++) {
        const sp_summary_row *row = &rows->rows[i];
        assert_string_equal(row->name, order[i]);
        assert_int_equal(row->rank, -1);
        assert_int_equal(row->num_ranks, 1);
        assert_near(row->total_duration, totals[i]);
        assert_near(row->exclusive_duration, exclusive[i]);
        assert_string_equal(row->tags, "[]");
        assert_true(row->has_percentiles);
        assert_true(row->rank_imbalance == 0.0 && row->rank_imbalance_pct == 0.0);
    }
    /* assemble: 4000, 8000, 12000, 4000, 8000 */
    const sp_summary_row *a = &rows->rows[2];
    assert_int_equal(a->num_calls, 5);
    assert_near(a->p50_duration, 8000e-9);
    assert_near(a->p95_duration, 11200e-9); /* 8000 + 0.8 * 4000 */
    assert_near(a->p99_duration, 11840e-9);
    assert_near(a->std_duration, sqrt(44800000.0 / 5) / 1e9); /* mean 7200 */
    assert_true(a->first_duration == 4000 / 1e9 && a->last_duration == 8000 / 1e9);
    sp_summary_rows_free(rows);
    rows = sp_results_summary(r, NULL, 1, &err);
    assert_int_equal(rows->count, 4);
    assert_int_equal(rows->rows[1].rank, 0);
    assert_true(rows->rows[1].p50_duration == 11036 / 1e9);
    sp_summary_rows_free(rows);
    sp_results_free(r);
}

/* --- small cases --------------------------------------------------------------- */

static sp_results *one_region(const int64_t *durations, size_t n) {
    static const char *const names[] = {"r"};
    mb_call *calls = calloc(n, sizeof *calls);
    int64_t t = 1000;
    for (size_t i = 0; i < n; i++) {
        calls[i] = (mb_call){0, 0, t, t + durations[i], MB_NO_THREAD};
        t += durations[i] + 10;
    }
    mb_spec spec = {.regions = names, .num_regions = 1, .calls = calls, .num_calls = n};
    sp_results *r = mb_results(&spec);
    free(calls);
    return r;
}

static void test_one_call(void **state) {
    (void)state;
    static const int64_t d[] = {5000};
    sp_results *r = one_region(d, 1);
    sp_error err = {0};
    const sp_mpi_region *mr = sp_results_region_at(r, 0);
    assert_true(sp_mpi_region_std_duration(mr) == 0.0);
    for (int q = 0; q <= 100; q += 25)
        assert_true(sp_mpi_region_percentile(mr, q, &err) == 5e-6);
    assert_true(sp_mpi_region_first_duration(mr) == 5e-6 &&
                sp_mpi_region_last_duration(mr) == 5e-6);
    assert_true(sp_mpi_region_average_duration(mr) == 5e-6);
    assert_true(sp_mpi_region_exclusive_duration(mr, &err) == 5e-6);
    sp_results_free(r);
}

static void test_two_calls(void **state) {
    (void)state;
    static const int64_t d[] = {3000, 1000};
    sp_results *r = one_region(d, 2);
    sp_error err = {0};
    const sp_mpi_region *mr = sp_results_region_at(r, 0);
    assert_near(sp_mpi_region_percentile(mr, 50, &err), 2000e-9);
    assert_near(sp_mpi_region_percentile(mr, 95, &err), 2900e-9);
    assert_near(sp_mpi_region_percentile(mr, 99, &err), 2980e-9);
    assert_near(sp_mpi_region_std_duration(mr), 1000e-9);
    assert_true(sp_mpi_region_first_duration(mr) == 3e-6);
    assert_true(sp_mpi_region_last_duration(mr) == 1e-6);
    assert_true(sp_mpi_region_min_duration(mr) == 1e-6);
    sp_results_free(r);
}

static void test_equal_durations(void **state) {
    (void)state;
    static const int64_t d[] = {2000, 2000, 2000, 2000, 2000, 2000, 2000};
    sp_results *r = one_region(d, N(d));
    sp_error err = {0};
    const sp_mpi_region *mr = sp_results_region_at(r, 0);
    assert_true(sp_mpi_region_std_duration(mr) == 0.0);
    assert_true(sp_mpi_region_percentile(mr, 95, &err) == 2e-6);
    assert_near(sp_mpi_region_average_duration(mr), 2e-6);
    sp_results_free(r);
}

/* Zero-length calls: one at a parent's start nests in it, one at its end is a
 * sibling, two at the same instant nest in each other. */
static void test_zero_length_calls(void **state) {
    (void)state;
    static const char *const names[] = {"parent", "zero"};
    static const mb_call calls[] = {
        {0, 0, 50, 300, MB_NO_THREAD},  {1, 0, 50, 50, MB_NO_THREAD},
        {1, 0, 100, 100, MB_NO_THREAD}, {1, 0, 100, 100, MB_NO_THREAD},
        {1, 0, 300, 300, MB_NO_THREAD},
    };
    mb_spec spec = {.regions = names, .num_regions = 2, .calls = calls, .num_calls = N(calls)};
    sp_results *r = mb_results(&spec);
    sp_error err = {0};
    const sp_mpi_region *z = sp_results_get(r, "zero", &err);
    assert_true(sp_mpi_region_exclusive_duration(sp_results_get(r, "parent", &err), &err) ==
                250e-9);
    assert_true(sp_mpi_region_exclusive_duration(z, &err) == 0.0);
    assert_true(sp_mpi_region_std_duration(z) == 0.0);
    assert_true(sp_mpi_region_percentile(z, 99, &err) == 0.0);
    assert_true(sp_mpi_region_max_duration(z) == 0.0);
    sp_table_rows rows;
    assert_int_equal(sp_table_rows_build(r, NULL, NULL, NULL, &rows, &err), SP_OK);
    /* parent; parent > zero (3 calls: at 50 and the pair at 100); parent > zero > zero
     * collapses into the same row; the call at 300 is a root of its own. */
    assert_int_equal(rows.count, 3);
    assert_string_equal(rows.rows[0].call_path, "parent");
    assert_string_equal(rows.rows[1].call_path, "parent > zero");
    assert_int_equal(rows.rows[1].calls, 3);
    assert_true(rows.rows[1].recursive);
    assert_string_equal(rows.rows[2].call_path, "zero");
    assert_int_equal(rows.rows[2].calls, 1);
    sp_table_rows_free(&rows);
    sp_results_free(r);
}

/* --- several ranks ---------------------------------------------------------------- */

static const char *const work_regions[] = {"work"};

/* rank r runs one call of (r + 1) us; rows in rank order 2, 0, 1 (the rank dict order). */
static sp_results *three_ranks(int with_idle_rank) {
    static mb_call calls[4];
    static const uint32_t order[] = {2, 0, 1, 3};
    calls[0] = (mb_call){0, 0, 5000, 6000, MB_NO_THREAD};
    calls[1] = (mb_call){0, 1, 4000, 6000, MB_NO_THREAD}; /* earliest start */
    calls[2] = (mb_call){0, 2, 6000, 9000, MB_NO_THREAD}; /* latest end */
    calls[3] = (mb_call){0, 3, 7000, 7000, MB_NO_THREAD}; /* zero total */
    mb_spec spec = {.regions = work_regions,
                    .num_regions = 1,
                    .calls = calls,
                    .num_calls = with_idle_rank ? 4 : 3,
                    .rank_order = order,
                    .num_rank_order = with_idle_rank ? 4 : 3};
    return mb_results(&spec);
}

static void test_imbalance_over_ranks(void **state) {
    (void)state;
    for (int idle = 0; idle < 2; idle++) {
        sp_results *r = three_ranks(idle);
        const sp_mpi_region *mr = sp_results_region_at(r, 0);
        assert_near(sp_mpi_region_imbalance(mr), 1.5); /* 3 us / mean(1, 2, 3 us) */
        assert_near(sp_mpi_region_imbalance_pct(mr), 50.0);
        assert_int_equal(sp_mpi_region_num_ranks(mr), idle ? 4 : 3);
        sp_results_free(r);
    }
}

static void test_pooled_first_last_and_per_rank(void **state) {
    (void)state;
    sp_results *r = three_ranks(0);
    const sp_mpi_region *mr = sp_results_region_at(r, 0);
    assert_true(sp_mpi_region_first_duration(mr) == 2e-6); /* rank 1 starts first */
    assert_true(sp_mpi_region_last_duration(mr) == 3e-6);  /* rank 2 ends last */
    assert_true(sp_mpi_region_first_start_time(mr) == 4000 / 1e9);
    assert_true(sp_mpi_region_last_end_time(mr) == 9000 / 1e9);
    /* left-to-right in rank-dict order 2, 0, 1 */
    assert_true(sp_mpi_region_total_duration(mr) == (0.0 + 3e-6) + 1e-6 + 2e-6);
    uint64_t calls[3];
    double totals[3];
    assert_int_equal(sp_mpi_region_num_calls_per_rank(mr, calls, 3), 3);
    assert_int_equal(sp_mpi_region_total_durations(mr, totals, 3), 3);
    for (uint32_t k = 0; k < 3; k++) {
        assert_int_equal(sp_mpi_region_rank_id(mr, k), k); /* ascending */
        assert_int_equal(calls[k], 1);
        assert_true(totals[k] == (double)(k + 1) * 1000 / 1e9);
    }
    sp_pool_stats p;
    sp_error err = {0};
    static const uint32_t pick[] = {2, 9, 0};
    assert_int_equal(sp_region_pool_stats(mr, pick, 3, &p, &err), SP_OK);
    assert_int_equal(p.count, 2);
    assert_true(p.first == 1e-6 && p.last == 3e-6);
    assert_near(p.total, 4e-6);
    static const uint32_t none[] = {7};
    assert_int_equal(sp_region_pool_stats(mr, none, 1, &p, &err), SP_OK);
    assert_int_equal(p.count, 0);
    const sp_rank_region *missing = sp_mpi_region_rank(mr, 7, &err);
    assert_null(missing);
    assert_int_equal(err.status, SP_ERR_NO_SUCH_RANK);
    assert_string_equal(err.message,
                        "Region 'work' has no data for rank 7. Available ranks: [0, 1, 2]");
    sp_results_free(r);
}

static void test_single_nonzero_rank_has_no_imbalance(void **state) {
    (void)state;
    static const mb_call calls[] = {{0, 0, 0, 0, MB_NO_THREAD}, {0, 1, 0, 500, MB_NO_THREAD}};
    mb_spec spec = {.regions = work_regions, .num_regions = 1, .calls = calls, .num_calls = 2};
    sp_results *r = mb_results(&spec);
    assert_true(sp_mpi_region_imbalance(sp_results_region_at(r, 0)) == 0.0);
    assert_true(sp_mpi_region_imbalance_pct(sp_results_region_at(r, 0)) == 0.0);
    sp_results_free(r);
}

/* Every array-filling getter writes at most its capacity and returns the
 * full count: 20 ranks into room for 16, 5 calls into room for 2. */
static void test_array_getters_respect_capacity(void **state) {
    (void)state;
    static const char *const regions[] = {"work"};
    mb_call calls[20 + 4];
    for (uint32_t r = 0; r < 20; r++)
        calls[r] = (mb_call){0, r, 1000 + r, 2000 + 2 * r, MB_NO_THREAD};
    for (int k = 0; k < 4; k++) /* rank 0 gets 5 calls */
        calls[20 + k] = (mb_call){0, 0, 3000 + 1000 * k, 3500 + 1000 * k, MB_NO_THREAD};
    mb_spec spec = {.regions = regions, .num_regions = 1, .calls = calls, .num_calls = 24};
    sp_results *r = mb_results(&spec);
    sp_error err = {0};
    const sp_mpi_region *mr = sp_results_get(r, "work", &err);
    assert_non_null(mr);
    uint64_t counts[20];
    double values[20];
    for (int i = 0; i < 20; i++) {
        counts[i] = 777;
        values[i] = -7.0;
    }
    assert_int_equal(sp_mpi_region_num_calls_per_rank(mr, counts, 16), 20);
    assert_int_equal(counts[0], 5);
    assert_int_equal(counts[15], 1);
    assert_int_equal(counts[16], 777); /* beyond the capacity: untouched */
    size_t (*getters[])(const sp_mpi_region *, double *, size_t) = {
        sp_mpi_region_total_durations, sp_mpi_region_average_durations,
        sp_mpi_region_min_durations, sp_mpi_region_max_durations};
    for (size_t g = 0; g < 4; g++) {
        assert_int_equal(getters[g](mr, values, 16), 20);
        assert_true(values[15] == (1000 + 15) / 1e9);
        assert_true(values[16] == -7.0);
        assert_int_equal(getters[g](mr, NULL, 0), 20);
    }
    assert_int_equal(sp_mpi_region_num_calls_per_rank(mr, NULL, 0), 20);
    const sp_rank_region *rr = sp_mpi_region_rank(mr, 0, &err);
    double d[3] = {-1.0, -1.0, -1.0};
    assert_int_equal(sp_rank_region_durations(rr, d, 2), SP_OK);
    assert_true(d[0] == 1000 / 1e9 && d[1] == 500 / 1e9 && d[2] == -1.0);
    assert_int_equal(sp_rank_region_start_times(rr, d, 1), SP_OK);
    assert_true(d[0] == 1000 / 1e9 && d[1] == 500 / 1e9);
    assert_int_equal(sp_rank_region_end_times(rr, NULL, 0), SP_OK);
    sp_results_free(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numpy_sum_matches_numpy),
        cmocka_unit_test(test_percentiles_match_numpy),
        cmocka_unit_test(test_selection_equals_sorting),
        cmocka_unit_test(test_tutorial_timestep),
        cmocka_unit_test(test_tutorial_rank_region),
        cmocka_unit_test(test_tutorial_summary_rows),
        cmocka_unit_test(test_one_call),
        cmocka_unit_test(test_two_calls),
        cmocka_unit_test(test_equal_durations),
        cmocka_unit_test(test_zero_length_calls),
        cmocka_unit_test(test_imbalance_over_ranks),
        cmocka_unit_test(test_pooled_first_last_and_per_rank),
        cmocka_unit_test(test_single_nonzero_rank_has_no_imbalance),
        cmocka_unit_test(test_array_getters_respect_capacity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
