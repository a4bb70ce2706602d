/*
 * Rows of the summary table (sp_table_rows_build): call paths pooled over
 * ranks, (own) rows, filters that hide children or parents, sort keys,
 * fallback rows, the session total, and the Python quirks kept on purpose.
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
#include "table_text.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define NT   MB_NO_THREAD

enum { ASSEMBLE, SETUP, TIMESTEP, SOLVE, SESSION };
static const char *const regions[] = {"assemble", "setup", "timestep", "solve",
                                      "scope_profiler.session"};

/* The tutorial's program on `ranks` ranks, rank r slower by (1 + r) / 1 in
 * assemble; timestep k lasts 15000 + k ns more than its children. */
static sp_results *program(uint32_t ranks, int with_session) {
    static mb_call calls[128];
    size_t n = 0;
    for (uint32_t r = 0; r < ranks; r++) {
        int64_t o = 1000000 + r * 7;
        if (with_session) calls[n++] = (mb_call){SESSION, r, o, o + 900000, NT};
        calls[n++] = (mb_call){SETUP, r, o + 100, o + 20100, NT};
        for (int k = 0; k < 5; k++) {
            int64_t t = o + 30000 + k * 100000, a = 4000 * (1 + k % 3) * (1 + r);
            int64_t s = t + 10 + a + 5;
            calls[n++] = (mb_call){TIMESTEP, r, t, s + 3000 + 20 + k, NT};
            calls[n++] = (mb_call){ASSEMBLE, r, t + 10, t + 10 + a, NT};
            calls[n++] = (mb_call){SOLVE, r, s, s + 3000, NT};
        }
    }
    mb_spec spec = {.regions = regions,
                    .num_regions = with_session ? 5 : 4,
                    .calls = calls,
                    .num_calls = n,
                    .has_start = 1,
                    .start_time_ns = 1000000};
    return mb_results(&spec);
}

static void build(const sp_results *r, const sp_filter *f, const char *sort, sp_table_rows *rows) {
    sp_error err = {0};
    if (sp_table_rows_build(r, f, sort, NULL, rows, &err) != SP_OK) fail_msg("%s", err.message);
}

static void test_tutorial_table_text(void **state) {
    (void)state;
    sp_results *r = program(1, 0);
    sp_table_rows rows;
    build(r, NULL, NULL, &rows);
    char *text = tt_render_default(&rows);
    assert_string_equal(text, "  ╭─────────────────────────────────╮\n"
                              "  │ region              total [s]   │\n"
                              "  ├─────────────────────────────────┤\n"
                              "  │ setup               0.000020    │\n"
                              "  │ timestep (5x)       0.000051    │\n"
                              "  │ └─ (own)               0.000000 │\n"
                              "  │ └─ assemble (5x)       0.000036 │\n"
                              "  │ └─ solve (5x)          0.000015 │\n"
                              "  ╰─────────────────────────────────╯\n\n");
    free(text);
    const sp_table_row *ts = &rows.rows[1];
    assert_string_equal(ts->call_path, "timestep");
    assert_true(ts->has_children);
    assert_true(fabs(ts->exclusive - 5 * 35e-9 - 10e-9) < 1e-20); /* 35 + k ns each */
    assert_true(ts->start == 1030000 / 1e9 - 1000000 / 1e9);
    assert_false(ts->has_parent_coverage);
    const sp_table_row *a = &rows.rows[2];
    assert_string_equal(a->call_path, "timestep > assemble");
    assert_int_equal(a->depth, 1);
    assert_true(a->has_parent_coverage && a->parent_coverage == ts->coverage);
    assert_true(fabs(a->coverage - 36000e-9) < 1e-15);
    assert_true(a->first == 4000e-9 && a->last == 8000e-9);
    assert_true(fabs(a->p95 - 11200e-9) < 1e-15);
    assert_int_equal(a->num_ranks, 1);
    assert_true(a->imbalance == 0.0);
    assert_false(rows.has_session_total);
    sp_table_rows_free(&rows);
    sp_results_free(r);
}

