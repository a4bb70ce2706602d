/*
 * Selecting regions and ranks (include/exclude patterns, rank lists), the
 * events iterator, and what aggregate-layout files can and cannot answer.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/analysis.h"
#include "model_builder.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define NT   MB_NO_THREAD

enum { ASSEMBLE, SETUP, TIMESTEP, SOLVE };
static const char *const regions[] = {"assemble", "setup", "timestep", "solve"};

/* Two ranks; rank 1 is twice as slow and runs on thread 7. A timestep lasts
 * 1000 f ns and holds assemble (200 f) and solve (100 f): 700 f of its own. */
static sp_results *two_ranks(void) {
    static mb_call calls[16];
    size_t n = 0;
    for (uint32_t rank = 0; rank < 2; rank++) {
        int64_t f = rank + 1, base = 10000 + rank * 5;
        int64_t th = rank ? 7 : 0;
        calls[n++] = (mb_call){SETUP, rank, base, base + 100 * f, th};
        for (int k = 0; k < 2; k++) {
            int64_t t = base + 1000 + k * 3000, s = t + 20 + 200 * f;
            calls[n++] = (mb_call){TIMESTEP, rank, t, t + 1000 * f, th};
            calls[n++] = (mb_call){ASSEMBLE, rank, t + 10, t + 10 + 200 * f, th};
            calls[n++] = (mb_call){SOLVE, rank, s, s + 100 * f, th};
        }
    }
    mb_spec spec = {.regions = regions,
                    .num_regions = 4,
                    .calls = calls,
                    .num_calls = n,
                    .with_threads = 1,
                    .has_start = 1,
                    .start_time_ns = 9000};
    return mb_results(&spec);
}

static void expect_regions(const sp_results *r, const sp_filter *f, const char *const *want,
                           size_t n) {
    sp_error err = {0};
    size_t count;
    const sp_mpi_region **got = sp_results_get_regions(r, f, &count, &err);
    assert_non_null(got);
    assert_int_equal(count, n);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(sp_mpi_region_name(got[i]), want[i]);
    sp_region_list_free(got);
}

static void test_region_filters(void **state) {
    (void)state;
    sp_results *r = two_ranks();
    static const char *all[] = {"setup", "timestep", "assemble", "solve"};
    expect_regions(r, NULL, all, 4);
    static const char *s[] = {"s"};
    static const char *s_want[] = {"setup", "solve"};
    expect_regions(r, &(sp_filter){.include = s, .num_include = 1}, s_want, 2);
    static const char *ex[] = {"setup", "assemble"};
    static const char *ex_want[] = {"timestep", "solve"};
    expect_regions(r, &(sp_filter){.exclude = ex, .num_exclude = 2}, ex_want, 2);
    static const char *inc[] = {"solve", "timestep"};
    expect_regions(r, &(sp_filter){.include = inc, .num_include = 2}, ex_want, 2); /* start order */
    static const char *inner[] = {"olve"}; /* anchored at the start, like re.match */
    expect_regions(r, &(sp_filter){.include = inner, .num_include = 1}, NULL, 0);
    static const char *icase[] = {"(?i)SET", ".*e$"};
    static const char *icase_want[] = {"setup", "assemble", "solve"};
    expect_regions(r, &(sp_filter){.include = icase, .num_include = 2}, icase_want, 3);
    static const char *both_in[] = {"s"}, *both_ex[] = {"so"};
    static const char *both_want[] = {"setup"};
    expect_regions(
        r, &(sp_filter){.include = both_in, .num_include = 1, .exclude = both_ex, .num_exclude = 1},
        both_want, 1);
    sp_error err = {0};
    sp_summary_rows *rows =
        sp_results_summary(r, &(sp_filter){.include = inc, .num_include = 2}, 0, &err);
    assert_int_equal(rows->count, 2);
    assert_string_equal(rows->rows[0].name, "timestep");
    sp_summary_rows_free(rows);
    sp_results_free(r);
}

static void test_bad_pattern(void **state) {
    (void)state;
    sp_results *r = two_ranks();
    sp_error err = {0};
    static const char *bad[] = {"solve", "(tim"};
    size_t count = 99;
    assert_null(
        sp_results_get_regions(r, &(sp_filter){.include = bad, .num_include = 2}, &count, &err));
    assert_int_equal(count, 0);
    assert_int_equal(err.status, SP_ERR_BAD_PATTERN);
    assert_string_equal(
        err.message, "invalid include pattern '(tim' at position 4: missing closing parenthesis");
    static const char *bad_ex[] = {"a\n["};
    assert_null(sp_results_summary(r, &(sp_filter){.exclude = bad_ex, .num_exclude = 1}, 0, &err));
    assert_int_equal(err.status, SP_ERR_BAD_PATTERN);
    assert_null(strchr(err.message, '\n')); /* one line */
    assert_non_null(strstr(err.message, "invalid exclude pattern 'a\\n[' at position 3: "));
    sp_table_rows rows;
    assert_int_equal(sp_table_rows_build(r, &(sp_filter){.include = bad, .num_include = 2}, NULL,
                                         NULL, &rows, &err),
                     SP_ERR_BAD_PATTERN);
    assert_null(
        sp_events_open(r, &(sp_event_options){.filter = {.include = bad, .num_include = 2}}, &err));
    assert_int_equal(err.status, SP_ERR_BAD_PATTERN);
    sp_results_free(r);
}

