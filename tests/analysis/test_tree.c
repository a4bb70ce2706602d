/*
 * The call tree rebuilt from timestamps: nesting errors and their message,
 * thread lanes, recursion (also recorded out of start order), ties between
 * identical intervals, stored exclusive totals, the table's fallback rows.
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

static double exclusive(const sp_results *r, const char *name) {
    sp_error err = {0};
    const sp_mpi_region *mr = sp_results_get(r, name, &err);
    assert_non_null(mr);
    double v = sp_mpi_region_exclusive_duration(mr, &err);
    if (isnan(v)) fail_msg("%s: %s", name, err.message);
    return v;
}

static const char *const ab_regions[] = {"a", "b", "c"};
static const char nesting_message[] =
    "profiling_data.h5: recorded calls are not properly nested on rank 0: 'b' call 1 [150, 250] "
    "ns starts inside 'a' call 0 "
    "[100, 200] ns but ends after it. Regions must nest completely or not overlap at all - check "
    "for a missing or misordered sp_end / __exit__.";

static sp_results *overlapping(int with_threads, int64_t thread_b) {
    static mb_call calls[3];
    calls[0] = (mb_call){0, 0, 100, 200, with_threads ? 0 : NT};
    calls[1] = (mb_call){1, 0, 10, 20, with_threads ? thread_b : NT};
    calls[2] = (mb_call){1, 0, 150, 250, with_threads ? thread_b : NT};
    mb_spec spec = {.regions = ab_regions,
                    .num_regions = 2,
                    .calls = calls,
                    .num_calls = 3,
                    .with_threads = with_threads};
    return mb_results(&spec);
}

static void test_nesting_error_message(void **state) {
    (void)state;
    sp_results *r = overlapping(0, NT);
    sp_error err = {0};
    double v = sp_mpi_region_exclusive_duration(sp_results_region_at(r, 0), &err);
    assert_true(isnan(v));
    assert_int_equal(err.status, SP_ERR_NESTING);
    assert_string_equal(err.message, nesting_message);
    sp_error again = {0};
    assert_null(sp_results_summary(r, NULL, 0, &again)); /* summary() raises too */
    assert_int_equal(again.status, SP_ERR_NESTING);
    assert_string_equal(again.message, nesting_message);
    sp_summary s;
    assert_int_equal(sp_mpi_region_get_summary(sp_results_region_at(r, 0), &s, &again),
                     SP_ERR_NESTING);
    assert_true(s.total_duration == 100e-9 && isnan(s.exclusive_duration));
    /* Everything that needs no call tree still works. */
    assert_true(sp_mpi_region_total_duration(sp_results_region_at(r, 1)) == 110e-9);
    sp_results_free(r);
}

/* Calls that do not nest are damage for the table too (issue 10 item 12):
 * the same message as every other output, no flat rows. */
static void test_nesting_error_refuses_the_table(void **state) {
    (void)state;
    sp_results *r = overlapping(0, NT);
    sp_table_rows rows = {0};
    sp_error err = {0};
    assert_int_equal(sp_table_rows_build(r, NULL, NULL, "exclusive", &rows, &err), SP_ERR_NESTING);
    assert_string_equal(err.message, nesting_message);
    assert_int_equal(rows.count, 0);
    assert_null(rows.rows);
    sp_results_free(r);
}

/* With threads, the message names the thread too. */
static void test_nesting_error_names_the_thread(void **state) {
    (void)state;
    sp_results *r = overlapping(1, 0);
    sp_table_rows rows = {0};
    sp_error err = {0};
    assert_int_equal(sp_table_rows_build(r, NULL, NULL, NULL, &rows, &err), SP_ERR_NESTING);
    assert_non_null(strstr(err.message, "not properly nested on rank 0, thread 0: 'b' call 1"));
    sp_results_free(r);
}

