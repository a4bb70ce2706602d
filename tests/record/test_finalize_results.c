/* sp_finalize hands back the run's results without reading the file again,
 * and prints the summary table unless quiet. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <scope_profiler.h>
#include <scope_profiler/results.h>

#include "record_support.h"

static void record_tutorial_shape(void) {
    SP_REGION("setup") {
        rs_busy_wait_ns(200000);
    }
    for (int step = 0; step < 5; step++)
        SP_REGION("timestep") {
            SP_REGION("assemble") {
                rs_busy_wait_ns(100000);
            }
            SP_REGION("solve") {
                rs_busy_wait_ns(50000);
            }
        }
}

static void test_results_handed_back(void **state) {
    rs_fixture *f = *state;
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    assert_int_equal(sp_setup(&opt), SP_OK);
    record_tutorial_shape();
    sp_results *handed = NULL;
    sp_finalize_options fo = {.quiet = 1, .results = &handed};
    assert_int_equal(sp_finalize(&fo), SP_OK);
    assert_non_null(handed);
    assert_string_equal(sp_results_path(handed), f->path);

    /* the same answers as reading the file */
    sp_error err;
    sp_results *read = sp_read(f->path, &err);
    assert_non_null(read);
    assert_int_equal(sp_results_num_regions(handed), 5); /* with the session root */
    assert_int_equal(sp_results_num_regions(read), 5);
    sp_summary_rows *a = sp_results_summary(handed, NULL, 0, &err);
    sp_summary_rows *b = sp_results_summary(read, NULL, 0, &err);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(a->count, b->count);
    for (size_t i = 0; i < a->count; i++) {
        assert_string_equal(a->rows[i].name, b->rows[i].name);
        assert_int_equal(a->rows[i].num_calls, b->rows[i].num_calls);
        assert_true(a->rows[i].total_duration == b->rows[i].total_duration);
        assert_true(a->rows[i].exclusive_duration == b->rows[i].exclusive_duration);
        assert_true(a->rows[i].p95_duration == b->rows[i].p95_duration);
    }
    assert_string_equal(a->rows[0].name, "scope_profiler.session");
    assert_int_equal(a->rows[0].num_calls, 1);
    assert_string_equal(a->rows[2].name, "timestep");
    assert_int_equal(a->rows[2].num_calls, 5);
    sp_summary_rows_free(a);
    sp_summary_rows_free(b);
    sp_results_free(read);
    sp_results_free(handed);
}

static void test_summary_printed_unless_quiet(void **state) {
    rs_fixture *f = *state;
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    assert_int_equal(sp_setup(&opt), SP_OK);
    record_tutorial_shape();
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    sp_finalize_options fo = {.stream = mem};
    assert_int_equal(sp_finalize(&fo), SP_OK);
    fclose(mem);
    /* everything under the session root, shares of it in "% session" */
    assert_non_null(strstr(text, "│ region                    % session      total "));
    assert_non_null(strstr(text, "│ scope_profiler.session    100.00%"));
    assert_non_null(strstr(text, "│ └─ timestep (5x)"));
    assert_non_null(strstr(text, "│ │ └─ (own)"));
    assert_non_null(strstr(text, "│ │ └─ assemble (5x)"));
    assert_non_null(strstr(text, "Summary: "));
    assert_non_null(strstr(text, "profile.h5 (1 rank)"));
    free(text);

    /* SCOPE_PROFILER_QUIET silences it */
    setenv("SCOPE_PROFILER_QUIET", "1", 1);
    assert_int_equal(sp_setup(&opt), SP_OK);
    record_tutorial_shape();
    text = NULL;
    mem = open_memstream(&text, &size);
    fo.stream = mem;
    assert_int_equal(sp_finalize(&fo), SP_OK);
    fclose(mem);
    assert_int_equal(size, 0);
    free(text);
    unsetenv("SCOPE_PROFILER_QUIET");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_results_handed_back, rs_setup_dir, rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_summary_printed_unless_quiet, rs_setup_dir,
                                        rs_teardown_dir),
    };
    unsetenv("SCOPE_PROFILER_QUIET");
    return cmocka_run_group_tests(tests, NULL, NULL);
}
