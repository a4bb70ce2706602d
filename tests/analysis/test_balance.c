/*
 * Parallel runs (docs/parallel.md), on hand-built calls with exact times:
 * worker threads' calls under the parent thread's call, exclusive times on
 * the call's own thread, rank and thread balance per region and per call
 * path, and the step-by-step comparison (static, dynamic, balanced).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/analysis.h"
#include "model_builder.h"

/* Old cmocka has no assert_double_equal. */
#define assert_double_equal(a, b, tol)                                                             \
    do {                                                                                           \
        double a_ = (a), b_ = (b);                                                                 \
        if (!(fabs(a_ - b_) <= (tol))) fail_msg("%s = %.17g, expected %.17g", #a, a_, b_);         \
    } while (0)

static const sp_table_row *find_row(const sp_table_rows *rows, const char *path) {
    for (size_t i = 0; i < rows->count; i++)
        if (rows->rows[i].call_path && strcmp(rows->rows[i].call_path, path) == 0)
            return &rows->rows[i];
    return NULL;
}

static const sp_mpi_region *region(const sp_results *r, const char *name) {
    sp_error err = {0};
    const sp_mpi_region *mr = sp_results_get(r, name, &err);
    if (!mr) fail_msg("%s", err.message);
    return mr;
}

/* Two steps of 1000 ns on thread 0; in each, thread t (0..3) runs omp_body
 * for (t + 1) * 100 ns. Threads 1-3 name thread 0 as their parent. */
static const char *const omp_regions[] = {"step", "omp_body"};
static mb_call omp_calls[10];
static const mb_thread omp_threads[] = {{0, 0, -1}, {0, 1, 0}, {0, 2, 0}, {0, 3, 0}};

static sp_results *omp_results(int with_parents) {
    size_t n = 0;
    for (int s = 0; s < 2; s++)
        omp_calls[n++] = (mb_call){0, 0, s * 1000, s * 1000 + 1000, 0};
    for (int s = 0; s < 2; s++)
        for (int t = 0; t < 4; t++)
            omp_calls[n++] = (mb_call){1, 0, s * 1000 + 10, s * 1000 + 10 + (t + 1) * 100, t};
    mb_spec spec = {.regions = omp_regions,
                    .num_regions = 2,
                    .calls = omp_calls,
                    .num_calls = n,
                    .with_threads = 1,
                    .threads = omp_threads,
                    .num_threads = with_parents ? 4 : 0};
    return mb_results(&spec);
}

static void test_worker_calls_under_parent(void **state) {
    (void)state;
    sp_results *r = omp_results(1);
    sp_error err = {0};
    sp_table_rows rows;
    assert_int_equal(sp_table_rows_build(r, NULL, NULL, NULL, &rows, &err), SP_OK);
    assert_int_equal(rows.count, 2); /* no top-level omp_body row */
    const sp_table_row *step = find_row(&rows, "step");
    const sp_table_row *body = find_row(&rows, "step > omp_body");
    assert_non_null(step);
    assert_non_null(body);
    assert_int_equal(step->calls, 2);
    assert_int_equal(body->calls, 8);
    assert_int_equal(body->depth, 1);
    assert_int_equal(body->threads, 4);
    assert_int_equal(step->threads, 1);
    /* step's own time: only its own thread's child counts (2 x (1000 - 100) ns) */
    assert_true(step->has_exclusive);
    assert_double_equal(step->exclusive, 1800e-9, 1e-18);
    assert_double_equal(body->total, 2000e-9, 1e-18);
    /* threads: 200, 400, 600, 800 ns -> mean 500, max 800 */
    const sp_balance *tb = &body->thread_balance;
    assert_int_equal(tb->count, 4);
    assert_double_equal(tb->mean, 500e-9, 1e-18);
    assert_double_equal(tb->max, 800e-9, 1e-18);
    assert_double_equal(tb->min, 200e-9, 1e-18);
    assert_double_equal(tb->imbalance, 0.6, 1e-12);
    assert_double_equal(tb->load_balance, 0.625, 1e-12);
    assert_int_equal(tb->slowest_thread, 3);
    assert_int_equal(tb->fastest_thread, 0);
    assert_int_equal(tb->slowest_rank, 0);
    /* one rank: no rank imbalance */
    assert_int_equal(body->rank_balance.count, 1);
    assert_double_equal(body->rank_balance.imbalance, 0.0, 0.0);
    assert_double_equal(body->rank_balance.load_balance, 1.0, 0.0);
    sp_table_rows_free(&rows);

    /* the region's exclusive time and its thread balance agree */
    assert_double_equal(sp_mpi_region_exclusive_duration(region(r, "step"), &err), 1800e-9, 1e-18);
    sp_balance b;
    assert_int_equal(sp_mpi_region_thread_balance(region(r, "omp_body"), &b, &err), SP_OK);
    assert_double_equal(b.imbalance, 0.6, 1e-12);
    assert_int_equal(b.slowest_thread, 3);
    sp_balance pr, pt;
    assert_int_equal(sp_results_path_balance(r, "step > omp_body", &pr, &pt, &err), SP_OK);
    assert_double_equal(pt.load_balance, 0.625, 1e-12);
    assert_int_equal(sp_results_path_balance(r, "omp_body", &pr, &pt, &err), SP_ERR_NO_SUCH_REGION);
    sp_results_free(r);
}

static void test_without_parents_workers_stay_top_level(void **state) {
    (void)state;
    sp_results *r = omp_results(0);
    sp_error err = {0};
    sp_table_rows rows;
    assert_int_equal(sp_table_rows_build(r, NULL, NULL, NULL, &rows, &err), SP_OK);
    const sp_table_row *nested = find_row(&rows, "step > omp_body");
    const sp_table_row *top = find_row(&rows, "omp_body");
    assert_non_null(nested);
    assert_non_null(top);
    assert_int_equal(nested->calls, 2);
    assert_int_equal(top->calls, 6);
    assert_int_equal(top->threads, 3);
    sp_table_rows_free(&rows);
    sp_results_free(r);
}

/* A worker call that is not inside any open call of its parent thread stays a root. */
static void test_worker_call_outside_parent_call(void **state) {
    (void)state;
    static const mb_call calls[] = {{0, 0, 0, 100, 0}, {1, 0, 50, 150, 1}, {1, 0, 200, 300, 1}};
    static const mb_thread threads[] = {{0, 0, -1}, {0, 1, 0}};
    mb_spec spec = {.regions = omp_regions,
                    .num_regions = 2,
                    .calls = calls,
                    .num_calls = 3,
                    .with_threads = 1,
                    .threads = threads,
                    .num_threads = 2};
    sp_results *r = mb_results(&spec);
    sp_error err = {0};
    sp_table_rows rows;
    assert_int_equal(sp_table_rows_build(r, NULL, NULL, NULL, &rows, &err), SP_OK);
    assert_null(find_row(&rows, "step > omp_body"));
    assert_int_equal(find_row(&rows, "omp_body")->calls, 2);
    sp_table_rows_free(&rows);
    sp_results_free(r);
}

/* work: 4 ranks with totals 1, 1, 3, 1 us. */
static void test_rank_balance(void **state) {
    (void)state;
    static const char *const regions[] = {"work"};
    static const mb_call calls[] = {{0, 0, 0, 1000, MB_NO_THREAD},
                                    {0, 1, 0, 1000, MB_NO_THREAD},
                                    {0, 2, 0, 3000, MB_NO_THREAD},
                                    {0, 3, 0, 1000, MB_NO_THREAD}};
    mb_spec spec = {.regions = regions, .num_regions = 1, .calls = calls, .num_calls = 4};
    sp_results *r = mb_results(&spec);
    sp_error err = {0};
    sp_balance b;
    assert_int_equal(sp_mpi_region_rank_balance(region(r, "work"), &b, &err), SP_OK);
    assert_int_equal(b.count, 4);
    assert_double_equal(b.mean, 1.5e-6, 1e-18);
    assert_double_equal(b.imbalance, 1.0, 1e-12);
    assert_double_equal(b.load_balance, 0.5, 1e-12);
    assert_int_equal(b.slowest_rank, 2);
    assert_int_equal(b.fastest_rank, 0); /* ties: the lowest rank */
    assert_int_equal(b.slowest_thread, -1);
    /* the table's path row says the same; imbalance % as before */
    sp_table_rows rows;
    assert_int_equal(sp_table_rows_build(r, NULL, NULL, NULL, &rows, &err), SP_OK);
    const sp_table_row *row = find_row(&rows, "work");
    assert_non_null(row);
    assert_double_equal(row->imbalance, 100.0, 1e-9);
    assert_int_equal(row->rank_balance.slowest_rank, 2);
    assert_double_equal(row->rank_balance.load_balance, 0.5, 1e-12);
    /* without thread ids every rank is one lane: thread 0 */
    assert_int_equal(row->thread_balance.count, 4);
    assert_int_equal(row->thread_balance.slowest_rank, 2);
    assert_int_equal(row->thread_balance.slowest_thread, 0);
    sp_table_rows_free(&rows);
    sp_results_free(r);
}

/* 4 ranks x 5 steps of 1000 ns; in step k the rank slow(k) takes 3000 ns. */
static sp_results *steps_results(mb_call *calls, int (*slow)(int)) {
    static const char *const regions[] = {"timestep"};
    size_t n = 0;
    for (uint32_t rank = 0; rank < 4; rank++)
        for (int k = 0; k < 5; k++) {
            int64_t d = slow && slow(k) == (int)rank ? 3000 : 1000;
            calls[n++] = (mb_call){0, rank, k * 10000, k * 10000 + d, MB_NO_THREAD};
        }
    mb_spec spec = {.regions = regions, .num_regions = 1, .calls = calls, .num_calls = n};
    return mb_results(&spec);
}

static int always_two(int k) {
    (void)k;
    return 2;
}
static int rotating(int k) {
    return k % 4;
}

static void test_static_imbalance(void **state) {
    (void)state;
    mb_call calls[20];
    sp_results *r = steps_results(calls, always_two);
    sp_step_balance s;
    sp_error err = {0};
    assert_int_equal(sp_mpi_region_step_balance(region(r, "timestep"), &s, &err), SP_OK);
    assert_int_equal(s.kind, SP_IMBALANCE_STATIC);
    assert_string_equal(sp_imbalance_kind_name(s.kind), "static");
    assert_int_equal(s.steps, 5);
    assert_int_equal(s.num_ranks, 4);
    assert_int_equal(s.straggler, 2);
    assert_int_equal(s.straggler_steps, 5);
    assert_double_equal(s.straggler_share, 1.0, 0.0);
    /* each step: max 3000, mean 1500 ns */
    assert_double_equal(s.step_time, 15000e-9, 1e-18);
    assert_double_equal(s.mean_time, 7500e-9, 1e-18);
    assert_double_equal(s.saved, 7500e-9, 1e-18);
    sp_results_free(r);
}

static void test_dynamic_imbalance(void **state) {
    (void)state;
    mb_call calls[20];
    sp_results *r = steps_results(calls, rotating);
    sp_step_balance s;
    sp_error err = {0};
    assert_int_equal(sp_mpi_region_step_balance(region(r, "timestep"), &s, &err), SP_OK);
    assert_int_equal(s.kind, SP_IMBALANCE_DYNAMIC);
    assert_int_equal(s.straggler, 0); /* steps 0 and 4 */
    assert_int_equal(s.straggler_steps, 2);
    assert_double_equal(s.straggler_share, 0.4, 1e-15);
    assert_double_equal(s.saved, 7500e-9, 1e-18);
    /* the totals are 5000, 3000... : rank 0 slowest over the run, yet not every step */
    sp_balance b;
    assert_int_equal(sp_mpi_region_rank_balance(region(r, "timestep"), &b, &err), SP_OK);
    assert_int_equal(b.slowest_rank, 0);
    assert_double_equal(b.max, 9000e-9, 1e-18);
    assert_double_equal(b.mean, 7500e-9, 1e-18);
    sp_results_free(r);
}

static void test_balanced_and_not_applicable(void **state) {
    (void)state;
    mb_call calls[20];
    sp_results *r = steps_results(calls, NULL);
    sp_step_balance s;
    sp_error err = {0};
    assert_int_equal(sp_mpi_region_step_balance(region(r, "timestep"), &s, &err), SP_OK);
    assert_int_equal(s.kind, SP_IMBALANCE_BALANCED);
    assert_double_equal(s.saved, 0.0, 0.0);
    sp_results_free(r);

    /* unequal call counts: rank 1 has one call less */
    static const char *const regions[] = {"timestep"};
    static const mb_call uneven[] = {
        {0, 0, 0, 10, MB_NO_THREAD}, {0, 0, 20, 30, MB_NO_THREAD}, {0, 1, 0, 10, MB_NO_THREAD}};
    mb_spec spec = {.regions = regions, .num_regions = 1, .calls = uneven, .num_calls = 3};
    r = mb_results(&spec);
    assert_int_equal(sp_mpi_region_step_balance(region(r, "timestep"), &s, &err), SP_OK);
    assert_int_equal(s.kind, SP_IMBALANCE_NOT_APPLICABLE);
    assert_string_equal(sp_imbalance_kind_name(s.kind), "not applicable");
    assert_int_equal(s.steps, 0);
    sp_results_free(r);
}

/* Calls recorded out of start order are compared in start order. */
static void test_steps_in_start_order(void **state) {
    (void)state;
    static const char *const regions[] = {"timestep"};
    static const mb_call calls[] = {{0, 0, 100, 400, MB_NO_THREAD}, /* step 1: rank 0 slow */
                                    {0, 0, 0, 10, MB_NO_THREAD},
                                    {0, 1, 0, 50, MB_NO_THREAD}, /* step 0: rank 1 slow */
                                    {0, 1, 100, 110, MB_NO_THREAD}};
    mb_spec spec = {.regions = regions, .num_regions = 1, .calls = calls, .num_calls = 4};
    sp_results *r = mb_results(&spec);
    sp_step_balance s;
    sp_error err = {0};
    assert_int_equal(sp_mpi_region_step_balance(region(r, "timestep"), &s, &err), SP_OK);
    assert_int_equal(s.steps, 2);
    assert_int_equal(s.straggler_steps, 1);
    assert_double_equal(s.step_time, 350e-9, 1e-18); /* 50 + 300 */
    assert_double_equal(s.mean_time, 185e-9, 1e-18); /* (310 + 60) / 2 */
    sp_results_free(r);
}

static void test_balance_json(void **state) {
    (void)state;
    mb_call calls[20];
    sp_results *r = steps_results(calls, always_two);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    sp_error err = {0};
    assert_int_equal(sp_write_balance_json(r, f, NULL, &err), SP_OK);
    fclose(f);
    const char *want_steps = "\"steps\": {\n"
                             "        \"kind\": \"static\",\n"
                             "        \"steps\": 5,\n"
                             "        \"ranks\": 4,\n"
                             "        \"straggler\": 2,\n"
                             "        \"straggler_steps\": 5,\n"
                             "        \"straggler_share\": 1.0,\n"
                             "        \"step_time\": 1.5e-05,\n"
                             "        \"mean_time\": 7.5e-06,\n"
                             "        \"saved\": 7.5e-06\n";
    if (!strstr(text, want_steps)) fail_msg("no steps object in:\n%s", text);
    assert_non_null(strstr(text, "\"path\": \"timestep\""));
    assert_non_null(strstr(text, "\"slowest_rank\": 2"));
    assert_non_null(strstr(text, "\"load_balance\": 0.5"));
    free(text);
    sp_results_free(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_worker_calls_under_parent),
        cmocka_unit_test(test_without_parents_workers_stay_top_level),
        cmocka_unit_test(test_worker_call_outside_parent_call),
        cmocka_unit_test(test_rank_balance),
        cmocka_unit_test(test_static_imbalance),
        cmocka_unit_test(test_dynamic_imbalance),
        cmocka_unit_test(test_balanced_and_not_applicable),
        cmocka_unit_test(test_steps_in_start_order),
        cmocka_unit_test(test_balance_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
