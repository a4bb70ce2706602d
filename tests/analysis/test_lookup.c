/*
 * Finding regions and ranks, and what the results say about themselves:
 * the missing-region message (Python's quoting, "Did you mean"), repr,
 * labels, run times, metadata, rank counts.
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
#include "common/py_repr.h"
#include "common/utf8.h"
#include "analysis/suggest.h"
#include "model_builder.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const char *const tutorial_regions[] = {"assemble", "setup", "timestep", "solve"};
static const mb_call tutorial_calls[] = {{1, 0, 100, 200, MB_NO_THREAD},
                                         {2, 0, 300, 400, MB_NO_THREAD},
                                         {0, 0, 310, 320, MB_NO_THREAD},
                                         {3, 0, 330, 340, MB_NO_THREAD}};

static sp_results *tutorial(const char *path) {
    mb_spec spec = {.path = path,
                    .regions = tutorial_regions,
                    .num_regions = 4,
                    .calls = tutorial_calls,
                    .num_calls = N(tutorial_calls)};
    return mb_results(&spec);
}

static void test_missing_region_with_suggestion(void **state) {
    (void)state;
    sp_results *r = tutorial(NULL);
    sp_error err = {0};
    assert_null(sp_results_get(r, "sovle", &err));
    assert_int_equal(err.status, SP_ERR_NO_SUCH_REGION);
    assert_string_equal(err.message,
                        "No region named 'sovle' in profiling_data.h5. Available regions: "
                        "['assemble', 'setup', 'timestep', 'solve'] Did you mean 'solve'?");
    assert_null(sp_results_get(r, "Timestep", &err));
    assert_non_null(strstr(err.message, " Did you mean 'timestep'?"));
    assert_null(sp_results_get(r, "xyz", &err));
    assert_string_equal(err.message,
                        "No region named 'xyz' in profiling_data.h5. Available regions: "
                        "['assemble', 'setup', 'timestep', 'solve']");
    sp_results_free(r);
}

static void test_missing_region_quoting_and_path(void **state) {
    (void)state;
    sp_results *r = tutorial("./runs//profiling_data.h5");
    sp_error err = {0};
    assert_null(sp_results_get(r, "it's", &err));
    assert_string_equal(err.message,
                        "No region named \"it's\" in runs/profiling_data.h5. Available regions: "
                        "['assemble', 'setup', 'timestep', 'solve']");
    assert_string_equal(sp_results_path(r), "./runs//profiling_data.h5");
    assert_string_equal(sp_results_path_text(r), "runs/profiling_data.h5");
    sp_results_free(r);
}

static void test_python_repr(void **state) {
    (void)state;
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"solve", "'solve'"},
        {"io/write \"x\"", "'io/write \"x\"'"},
        {"it's", "\"it's\""},
        {"a'b\"c", "'a\\'b\"c'"},
        {"a\nb\tc\\", "'a\\nb\\tc\\\\'"},
        {"\x01\x7f", "'\\x01\\x7f'"},
        {"caf\xc3\xa9 \xe2\x86\xbb", "'caf\xc3\xa9 \xe2\x86\xbb'"},
        {"\xc2\xa0\xe2\x80\xa8", "'\\xa0\\u2028'"},
        {"", "''"},
    };
    for (size_t i = 0; i < N(cases); i++) {
        sp_textbuf b = {0};
        sp_py_str_repr(&b, cases[i].in);
        assert_string_equal(sp_textbuf_str(&b), cases[i].out);
        sp_textbuf_free(&b);
    }
    static const struct {
        double x;
        const char *out;
    } floats[] = {{0.0, "0.0"},
                  {2.0, "2.0"},
                  {1e-05, "1e-05"},
                  {5.736e-06, "5.736e-06"},
                  {1e16, "1e+16"},
                  {0.07500000000000001, "0.07500000000000001"},
                  {1e15, "1000000000000000.0"},
                  {0.0001, "0.0001"},
                  {-1.5, "-1.5"}};
    for (size_t i = 0; i < N(floats); i++) {
        sp_textbuf b = {0};
        sp_py_float_append(&b, floats[i].x);
        assert_string_equal(sp_textbuf_str(&b), floats[i].out);
        sp_textbuf_free(&b);
    }
}

static void test_suggestions(void **state) {
    (void)state;
    static const char *const names[] = {"assemble", "setup", "timestep", "solve", "io/write"};
    assert_int_equal(sp_suggest_name("sovle", names, 5), 3);
    assert_int_equal(sp_suggest_name("asemble", names, 5), 0);
    assert_int_equal(sp_suggest_name("settup", names, 5), 1);
    assert_int_equal(sp_suggest_name("io_write", names, 5), 4);
    assert_int_equal(sp_suggest_name("solver", names, 5), 3);
    assert_int_equal(sp_suggest_name("x", names, 5), -1);
    assert_int_equal(sp_suggest_name("tmestp", names, 5), 2); /* 2 edits, 6 / 3 = 2 */
    assert_int_equal(sp_suggest_name("time", names, 5), -1);
}