static void test_rows_pool_over_ranks(void **state) {
    (void)state;
    sp_results *r = program(3, 0);
    sp_table_rows rows;
    build(r, NULL, NULL, &rows);
    assert_int_equal(rows.count, 4);
    const sp_table_row *a = &rows.rows[2];
    assert_string_equal(a->name, "assemble");
    assert_int_equal(a->calls, 15);
    assert_int_equal(a->num_ranks, 3);
    /* per-rank totals 36, 72, 108 us: max / mean = 1.5 */
    assert_true(fabs(a->imbalance - 50.0) < 1e-9);
    assert_true(fabs(a->total - 216000e-9) < 1e-15);
    assert_true(a->max == 36000e-9 && a->min == 4000e-9);
    assert_true(a->first == 4000e-9); /* rank 0 starts first */
    assert_true(a->last == 24000e-9); /* rank 2's last call ends last */
    sp_table_rows_free(&rows);
    static const uint32_t only[] = {2};
    build(r, &(sp_filter){.ranks = only, .num_ranks = 1}, NULL, &rows);
    assert_int_equal(rows.rows[2].calls, 5);
    assert_int_equal(rows.rows[2].num_ranks, 1);
    assert_true(rows.rows[2].imbalance == 0.0);
    sp_table_rows_free(&rows);
    sp_results_free(r);
}

/* Hidden children still count as children: the parent's own time stays. */
static void test_filter_hides_children(void **state) {
    (void)state;
    sp_results *r = program(1, 0);
    static const char *ex[] = {"solve"};
    sp_table_rows rows;
    build(r, &(sp_filter){.exclude = ex, .num_exclude = 1}, NULL, &rows);
    assert_int_equal(rows.count, 3);
    assert_string_equal(rows.rows[1].call_path, "timestep");
    assert_true(fabs(rows.rows[1].exclusive - 185e-9) < 1e-20);
    sp_table_rows_free(&rows);
    static const char *no_parent[] = {"timestep"};
    build(r, &(sp_filter){.exclude = no_parent, .num_exclude = 1}, NULL, &rows);
    static const char *paths[] = {"setup", "assemble", "solve"};
    assert_int_equal(rows.count, 3);
    for (int i = 0; i < 3; i++) {
        assert_string_equal(rows.rows[i].call_path, paths[i]);
        assert_int_equal(rows.rows[i].depth, 0);
        assert_false(rows.rows[i].has_children);
    }
    sp_table_rows_free(&rows);
    sp_results_free(r);
}

static void test_sort_keys(void **state) {
    (void)state;
    sp_results *r = program(1, 0);
    sp_table_rows rows;
    build(r, NULL, "total", &rows);
    static const char *by_total[] = {"timestep", "assemble", "setup", "solve"};
    for (int i = 0; i < 4; i++)
        assert_string_equal(rows.rows[i].name, by_total[i]);
    assert_true(rows.rows[0].has_children); /* the (own) row still follows */
    sp_table_rows_free(&rows);
    build(r, NULL, "calls", &rows); /* ties stay alphabetical */
    static const char *by_calls[] = {"assemble", "solve", "timestep", "setup"};
    for (int i = 0; i < 4; i++)
        assert_string_equal(rows.rows[i].name, by_calls[i]);
    sp_table_rows_free(&rows);
    build(r, NULL, "name", &rows);
    static const char *by_name[] = {"assemble", "setup", "solve", "timestep"};
    for (int i = 0; i < 4; i++)
        assert_string_equal(rows.rows[i].name, by_name[i]);
    assert_int_equal(rows.rows[0].depth, 1); /* depth prefixes stay */
    sp_table_rows_free(&rows);
    for (int k = 0; sp_sort_keys[k]; k++) {
        build(r, NULL, sp_sort_keys[k], &rows);
        assert_int_equal(rows.count, 4);
        sp_table_rows_free(&rows);
    }
    sp_error err = {0};
    assert_int_equal(sp_table_rows_build(r, NULL, "slowest", NULL, &rows, &err), SP_ERR_BAD_OPTION);
    assert_string_equal(err.message, "unknown sort key 'slowest'; choose one of: start, total, "
                                     "calls, avg, min, max, first, last, std, p50, p95, p99, "
                                     "imbalance, name");
    assert_int_equal(sp_table_rows_build(r, NULL, NULL, "wall", &rows, &err), SP_ERR_BAD_OPTION);
    assert_string_equal(err.message, "percentage_mode must be 'coverage' or 'exclusive'");
    assert_int_equal(rows.count, 0);
    sp_results_free(r);
}

