/* Recording from several threads at once: nothing lost, nothing mixed up. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <scope_profiler.h>

#include "../support/h5_inspect.h"
#include "record_support.h"

enum { CALLS = 50000 };

static pthread_barrier_t barrier;

static void *worker(void *arg) {
    const char *own = arg;
    pthread_setname_np(pthread_self(), own);
    sp_region_t mine = sp_region(own);
    pthread_barrier_wait(&barrier); /* both threads record at the same time */
    for (int i = 0; i < CALLS; i++) {
        SP_REGION("shared") {
            sp_begin(mine);
            sp_end(mine);
        }
    }
    return NULL;
}

static void test_two_threads_record_concurrently(void **state) {
    (void)state;
    char *dir = rs_temp_dir();
    char *path = rs_path_in(dir, "threads.h5");
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    assert_int_equal(sp_setup(&opt), SP_OK);
    pthread_barrier_init(&barrier, NULL, 2);
    pthread_t a, b;
    pthread_create(&a, NULL, worker, "worker_a");
    pthread_create(&b, NULL, worker, "worker_b");
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_barrier_destroy(&barrier);
    sp_finalize_options quiet = {.quiet = 1};
    assert_int_equal(sp_finalize(&quiet), SP_OK);

    rs_profile p;
    assert_int_equal(rs_profile_load(path, &p), 0);
    assert_int_equal(rs_calls_of(&p, "shared"), 2 * CALLS);
    assert_int_equal(rs_calls_of(&p, "worker_a"), CALLS);
    assert_int_equal(rs_calls_of(&p, "worker_b"), CALLS);
    assert_non_null(p.thread_ids);
    /* thread 0 is the main thread: it holds the session root from setup to finalize */
    long root = rs_row_of(&p, "scope_profiler.session");
    assert_int_equal(p.counts[root], 1);
    assert_int_equal(p.thread_ids[p.offsets[root]], 0);
    /* the shared row holds both workers' calls in start order, each thread's half */
    long s = rs_row_of(&p, "shared");
    int64_t per_thread[3] = {0, 0, 0};
    for (int64_t i = 0; i < p.counts[s]; i++) {
        int64_t e = p.offsets[s] + i, t = p.thread_ids[e];
        assert_true(t == 1 || t == 2);
        per_thread[t]++;
        if (i > 0) assert_true(p.starts[e] >= p.starts[e - 1]);
    }
    assert_int_equal(per_thread[1], CALLS);
    assert_int_equal(per_thread[2], CALLS);
    /* each worker region belongs to one thread only */
    long wa = rs_row_of(&p, "worker_a"), wb = rs_row_of(&p, "worker_b");
    int64_t ta = p.thread_ids[p.offsets[wa]], tb = p.thread_ids[p.offsets[wb]];
    assert_int_not_equal(ta, tb);
    for (int64_t i = 0; i < CALLS; i++) {
        assert_int_equal(p.thread_ids[p.offsets[wa] + i], ta);
        assert_int_equal(p.thread_ids[p.offsets[wb] + i], tb);
    }
    rs_profile_free(&p);

    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    size_t n;
    char **names = h5i_read_strings(file, "/thread_table/name", &n);
    assert_int_equal(n, 3); /* the main thread (session root) and the two workers */
    assert_true((strcmp(names[1], "worker_a") == 0 && strcmp(names[2], "worker_b") == 0) ||
                (strcmp(names[1], "worker_b") == 0 && strcmp(names[2], "worker_a") == 0));
    h5i_free_strings(names, n);
    int64_t *index = h5i_read_int64(file, "/thread_table/index", &n);
    assert_int_equal(index[0], 0);
    assert_int_equal(index[1], 1);
    assert_int_equal(index[2], 2);
    free(index);
    H5Fclose(file);
    rs_remove_tree(dir);
    free(dir);
    free(path);
}

/* A thread that ended before finalize keeps its calls; its open call is reported. */
static void *short_lived(void *arg) {
    (void)arg;
    for (int i = 0; i < 10; i++)
        SP_REGION("short_lived") {}
    sp_begin(sp_region("left_open"));
    return NULL;
}

static void test_exited_thread_keeps_its_calls(void **state) {
    (void)state;
    char *dir = rs_temp_dir();
    char *path = rs_path_in(dir, "exited.h5");
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    assert_int_equal(sp_setup(&opt), SP_OK);
    pthread_t t;
    pthread_create(&t, NULL, short_lived, NULL);
    pthread_join(t, NULL);
    SP_REGION("main_thread") {}
    sp_finalize_options quiet = {.quiet = 1};
    rs_capture_stderr_begin();
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    char *err = rs_capture_stderr_end();
    assert_non_null(strstr(err, "1 call(s) still open at finalize were left out: \"left_open\""));
    free(err);
    rs_profile p;
    assert_int_equal(rs_profile_load(path, &p), 0);
    assert_int_equal(rs_calls_of(&p, "short_lived"), 10);
    assert_int_equal(rs_calls_of(&p, "main_thread"), 1);
    assert_int_equal(rs_calls_of(&p, "left_open"), 0);
    rs_profile_free(&p);
    rs_remove_tree(dir);
    free(dir);
    free(path);
}

