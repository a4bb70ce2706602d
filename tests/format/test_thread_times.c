/*
 * /thread_table start_ns and end_ns: written relative to /metadata
 * start_time_ns as the Python package stores them (and marked so), read back
 * as absolute times; files of ours from before the change (absolute, no
 * mark, source_language "c") and Python files (relative, no mark) both read
 * to the same absolute times.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

#include <cmocka.h>

#include "format/writer.h"
#include "format_support.h"

enum { ORIGIN = 1000000000, START0 = 1000000500, END0 = 1000009000, START1 = 1000002000 };

/* The basic model with two threads and the metadata of a C run. */
static const char *write_threaded(const char *name, const char *language) {
    sp_model m;
    fs_basic_model(&m);
    m.thread_ids = calloc(m.num_events, sizeof *m.thread_ids);
    m.num_threads = 2;
    m.threads = calloc(2, sizeof *m.threads);
    assert_non_null(m.thread_ids);
    assert_non_null(m.threads);
    int64_t starts[2] = {START0, START1}, ends[2] = {END0, -1};
    for (size_t i = 0; i < 2; i++) {
        m.threads[i] = (sp_thread_info){
            .rank = 0, .index = (int64_t)i, .start_ns = starts[i], .end_ns = ends[i], .cpu_ns = 7};
        m.threads[i].name = sp_strdup(i ? "worker" : "main");
    }
    if (language) sp_model_meta_string(&m, "source_language", language);
    sp_model_meta_int(&m, "start_time_ns", ORIGIN);
    const char *path = fs_path(name);
    sp_error err;
    assert_int_equal(sp_write_model(&m, path, NULL, &err), SP_OK);
    sp_model_clear(&m);
    return path;
}

static void delete_attr(const char *path, const char *object, const char *name) {
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(f >= 0);
    assert_true(H5Adelete_by_name(f, object, name, H5P_DEFAULT) >= 0);
    H5Fclose(f);
}

static void assert_column(const char *path, const char *dataset, int64_t a, int64_t b) {
    size_t n = 0;
    int64_t *v = fs_read_ints(path, dataset, &n);
    assert_int_equal(n, 2);
    assert_int_equal(v[0], a);
    assert_int_equal(v[1], b);
    free(v);
}

static void assert_absolute(const char *path) {
    sp_model m;
    fs_read_ok(path, &m);
    assert_int_equal(m.num_threads, 2);
    assert_int_equal(m.threads[0].start_ns, START0);
    assert_int_equal(m.threads[0].end_ns, END0);
    assert_int_equal(m.threads[1].start_ns, START1);
    assert_int_equal(m.threads[1].end_ns, -1); /* unknown stays unknown */
    assert_int_equal(m.threads[0].cpu_ns, 7);
    sp_model_clear(&m);
}

static void test_written_relative_to_start_time(void **state) {
    (void)state;
    const char *path = write_threaded("relative.h5", "c");
    assert_column(path, "/thread_table/start_ns", START0 - ORIGIN, START1 - ORIGIN);
    assert_column(path, "/thread_table/end_ns", END0 - ORIGIN, -1);
    assert_column(path, "/thread_table/cpu_ns", 7, 7);
    assert_absolute(path);
}

/* A file of ours from before: absolute times, no mark, source_language "c". */
static void test_old_files_of_ours_stay_absolute(void **state) {
    (void)state;
    const char *path = write_threaded("old_c.h5", "c");
    delete_attr(path, "/thread_table", "relative_times");
    int64_t starts[2] = {START0, START1}, ends[2] = {END0, -1};
    fs_replace_ints(path, "/thread_table/start_ns", H5T_STD_I64LE, starts, 2);
    fs_replace_ints(path, "/thread_table/end_ns", H5T_STD_I64LE, ends, 2);
    assert_absolute(path);
}

/* The Python package's files: relative times, no mark, no source_language. */
static void test_python_files_are_relative(void **state) {
    (void)state;
    const char *path = write_threaded("python.h5", NULL);
    delete_attr(path, "/thread_table", "relative_times");
    assert_column(path, "/thread_table/start_ns", START0 - ORIGIN, START1 - ORIGIN);
    assert_absolute(path);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_written_relative_to_start_time),
        cmocka_unit_test(test_old_files_of_ours_stay_absolute),
        cmocka_unit_test(test_python_files_are_relative),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