/* A selected rank without calls of a region gives that region a flat row without timing. */
static void test_fallback_rows(void **state) {
    (void)state;
    static const mb_call calls[] = {{0, 0, 100, 200, NT}, {1, 1, 50, 60, NT}};
    mb_spec spec = {.regions = regions, .num_regions = 2, .calls = calls, .num_calls = 2};
    sp_results *r = mb_results(&spec);
    static const uint32_t rank0[] = {0};
    sp_table_rows rows;
    build(r, &(sp_filter){.ranks = rank0, .num_ranks = 1}, NULL, &rows);
    assert_int_equal(rows.count, 2);
    assert_string_equal(rows.rows[0].call_path, "assemble");
    assert_string_equal(rows.rows[1].name, "setup");
    assert_null(rows.rows[1].call_path);
    assert_false(rows.rows[1].has_timing);
    assert_false(rows.rows[1].has_first_last);
    assert_int_equal(rows.rows[1].calls, 0);
    assert_true(rows.rows[1].start == 50e-9); /* absolute first start of any rank */
    char *text = tt_render_default(&rows);
    if (!strstr(text, "│ setup (0x)    -           │")) fail_msg("%s", text);
    free(text);
    sp_table_rows_free(&rows);
    build(r, NULL, "total", &rows); /* None sorts last */
    assert_string_equal(rows.rows[0].name, "assemble");
    sp_table_rows_free(&rows);
    sp_results_free(r);
}

static void test_session_total(void **state) {
    (void)state;
    sp_results *r = program(1, 1);
    sp_table_rows rows;
    build(r, NULL, NULL, &rows);
    assert_true(rows.has_session_total);
    assert_true(rows.session_total == 900000e-9);
    assert_string_equal(rows.rows[0].call_path, "scope_profiler.session");
    assert_string_equal(rows.rows[1].call_path, "scope_profiler.session > setup");
    sp_table_rows_free(&rows);
    sp_results_free(r);
}

/* Python splits the joined call path on " > ", so such a name looks nested,
 * and its full name also gets a flat row (no path ends in it). */
static void test_separator_in_name(void **state) {
    (void)state;
    static const char *const names[] = {"a > b"};
    static const mb_call calls[] = {{0, 0, 0, 10, NT}};
    mb_spec spec = {.regions = names, .num_regions = 1, .calls = calls, .num_calls = 1};
    sp_results *r = mb_results(&spec);
    sp_table_rows rows;
    build(r, NULL, NULL, &rows);
    assert_int_equal(rows.count, 2);
    assert_string_equal(rows.rows[0].call_path, "a > b");
    assert_string_equal(rows.rows[0].name, "b");
    assert_int_equal(rows.rows[0].depth, 1);
    assert_false(rows.rows[0].has_parent_coverage);
    assert_string_equal(rows.rows[1].name, "a > b");
    assert_null(rows.rows[1].call_path);
    sp_table_rows_free(&rows);
    sp_results_free(r);
}

static void test_columns_list(void **state) {
    (void)state;
    int n = 0;
    while (sp_table_columns[n])
        n++;
    assert_int_equal(n, 21); /* Python's 16, then the parallel ones (docs/parallel.md) */
    assert_string_equal(sp_table_columns[0], "region");
    assert_string_equal(sp_table_columns[15], "imbalance");
    assert_string_equal(sp_table_columns[20], "slowest_thread");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tutorial_table_text),   cmocka_unit_test(test_rows_pool_over_ranks),
        cmocka_unit_test(test_filter_hides_children), cmocka_unit_test(test_sort_keys),
        cmocka_unit_test(test_fallback_rows),         cmocka_unit_test(test_session_total),
        cmocka_unit_test(test_separator_in_name),     cmocka_unit_test(test_columns_list),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