/* Threads started and joined one after the other: the thread table gives
 * each its name and an activity span that does not overlap the next one's. */
static void *named_worker(void *arg) {
    pthread_setname_np(pthread_self(), (const char *)arg);
    for (int i = 0; i < 100; i++)
        SP_REGION("step") {
            rs_busy_wait_ns(10000);
        }
    return NULL;
}

static void test_sequential_named_threads(void **state) {
    (void)state;
    char *dir = rs_temp_dir();
    char *path = rs_path_in(dir, "sequential.h5");
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    assert_int_equal(sp_setup(&opt), SP_OK);
    static const char *const names[] = {"first", "second", "third"};
    for (int i = 0; i < 3; i++) {
        pthread_t t;
        pthread_create(&t, NULL, named_worker, (void *)names[i]);
        pthread_join(t, NULL);
    }
    sp_finalize_options quiet = {.quiet = 1};
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    size_t n;
    char **table_names = h5i_read_strings(file, "/thread_table/name", &n);
    assert_int_equal(n, 4); /* the main thread (index 0: the session root) and the three */
    int64_t *start = h5i_read_int64(file, "/thread_table/start_ns", &n);
    int64_t *end = h5i_read_int64(file, "/thread_table/end_ns", &n);
    int64_t *cpu = h5i_read_int64(file, "/thread_table/cpu_ns", &n);
    int64_t *native = h5i_read_int64(file, "/thread_table/native_id", &n);
    for (int i = 1; i <= 3; i++) {
        assert_string_equal(table_names[i], names[i - 1]); /* index = order of first call */
        assert_true(start[i] < end[i]);
        assert_true(cpu[i] > 0); /* it spun; how long on the CPU depends on the load */
        assert_true(native[i] > 0);
        if (i > 1) assert_true(end[i - 1] <= start[i]);
        /* the main thread's session root spans all of them */
        assert_true(start[0] <= start[i] && end[i] <= end[0]);
    }
    h5i_free_strings(table_names, 4);
    free(start);
    free(end);
    free(cpu);
    free(native);
    H5Fclose(file);
    rs_remove_tree(dir);
    free(dir);
    free(path);
}

/* sp_finalize on another thread than sp_setup's still ends the session root
 * (nothing reported open) and the root spans the calls of both threads. */
static void *finalize_here(void *arg) {
    SP_REGION("finalizer") {}
    sp_finalize_options quiet = {.quiet = 1};
    *(sp_status *)arg = sp_finalize(&quiet);
    return NULL;
}

static void test_finalize_on_another_thread(void **state) {
    (void)state;
    char *dir = rs_temp_dir();
    char *path = rs_path_in(dir, "other.h5");
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    assert_int_equal(sp_setup(&opt), SP_OK);
    SP_REGION("main_work") {
        rs_busy_wait_ns(1000000);
    }
    sp_status st = SP_ERR_NOT_ACTIVE;
    pthread_t t;
    rs_capture_stderr_begin();
    pthread_create(&t, NULL, finalize_here, &st);
    pthread_join(t, NULL);
    char *err = rs_capture_stderr_end();
    assert_int_equal(st, SP_OK);
    assert_string_equal(err, ""); /* the root is not an open call left out */
    free(err);
    rs_profile p;
    assert_int_equal(rs_profile_load(path, &p), 0);
    long root = rs_row_of(&p, "scope_profiler.session"), w = rs_row_of(&p, "main_work"),
         f = rs_row_of(&p, "finalizer");
    assert_true(root >= 0 && w >= 0 && f >= 0);
    assert_int_equal(p.counts[root], 1);
    int64_t r0 = p.starts[p.offsets[root]], r1 = r0 + p.durations[p.offsets[root]];
    assert_int_equal(p.thread_ids[p.offsets[root]], p.thread_ids[p.offsets[w]]);
    assert_true(r0 <= p.starts[p.offsets[w]]);
    assert_true(p.starts[p.offsets[f]] + p.durations[p.offsets[f]] <= r1);
    rs_profile_free(&p);
    rs_remove_tree(dir);
    free(dir);
    free(path);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_threads_record_concurrently),
        cmocka_unit_test(test_exited_thread_keeps_its_calls),
        cmocka_unit_test(test_sequential_named_threads),
        cmocka_unit_test(test_finalize_on_another_thread),
    };
    setenv("SCOPE_PROFILER_QUIET", "1", 1);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