static void test_rank_filter_in_summary(void **state) {
    (void)state;
    sp_results *r = two_ranks();
    sp_error err = {0};
    static const uint32_t one[] = {1, 1, 5};
    sp_summary_rows *rows =
        sp_results_summary(r, &(sp_filter){.ranks = one, .num_ranks = 3}, 0, &err);
    assert_non_null(rows);
    const sp_summary_row *ts = &rows->rows[1];
    assert_string_equal(ts->name, "timestep");
    assert_int_equal(ts->num_ranks, 1);
    assert_int_equal(ts->num_calls, 2);
    assert_true(ts->total_duration == 4000e-9);
    assert_true(ts->rank_imbalance == 0.0);
    assert_true(ts->exclusive_duration == 2800e-9);
    sp_summary_rows_free(rows);
    rows = sp_results_summary(r, NULL, 0, &err);
    assert_int_equal(rows->rows[1].num_ranks, 2);
    assert_true(fabs(rows->rows[1].rank_imbalance - 4.0 / 3.0) < 1e-12);
    assert_true(rows->rows[1].exclusive_duration == 1400e-9 + 2800e-9);
    sp_summary_rows_free(rows);
    rows = sp_results_summary(r, &(sp_filter){.ranks = one, .num_ranks = 1}, 1, &err);
    assert_int_equal(rows->count, 4);
    for (size_t i = 0; i < rows->count; i++)
        assert_int_equal(rows->rows[i].rank, 1);
    sp_summary_rows_free(rows);
    sp_results_free(r);
}

static void test_events_order_and_values(void **state) {
    (void)state;
    sp_results *r = two_ranks();
    sp_error err = {0};
    sp_event_iter *it = sp_events_open(r, NULL, &err);
    assert_non_null(it);
    static const char *names[] = {"setup", "setup", "timestep", "timestep", "timestep", "timestep"};
    static const uint32_t ranks[] = {0, 1, 0, 0, 1, 1};
    sp_event e;
    for (size_t i = 0; i < N(names); i++) {
        assert_true(sp_events_next(it, &e));
        assert_string_equal(e.name, names[i]);
        assert_int_equal(e.rank, ranks[i]);
    }
    /* the last timestep of rank 1: starts at 14005, 2000 ns long, thread 7 */
    assert_int_equal(e.call_index, 1);
    assert_int_equal(e.thread, 7);
    assert_int_equal(e.start_ns, 14005 - 9000);
    assert_int_equal(e.end_ns, 16005 - 9000);
    assert_int_equal(e.duration_ns, 2000);
    assert_true(e.start == 14005 / 1e9 - 9000 / 1e9);
    assert_true(e.end == 16005 / 1e9 - 9000 / 1e9);
    assert_true(e.duration == e.end - e.start);
    size_t rest = 0;
    while (sp_events_next(it, &e))
        rest++;
    assert_int_equal(rest, 8);
    assert_false(sp_events_next(it, &e));
    sp_events_close(it);
    sp_results_free(r);
}

static void test_events_filtered_absolute(void **state) {
    (void)state;
    sp_results *r = two_ranks();
    sp_error err = {0};
    static const char *inc[] = {"solve"};
    static const uint32_t ranks[] = {1, 9, 0}; /* given order; rank 9 has nothing */
    sp_event_options opt = {
        .filter = {.include = inc, .num_include = 1, .ranks = ranks, .num_ranks = 3},
        .absolute = 1};
    sp_event_iter *it = sp_events_open(r, &opt, &err);
    assert_non_null(it);
    sp_event e;
    static const uint32_t want_rank[] = {1, 1, 0, 0};
    for (int i = 0; i < 4; i++) {
        assert_true(sp_events_next(it, &e));
        assert_string_equal(e.name, "solve");
        assert_int_equal(e.rank, want_rank[i]);
        assert_int_equal(e.call_index, i % 2);
    }
    assert_int_equal(e.start_ns, 14220);
    assert_true(e.start == 14220 / 1e9);
    assert_false(sp_events_next(it, &e));
    sp_events_close(it);
    sp_events_close(NULL);
    sp_results_free(r);
}

/* --- aggregate layout ------------------------------------------------------------ */

static sp_results *aggregate(int store_exclusive) {
    static const mb_call calls[] = {
        {0, 0, 0, 100, NT}, {0, 0, 200, 500, NT}, {1, 0, 50, 80, NT}, {0, 1, 0, 400, NT}};
    mb_spec spec = {.regions = regions, .num_regions = 2, .calls = calls, .num_calls = N(calls)};
    sp_model m;
    mb_model(&spec, &m);
    mb_make_aggregate(&m);
    for (size_t i = 0; i < m.num_rows && store_exclusive; i++)
        m.rows[i].exclusive_total = m.rows[i].stats.total - (m.rows[i].region == 0 ? 30 : 0);
    sp_error err = {0};
    sp_results *r = sp_results_adopt(&m, &err);
    assert_non_null(r);
    return r;
}