static void test_long_region_list_is_cut_short(void **state) {
    (void)state;
    enum { MANY = 300 };
    char *names[MANY];
    mb_call calls[MANY];
    for (int i = 0; i < MANY; i++) {
        names[i] = malloc(32);
        snprintf(names[i], 32, "region_number_%03d", i);
        calls[i] = (mb_call){i, 0, i * 10, i * 10 + 5, MB_NO_THREAD};
    }
    mb_spec spec = {.regions = (const char *const *)names,
                    .num_regions = MANY,
                    .calls = calls,
                    .num_calls = MANY};
    sp_results *r = mb_results(&spec);
    sp_error err = {0};
    assert_null(sp_results_get(r, "region_number_1234", &err));
    assert_true(strlen(err.message) < sizeof err.message - 1);
    assert_non_null(strstr(err.message, ", ...] Did you mean 'region_number_123'?"));
    sp_results_free(r);
    for (int i = 0; i < MANY; i++)
        free(names[i]);
}

static void test_lookup_by_index_and_name(void **state) {
    (void)state;
    sp_results *r = tutorial(NULL);
    assert_int_equal(sp_results_num_regions(r), 4);
    assert_string_equal(sp_results_region_name(r, 2), "timestep");
    assert_null(sp_results_region_name(r, 4));
    assert_int_equal(sp_results_find(r, "solve"), 3);
    assert_int_equal(sp_results_find(r, "nope"), -1);
    assert_null(sp_results_region_at(r, 9));
    assert_string_equal(sp_mpi_region_name(sp_results_region_at(r, 1)), "setup");
    sp_error err = {0};
    assert_ptr_equal(sp_results_get(r, "setup", &err), sp_results_region_at(r, 1));
    sp_results_free(r);
}

static void test_describe(void **state) {
    (void)state;
    sp_results *r = tutorial("/data/runs/profiling_data.h5");
    char buf[128];
    int n = sp_results_describe(r, buf, sizeof buf);
    assert_string_equal(buf, "<ProfilingResults 'profiling_data.h5': 4 region(s), 1 rank(s)>");
    assert_int_equal(n, (int)strlen(buf));
    char small[10];
    assert_int_equal(sp_results_describe(r, small, sizeof small), n);
    assert_string_equal(small, "<Profilin");
    sp_error err = {0};
    sp_mpi_region_describe(sp_results_get(r, "timestep", &err), buf, sizeof buf);
    assert_string_equal(buf,
                        "<MPIRegion 'timestep': 1 calls on 1 rank(s), total 1e-07 s, avg 1e-07 s>");
    assert_int_equal(sp_results_schema(r), 3);
    assert_true(sp_results_has_events(r));
    sp_results_free(r);
}

static void test_labels(void **state) {
    (void)state;
    mb_spec spec = {.path = "/x/run_a.h5",
                    .regions = tutorial_regions,
                    .num_regions = 4,
                    .calls = tutorial_calls,
                    .num_calls = N(tutorial_calls)};
    sp_results *r = mb_results(&spec);
    assert_null(sp_results_label(r));
    assert_string_equal(sp_results_display_label(r), "run_a");
    sp_results_free(r);
    spec.label = "tutorial 2";
    r = mb_results(&spec);
    assert_string_equal(sp_results_label(r), "tutorial 2");
    assert_string_equal(sp_results_display_label(r), "tutorial 2");
    sp_results_free(r);
    spec.label = "";
    spec.path = "archive.tar.h5";
    r = mb_results(&spec);
    assert_null(sp_results_label(r));
    assert_string_equal(sp_results_display_label(r), "archive.tar");
    sp_results_free(r);
    sp_model m;
    spec.label = NULL;
    mb_model(&spec, &m);
    assert_int_equal(sp_model_meta_float(&m, "label", 2.5), SP_OK);
    sp_error err = {0};
    r = sp_results_adopt(&m, &err);
    assert_string_equal(sp_results_label(r), "2.5");
    sp_results_free(r);
}

