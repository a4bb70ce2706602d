/*
 * Finalize when memory for the summary's columns runs out (issue 10 item 2,
 * "the calls recorded so far are kept"): every allocation of 4 MiB or more
 * fails (malloc and calloc wrapped at link time), so the model's event
 * columns cannot be had. The profile is still written, streamed from the
 * chunks, with one line saying the summary is left out; asking for the
 * results then gives SP_ERR_OUT_OF_MEMORY and no results, the file written.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <scope_profiler.h>
#include <scope_profiler/results.h>

#include "record_support.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);

#define BIG (4u << 20)
static int fail_big;

void *__wrap_malloc(size_t size) {
    return fail_big && size >= BIG ? NULL : __real_malloc(size);
}
void *__wrap_calloc(size_t n, size_t size) {
    return fail_big && size && n >= BIG / size ? NULL : __real_calloc(n, size);
}

static const char note[] = "scope-profiler: not enough memory for the summary at finalize: the "
                           "profile is written without it (scope-profiler inspect FILE shows it)\n";

/* 1 million calls: 8 MB per event column. */
static void record(const rs_fixture *f) {
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    assert_int_equal(sp_setup(&opt), SP_OK);
    sp_region_t h = sp_region("kept");
    for (int i = 0; i < 1000000; i++) {
        sp_begin(h);
        sp_end(h);
    }
}

static void check_file(const rs_fixture *f) {
    rs_profile p;
    assert_int_equal(rs_profile_load(f->path, &p), 0);
    assert_int_equal(rs_calls_of(&p, "kept"), 1000000);
    rs_profile_free(&p);
}

static void test_table_without_memory_still_writes(void **state) {
    const rs_fixture *f = *state;
    record(f);
    char *table = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&table, &len);
    sp_finalize_options fo = {.quiet = 0, .stream = out};
    rs_capture_stderr_begin();
    fail_big = 1;
    sp_status st = sp_finalize(&fo);
    fail_big = 0;
    char *err = rs_capture_stderr_end();
    fclose(out);
    assert_int_equal(st, SP_OK);
    assert_string_equal(err, note);
    assert_int_equal(len, 0); /* no table */
    free(table);
    free(err);
    check_file(f);
}

static void test_results_without_memory(void **state) {
    const rs_fixture *f = *state;
    record(f);
    sp_results *results = (sp_results *)1;
    sp_finalize_options fo = {.quiet = 1, .results = &results};
    rs_capture_stderr_begin();
    fail_big = 1;
    sp_status st = sp_finalize(&fo);
    fail_big = 0;
    char *err = rs_capture_stderr_end();
    assert_int_equal(st, SP_ERR_OUT_OF_MEMORY);
    assert_null(results);
    assert_string_equal(err, note);
    free(err);
    check_file(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_table_without_memory_still_writes, rs_setup_dir,
                                        rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_results_without_memory, rs_setup_dir, rs_teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