static void test_aggregate_values(void **state) {
    (void)state;
    sp_results *r = aggregate(1);
    sp_error err = {0};
    assert_false(sp_results_has_events(r));
    const sp_mpi_region *a = sp_results_get(r, "assemble", &err);
    assert_int_equal(sp_mpi_region_num_calls(a), 3);
    assert_true(sp_mpi_region_total_duration(a) == 400e-9 + 400e-9);
    assert_true(sp_mpi_region_min_duration(a) == 100e-9);
    assert_true(sp_mpi_region_max_duration(a) == 400e-9);
    assert_true(fabs(sp_mpi_region_average_duration(a) - 800e-9 / 3) < 1e-20);
    /* pooled population std of 100, 300, 400 ns */
    double mean = 800.0 / 3, m2 = (100 - mean) * (100 - mean) + (300 - mean) * (300 - mean) +
                                  (400 - mean) * (400 - mean);
    assert_true(fabs(sp_mpi_region_std_duration(a) - sqrt(m2 / 3) / 1e9) < 1e-18);
    assert_true(sp_mpi_region_first_duration(a) ==
                100e-9); /* rank 0 and 1 start at 0: first wins */
    assert_true(sp_mpi_region_exclusive_duration(a, &err) == 370e-9 + 370e-9);
    const sp_rank_region *rr = sp_mpi_region_rank(a, 0, &err);
    assert_null(sp_rank_region_durations_ns(rr));
    double d[2];
    assert_int_equal(sp_rank_region_durations(rr, d, 2), SP_ERR_UNAVAILABLE);
    assert_true(sp_rank_region_average_duration(rr) == 400e-9 / 2);
    assert_true(sp_rank_region_last_duration(rr) == 300e-9);
    sp_summary_rows *rows = sp_results_summary(r, NULL, 0, &err);
    assert_non_null(rows);
    assert_false(rows->rows[0].has_percentiles);
    assert_true(rows->rows[0].has_exclusive);
    assert_true(isnan(rows->rows[0].p95_duration));
    sp_summary_rows_free(rows);
    sp_pool_stats p;
    assert_int_equal(sp_region_pool_stats(a, NULL, 0, &p, &err), SP_OK);
    assert_int_equal(p.count, 3);
    assert_true(p.total == 800e-9);
    sp_results_free(r);
}

static void test_aggregate_errors(void **state) {
    (void)state;
    sp_results *r = aggregate(0);
    sp_error err = {0};
    const sp_mpi_region *a = sp_results_get(r, "assemble", &err);
    assert_true(isnan(sp_mpi_region_percentile(a, 50, &err)));
    assert_int_equal(err.status, SP_ERR_UNAVAILABLE);
    assert_string_equal(err.message,
                        "profiling_data.h5 holds aggregate statistics only "
                        "(storage_layout \"aggregate\"): percentiles need per-call events");
    assert_true(isnan(sp_mpi_region_exclusive_duration(a, &err)));
    assert_int_equal(err.status, SP_ERR_UNAVAILABLE);
    assert_non_null(strstr(err.message, "exclusive times need per-call events"));
    assert_null(sp_events_open(r, NULL, &err));
    assert_int_equal(err.status, SP_ERR_UNAVAILABLE);
    assert_non_null(strstr(err.message, "events need per-call events"));
    double q = 50;
    double out;
    assert_int_equal(sp_rank_region_percentiles(sp_mpi_region_rank(a, 0, &err), &q, 1, &out, &err),
                     SP_ERR_UNAVAILABLE);
    for (int per_rank = 0; per_rank < 2; per_rank++) { /* rows without exclusive times */
        sp_summary_rows *rows = sp_results_summary(r, NULL, per_rank, &err);
        assert_non_null(rows);
        assert_false(rows->rows[0].has_exclusive);
        assert_true(isnan(rows->rows[0].exclusive_duration));
        assert_true(rows->rows[0].total_duration > 0.0);
        sp_summary_rows_free(rows);
    }
    sp_table_rows rows; /* the table falls back to flat rows */
    assert_int_equal(sp_table_rows_build(r, NULL, NULL, NULL, &rows, &err), SP_OK);
    assert_int_equal(rows.count, 2);
    assert_null(rows.rows[0].call_path);
    assert_true(rows.rows[0].has_timing);
    assert_false(rows.rows[0].has_percentiles);
    sp_table_rows_free(&rows);
    sp_results_free(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_region_filters),
        cmocka_unit_test(test_bad_pattern),
        cmocka_unit_test(test_rank_filter_in_summary),
        cmocka_unit_test(test_events_order_and_values),
        cmocka_unit_test(test_events_filtered_absolute),
        cmocka_unit_test(test_aggregate_values),
        cmocka_unit_test(test_aggregate_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