/* With a stored exclusive total on every row the tree is never rebuilt. */
static void test_stored_totals_skip_the_tree(void **state) {
    (void)state;
    static const mb_call calls[] = {{0, 0, 100, 200, NT}, {1, 0, 150, 250, NT}};
    mb_spec spec = {.regions = ab_regions, .num_regions = 2, .calls = calls, .num_calls = 2};
    sp_model m;
    mb_model(&spec, &m);
    mb_row(&m, 0, 0)->exclusive_total = 60;
    mb_row(&m, 1, 0)->exclusive_total = 100;
    sp_error err = {0};
    sp_results *r = sp_results_adopt(&m, &err);
    assert_true(exclusive(r, "a") == 60e-9);
    assert_true(exclusive(r, "b") == 100e-9);
    sp_results_free(r);
}

/* Overlapping calls on two threads are not an error; each lane nests on its own. */
static void test_thread_lanes(void **state) {
    (void)state;
    static const mb_call calls[] = {
        {0, 0, 100, 300, 0},  {2, 0, 150, 200, 0}, /* thread 0: a > c */
        {1, 0, 200, 400, 1},  {2, 0, 250, 260, 1}, /* thread 1: b > c, overlapping a */
        {2, 0, 500, 510, -1},                      /* unknown thread */
    };
    mb_spec spec = {.regions = ab_regions,
                    .num_regions = 3,
                    .calls = calls,
                    .num_calls = N(calls),
                    .with_threads = 1};
    sp_results *r = mb_results(&spec);
    assert_true(exclusive(r, "a") == 150e-9);
    assert_true(exclusive(r, "b") == 190e-9);
    assert_true(exclusive(r, "c") == 70e-9);
    sp_table_rows rows;
    sp_error err = {0};
    assert_int_equal(sp_table_rows_build(r, NULL, NULL, NULL, &rows, &err), SP_OK);
    static const char *paths[] = {"a", "a > c", "b", "b > c", "c"};
    assert_int_equal(rows.count, N(paths));
    for (size_t i = 0; i < N(paths); i++)
        assert_string_equal(rows.rows[i].call_path, paths[i]);
    assert_true(rows.rows[0].exclusive == 150e-9);
    sp_table_rows_free(&rows);
    sp_results_free(r);
    /* The same calls without thread ids overlap. */
    mb_call flat[N(calls)];
    memcpy(flat, calls, sizeof calls);
    for (size_t i = 0; i < N(flat); i++)
        flat[i].thread = NT;
    spec.calls = flat;
    spec.with_threads = 0;
    r = mb_results(&spec);
    sp_error e2 = {0};
    assert_true(isnan(sp_mpi_region_exclusive_duration(sp_results_region_at(r, 0), &e2)));
    assert_int_equal(e2.status, SP_ERR_NESTING);
    sp_results_free(r);
}

static const char *const rec_regions[] = {"rec", "leaf"};

static void check_recursion(const mb_call *calls, size_t n) {
    mb_spec spec = {.regions = rec_regions, .num_regions = 2, .calls = calls, .num_calls = n};
    sp_results *r = mb_results(&spec);
    /* rec 100 > rec 80 > rec 60 > leaf 10: rec's own time 20 + 20 + 50 */
    assert_true(exclusive(r, "rec") == 90e-9);
    assert_true(exclusive(r, "leaf") == 10e-9);
    sp_table_rows rows;
    sp_error err = {0};
    assert_int_equal(sp_table_rows_build(r, NULL, NULL, NULL, &rows, &err), SP_OK);
    assert_int_equal(rows.count, 2);
    assert_string_equal(rows.rows[0].call_path, "rec");
    assert_true(rows.rows[0].recursive);
    assert_int_equal(rows.rows[0].calls, 3);
    assert_true(rows.rows[0].total == (100e-9 + 80e-9) + 60e-9); /* nested time counted again */
    assert_true(rows.rows[0].has_children);
    assert_true(rows.rows[0].exclusive == (20e-9 + 20e-9) + 50e-9);
    assert_true(rows.rows[0].coverage == 100e-9);
    assert_string_equal(rows.rows[1].call_path, "rec > leaf");
    assert_true(rows.rows[1].recursive); /* its path collapsed too */
    assert_true(rows.rows[1].has_parent_coverage && rows.rows[1].parent_coverage == 100e-9);
    sp_table_rows_free(&rows);
    sp_results_free(r);
}

