/*
 * Fault injection: every allocation the reader makes fails once, in turn
 * (malloc, calloc and realloc are wrapped at link time for the library's
 * objects; libhdf5's own allocations are not). Each such read must end in
 * SP_ERR_OUT_OF_MEMORY with an empty model and nothing left open, never in
 * a crash, a leak (ASan, valgrind) or a silently degraded model.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/results_model.h"
#include "format/reader.h"
#include "format/writer.h"
#include "format_support.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);

static long fail_at; /* 0: no injection; k: the k-th allocation fails */
static long calls;

static int inject(void) {
    return fail_at && ++calls == fail_at;
}
void *__wrap_malloc(size_t size) {
    return inject() ? NULL : __real_malloc(size);
}
void *__wrap_calloc(size_t n, size_t size) {
    return inject() ? NULL : __real_calloc(n, size);
}
void *__wrap_realloc(void *p, size_t size) {
    return inject() ? NULL : __real_realloc(p, size);
}

/* Reads path once per allocation point; returns how many there were. */
static long fail_each_allocation(const char *path, int public_api) {
    for (long k = 1;; k++) {
        long before = fs_open_ids();
        sp_model m;
        sp_error err;
        sp_results *r = NULL;
        calls = 0;
        fail_at = k;
        sp_status st = public_api ? ((r = sp_read(path, &err)) ? SP_OK : err.status)
                                  : sp_read_model(path, &m, &err);
        fail_at = 0;
        assert_int_equal(fs_open_ids(), before);
        if (st == SP_OK) {
            if (calls >= k) fail_msg("%s: allocation %ld failed, yet the read succeeded", path, k);
            if (r)
                sp_results_free(r);
            else
                sp_model_clear(&m);
            return k - 1;
        }
        if (st != SP_ERR_OUT_OF_MEMORY)
            fail_msg("%s: allocation %ld failed: %s (status %d)", path, k, err.message, st);
        assert_true(strncmp(err.message, path, strlen(path)) == 0 || public_api);
        if (!public_api) assert_null(m.rows);
    }
}

static void fixture(const char *stem, int public_api) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s.h5", SP_FIXTURES_DIR, stem);
    long points = fail_each_allocation(path, public_api);
    assert_true(points > 10);
}

static void test_fixtures(void **state) {
    (void)state;
    fixture("py_tutorial2", 0);
    fixture("c_schema2", 0);
    fixture("multirank_schema3", 0);
    fixture("legacy_schema1", 0);
}

static void test_public_read(void **state) {
    (void)state;
    fixture("py_tutorial2", 1);
}

/* A file with every optional part: metadata of each type, threads, offsets. */
static void test_everything(void **state) {
    (void)state;
    sp_model m;
    fs_basic_model(&m);
    const char *list[] = {"a", "b"};
    sp_model_meta_float(&m, "pi", 3.14);
    sp_model_meta_list(&m, "modules", list, 2);
    m.thread_ids = calloc(m.num_events, sizeof *m.thread_ids);
    m.num_threads = 1;
    m.threads = calloc(1, sizeof *m.threads);
    m.threads[0].name = sp_strdup("main");
    m.num_clock_offsets = 1;
    m.clock_offsets = calloc(1, sizeof *m.clock_offsets);
    const char *path = fs_path("everything.h5");
    sp_error err;
    assert_int_equal(sp_write_model(&m, path, NULL, &err), SP_OK);
    sp_model_clear(&m);
    assert_true(fail_each_allocation(path, 0) > 20);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixtures),
        cmocka_unit_test(test_public_read),
        cmocka_unit_test(test_everything),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
