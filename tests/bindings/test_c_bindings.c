/* The exported entry points (sp_*_fn), thread names and the language
 * metadata, through the analysis API. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <scope_profiler.h>
#include <scope_profiler/results.h>

#include "../record/record_support.h"

static sp_results *finalize_and_read(const char *path) {
    sp_finalize_options quiet = SP_FINALIZE_OPTIONS_INIT;
    quiet.quiet = 1;
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    sp_error err;
    sp_results *r = sp_read(path, &err);
    assert_non_null(r);
    return r;
}

static const char *metadata_string(const sp_results *r, const char *key) {
    sp_metadata_item item;
    assert_true(sp_results_metadata_find(r, key, &item));
    assert_int_equal(item.type, SP_VALUE_STRING);
    return item.string_value;
}

static uint64_t calls_of(const sp_results *r, const char *name) {
    const sp_mpi_region *mr = sp_results_get(r, name, NULL);
    return mr ? sp_mpi_region_num_calls(mr) : 0;
}

/* The function forms nest and pair exactly like the inline ones, also with
 * the inline forms; a mismatched sp_end_fn reports its file:line. */
static void test_function_forms(void **state) {
    rs_fixture *f = *state;
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    assert_int_equal(sp_setup(&opt), SP_OK);
    sp_region_t outer = sp_region("outer"), inner = sp_region("inner");
    void (*begin)(sp_region_t) = sp_begin_fn; /* callable through a pointer */
    for (int i = 0; i < 10; i++) {
        begin(outer);
        sp_begin_name_fn("by name", __FILE__, __LINE__);
        sp_begin(inner);
        sp_end_fn(inner, __FILE__, __LINE__);
        sp_end_name_fn("by name", NULL, 0);
        sp_end(outer);
    }
    rs_capture_stderr_begin();
    sp_end_fn(inner, "solver.f90", 42);
    char *err = rs_capture_stderr_end();
    assert_non_null(strstr(err, "sp_end(\"inner\") at solver.f90:42"));
    free(err);
    sp_results *r = finalize_and_read(f->path);
    assert_int_equal(calls_of(r, "outer"), 10);
    assert_int_equal(calls_of(r, "by name"), 10);
    assert_int_equal(calls_of(r, "inner"), 10);
    sp_summary_rows *rows = sp_results_summary(r, NULL, 0, NULL);
    assert_non_null(rows); /* the call tree rebuilds: the calls nest */
    sp_summary_rows_free(rows);
    /* C is the default language */
    assert_string_equal(metadata_string(r, "source_language"), "c");
    sp_results_free(r);
    /* outside a session the function forms are no-ops */
    sp_begin_fn(outer);
    sp_end_fn(outer, NULL, 0);
}

static void test_source_language(void **state) {
    rs_fixture *f = *state;
    sp_set_source_language("fortran");
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    assert_int_equal(sp_setup(&opt), SP_OK);
    SP_REGION("x") {}
    sp_results *r = finalize_and_read(f->path);
    assert_string_equal(metadata_string(r, "source_language"), "fortran");
    sp_results_free(r);
    sp_set_source_language("a-language-name-longer-than-fifteen");
    assert_int_equal(sp_setup(&opt), SP_OK);
    r = finalize_and_read(f->path);
    assert_string_equal(metadata_string(r, "source_language"), "a-language-name");
    sp_results_free(r);
    sp_set_source_language(NULL);
    assert_int_equal(sp_setup(&opt), SP_OK);
    r = finalize_and_read(f->path);
    assert_string_equal(metadata_string(r, "source_language"), "c");
    sp_results_free(r);
}

static void *named_worker(void *arg) {
    const char *name = arg;
    if (name)
        assert_int_equal(sp_set_thread_name(name), SP_OK);
    else
        pthread_setname_np(pthread_self(), "os-named");
    SP_REGION("work") {
        rs_busy_wait_ns(100000);
    }
    return NULL;
}

static const char *lane_name(const sp_results *r, int64_t index) {
    for (size_t i = 0; i < sp_results_num_threads(r); i++) {
        sp_thread_summary t;
        if (sp_results_thread_summary(r, i, &t, NULL) == SP_OK && t.index == index) return t.name;
    }
    return NULL;
}

/* Names set by the call win over the system name, are kept after the
 * thread exits, and are cut at 63 bytes; unnamed threads keep theirs. */
static void test_thread_names(void **state) {
    rs_fixture *f = *state;
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = f->path;
    assert_int_equal(sp_set_thread_name(NULL), SP_ERR_INVALID_ARGUMENT);
    assert_int_equal(sp_set_thread_name("main thread"), SP_OK); /* before setup */
    assert_int_equal(sp_setup(&opt), SP_OK);
    SP_REGION("main work") {}
    static char long_name[80];
    memset(long_name, 'n', 79);
    pthread_t a, b, c;
    assert_int_equal(pthread_create(&a, NULL, named_worker, "solver \xc3\xa9"), 0);
    assert_int_equal(pthread_join(a, NULL), 0);
    assert_int_equal(pthread_create(&b, NULL, named_worker, long_name), 0);
    assert_int_equal(pthread_join(b, NULL), 0);
    assert_int_equal(pthread_create(&c, NULL, named_worker, NULL), 0);
    assert_int_equal(pthread_join(c, NULL), 0);
    sp_results *r = finalize_and_read(f->path);
    assert_int_equal(sp_results_num_threads(r), 4);
    assert_string_equal(lane_name(r, 0), "main thread");
    assert_string_equal(lane_name(r, 1), "solver \xc3\xa9");
    assert_int_equal(strlen(lane_name(r, 2)), 63);
    assert_string_equal(lane_name(r, 3), "os-named");
    sp_results_free(r);
    char system_name[16];
    pthread_getname_np(pthread_self(), system_name, sizeof system_name);
    assert_string_equal(system_name, "main thread"); /* debuggers see it too */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_function_forms, rs_setup_dir, rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_source_language, rs_setup_dir, rs_teardown_dir),
        cmocka_unit_test_setup_teardown(test_thread_names, rs_setup_dir, rs_teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