static void test_run_times(void **state) {
    (void)state;
    mb_spec spec = {.regions = tutorial_regions,
                    .num_regions = 4,
                    .calls = tutorial_calls,
                    .num_calls = N(tutorial_calls)};
    sp_results *r = mb_results(&spec);
    assert_true(isnan(sp_results_run_start_time(r)));
    assert_true(isnan(sp_results_total_time(r)));
    assert_true(sp_results_time_origin(r) == 100e-9);
    assert_int_equal(sp_results_time_origin_ns(r), 100);
    assert_true(sp_results_minimum_start_time(r) == 100e-9);
    assert_true(sp_results_maximum_end_time(r) == 400e-9);
    assert_int_equal(sp_results_maximum_end_time_ns(r), 400);
    assert_true(sp_results_time_span(r) == 400e-9 - 100e-9);
    assert_true(sp_results_startup_time(r) == 0.0);
    sp_results_free(r);
    spec.has_start = spec.has_finalize = 1;
    spec.start_time_ns = 3345847280495;
    spec.finalize_time_ns = 3345925515719;
    r = mb_results(&spec);
    assert_true(sp_results_total_time(r) == 0.0782352239998545); /* py_tutorial2's value */
    assert_true(sp_results_time_origin(r) == 3345847280495 / 1e9);
    assert_int_equal(sp_results_time_origin_ns(r), 3345847280495);
    assert_true(sp_results_startup_time(r) == 100e-9 - 3345847280495 / 1e9);
    sp_results_free(r);
}

static void test_metadata_accessors(void **state) {
    (void)state;
    mb_spec spec = {.regions = tutorial_regions,
                    .num_regions = 4,
                    .calls = tutorial_calls,
                    .num_calls = N(tutorial_calls)};
    sp_model m;
    mb_model(&spec, &m);
    static const char *const modules[] = {"gcc/12", "openmpi/4"};
    assert_int_equal(sp_model_meta_string(&m, "platform", "Linux"), SP_OK);
    assert_int_equal(sp_model_meta_int(&m, "mpi_size", 1), SP_OK);
    assert_int_equal(sp_model_meta_float(&m, "ratio", 0.5), SP_OK);
    assert_int_equal(sp_model_meta_list(&m, "modules", modules, 2), SP_OK);
    sp_error err = {0};
    sp_results *r = sp_results_adopt(&m, &err);
    assert_int_equal(sp_results_num_metadata(r), 4);
    sp_metadata_item it;
    assert_true(sp_results_metadata_at(r, 0, &it));
    assert_string_equal(it.key, "platform");
    assert_int_equal(it.type, SP_VALUE_STRING);
    assert_string_equal(it.string_value, "Linux");
    assert_true(sp_results_metadata_at(r, 3, &it));
    assert_int_equal(it.type, SP_VALUE_STRING_LIST);
    assert_int_equal(it.list_len, 2);
    assert_string_equal(it.list[1], "openmpi/4");
    assert_false(sp_results_metadata_at(r, 4, &it));
    assert_true(sp_results_metadata_find(r, "ratio", &it));
    assert_true(it.type == SP_VALUE_FLOAT && it.float_value == 0.5);
    assert_true(sp_results_metadata_find(r, "mpi_size", &it) && it.int_value == 1);
    assert_false(sp_results_metadata_find(r, "user", &it));
    sp_results_free(r);
}