static void test_recursion(void **state) {
    (void)state;
    static const mb_call in_order[] = {
        {0, 0, 0, 100, NT}, {0, 0, 10, 90, NT}, {0, 0, 20, 80, NT}, {1, 0, 30, 40, NT}};
    check_recursion(in_order, N(in_order));
    static const mb_call at_exit[] = {/* recorded when each call ended */
                                      {0, 0, 20, 80, NT},
                                      {0, 0, 10, 90, NT},
                                      {0, 0, 0, 100, NT},
                                      {1, 0, 30, 40, NT}};
    check_recursion(at_exit, N(at_exit));
}

/* Identical intervals: the earlier region (file order) is the parent. */
static void test_identical_intervals(void **state) {
    (void)state;
    static const char *const names[] = {"y", "x"};
    static const mb_call calls[] = {{1, 0, 0, 100, NT}, {0, 0, 0, 100, NT}};
    mb_spec spec = {.regions = names, .num_regions = 2, .calls = calls, .num_calls = 2};
    sp_results *r = mb_results(&spec);
    assert_true(exclusive(r, "y") == 0.0);
    assert_true(exclusive(r, "x") == 100e-9);
    sp_table_rows rows;
    sp_error err = {0};
    assert_int_equal(sp_table_rows_build(r, NULL, NULL, NULL, &rows, &err), SP_OK);
    assert_int_equal(rows.count, 2);
    assert_string_equal(rows.rows[0].call_path, "y");
    assert_string_equal(rows.rows[1].call_path, "y > x");
    sp_table_rows_free(&rows);
    sp_results_free(r);
}

/* A > B > A is not recursion: only adjacent repeats collapse. */
static void test_non_adjacent_repeat(void **state) {
    (void)state;
    static const char *const names[] = {"A", "B"};
    static const mb_call calls[] = {{0, 0, 0, 100, NT}, {0, 0, 20, 30, NT}, {1, 0, 10, 50, NT}};
    mb_spec spec = {.regions = names, .num_regions = 2, .calls = calls, .num_calls = 3};
    sp_results *r = mb_results(&spec);
    sp_table_rows rows;
    sp_error err = {0};
    assert_int_equal(sp_table_rows_build(r, NULL, NULL, NULL, &rows, &err), SP_OK);
    static const char *paths[] = {"A", "A > B", "A > B > A"};
    static const int depth[] = {0, 1, 2};
    assert_int_equal(rows.count, 3);
    for (int i = 0; i < 3; i++) {
        assert_string_equal(rows.rows[i].call_path, paths[i]);
        assert_int_equal(rows.rows[i].depth, depth[i]);
        assert_false(rows.rows[i].recursive);
    }
    assert_string_equal(rows.rows[2].name, "A");
    assert_true(rows.rows[1].exclusive == 30e-9);
    sp_table_rows_free(&rows);
    sp_results_free(r);
}

/* A call that ends exactly when the next starts is its sibling, not its parent. */
static void test_touching_calls_are_siblings(void **state) {
    (void)state;
    static const mb_call calls[] = {{0, 0, 0, 100, NT}, {1, 0, 100, 150, NT}};
    mb_spec spec = {.regions = ab_regions, .num_regions = 2, .calls = calls, .num_calls = 2};
    sp_results *r = mb_results(&spec);
    assert_true(exclusive(r, "a") == 100e-9);
    sp_results_free(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nesting_error_message),
        cmocka_unit_test(test_nesting_error_refuses_the_table),
        cmocka_unit_test(test_nesting_error_names_the_thread),
        cmocka_unit_test(test_stored_totals_skip_the_tree),
        cmocka_unit_test(test_thread_lanes),
        cmocka_unit_test(test_recursion),
        cmocka_unit_test(test_identical_intervals),
        cmocka_unit_test(test_non_adjacent_repeat),
        cmocka_unit_test(test_touching_calls_are_siblings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