static void test_rank_counts(void **state) {
    (void)state;
    static const mb_call calls[] = {{0, 1, 0, 10, MB_NO_THREAD}, {0, 3, 0, 10, MB_NO_THREAD}};
    mb_spec spec = {.regions = tutorial_regions, .num_regions = 1, .calls = calls, .num_calls = 2};
    sp_results *r = mb_results(&spec);
    assert_int_equal(sp_results_num_ranks(r), 4); /* max rank + 1 */
    assert_int_equal(sp_results_num_data_ranks(r), 2);
    assert_int_equal(sp_results_rank(r, 0), 1);
    assert_int_equal(sp_results_rank(r, 1), 3);
    assert_int_equal(sp_results_rank(r, 2), UINT32_MAX);
    sp_results_free(r);
    spec.mpi_size = 8;
    r = mb_results(&spec);
    assert_int_equal(sp_results_num_ranks(r), 8);
    char buf[100];
    sp_results_describe(r, buf, sizeof buf);
    assert_string_equal(buf, "<ProfilingResults 'profiling_data.h5': 1 region(s), 8 rank(s)>");
    sp_results_free(r);
    spec.num_calls = 0;
    spec.mpi_size = 0;
    r = mb_results(&spec);
    assert_int_equal(sp_results_num_ranks(r), 0);
    assert_true(sp_results_time_span(r) == 0.0);
    sp_results_free(r);
}

/* A later row for the same (region, rank) replaces the earlier one, in its place. */
static void test_duplicate_rows(void **state) {
    (void)state;
    static const mb_call calls[] = {{0, 0, 0, 10, MB_NO_THREAD}, {0, 1, 0, 20, MB_NO_THREAD}};
    mb_spec spec = {.regions = tutorial_regions, .num_regions = 1, .calls = calls, .num_calls = 2};
    sp_model m;
    mb_model(&spec, &m);
    m.rows[1].rank = 0; /* two rows for rank 0: Python keeps the second */
    sp_error err = {0};
    sp_results *r = sp_results_adopt(&m, &err);
    const sp_mpi_region *mr = sp_results_region_at(r, 0);
    assert_int_equal(sp_mpi_region_num_ranks(mr), 1);
    assert_int_equal(sp_mpi_region_total_duration_ns(mr), 20);
    assert_true(sp_mpi_region_exclusive_duration(mr, &err) == 20e-9);
    sp_results_free(r);
}

/* Rows out of rank order (and a repeated (region, rank)): each region's ranks
 * come out ascending, the later duplicate counts, other regions untouched. */
static void test_rows_out_of_rank_order(void **state) {
    (void)state;
    static const mb_call calls[] = {{0, 0, 0, 10, MB_NO_THREAD},
                                    {0, 1, 0, 20, MB_NO_THREAD},
                                    {0, 2, 0, 30, MB_NO_THREAD},
                                    {0, 3, 0, 40, MB_NO_THREAD}};
    mb_spec spec = {.regions = tutorial_regions, .num_regions = 1, .calls = calls, .num_calls = 4};
    sp_model m;
    mb_model(&spec, &m);
    assert_int_equal(m.num_rows, 4);
    m.rows[0].rank = 7; /* rows by rank: 7, 2, 7 (replaces the first), 4 */
    m.rows[1].rank = 2;
    m.rows[2].rank = 7;
    m.rows[3].rank = 4;
    sp_error err = {0};
    sp_results *r = sp_results_adopt(&m, &err);
    assert_non_null(r);
    const sp_mpi_region *mr = sp_results_region_at(r, 0);
    assert_int_equal(sp_mpi_region_num_ranks(mr), 3);
    assert_int_equal(sp_mpi_region_rank_id(mr, 0), 2);
    assert_int_equal(sp_mpi_region_rank_id(mr, 1), 4);
    assert_int_equal(sp_mpi_region_rank_id(mr, 2), 7);
    double totals[3];
    assert_int_equal(sp_mpi_region_total_durations(mr, totals, 3), 3);
    assert_true(totals[0] == 20e-9 && totals[1] == 40e-9 && totals[2] == 30e-9);
    assert_int_equal(sp_mpi_region_total_duration_ns(mr), 90);
    assert_int_equal(sp_results_num_ranks(r), 8);
    sp_results_free(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_missing_region_with_suggestion),
        cmocka_unit_test(test_missing_region_quoting_and_path),
        cmocka_unit_test(test_python_repr),
        cmocka_unit_test(test_suggestions),
        cmocka_unit_test(test_long_region_list_is_cut_short),
        cmocka_unit_test(test_lookup_by_index_and_name),
        cmocka_unit_test(test_describe),
        cmocka_unit_test(test_labels),
        cmocka_unit_test(test_run_times),
        cmocka_unit_test(test_metadata_accessors),
        cmocka_unit_test(test_rank_counts),
        cmocka_unit_test(test_duplicate_rows),
        cmocka_unit_test(test_rows_out_of_rank_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
