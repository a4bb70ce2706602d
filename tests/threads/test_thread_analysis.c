/* Threads in the analysis: lanes per thread (no nesting error for
 * overlapping threads, exclusive time right per lane), per-thread
 * summaries, a region's calls per thread. */
#include <math.h>
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

#define MS 1000000LL
enum { CALLS = 20 };

static pthread_barrier_t barrier;

/* outer: 3 ms, of which 1 ms in inner */
static void *worker(void *arg) {
    pthread_setname_np(pthread_self(), (const char *)arg);
    pthread_barrier_wait(&barrier);
    for (int i = 0; i < CALLS; i++) {
        SP_REGION("outer") {
            rs_busy_wait_ns(MS);
            SP_REGION("inner") {
                rs_busy_wait_ns(MS);
            }
            rs_busy_wait_ns(MS);
        }
    }
    return NULL;
}

static void test_lanes_and_thread_summaries(void **state) {
    (void)state;
    char *dir = rs_temp_dir();
    char *path = rs_path_in(dir, "lanes.h5");
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    assert_int_equal(sp_setup(&opt), SP_OK);
    pthread_barrier_init(&barrier, NULL, 2);
    pthread_t a, b;
    pthread_create(&a, NULL, worker, "lane_a");
    pthread_create(&b, NULL, worker, "lane_b");
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_barrier_destroy(&barrier);
    sp_finalize_options quiet = {.quiet = 1};
    assert_int_equal(sp_finalize(&quiet), SP_OK);

    sp_error err;
    sp_results *r = sp_read(path, &err);
    assert_non_null(r);
    /* the two threads overlap in time: without lanes this would be a nesting error */
    sp_summary_rows *rows = sp_results_summary(r, NULL, 0, &err);
    assert_non_null(rows);
    const sp_mpi_region *outer = sp_results_get(r, "outer", &err);
    const sp_mpi_region *inner = sp_results_get(r, "inner", &err);
    double excl = sp_mpi_region_exclusive_duration(outer, &err);
    double expected = sp_mpi_region_total_duration(outer) - sp_mpi_region_total_duration(inner);
    assert_true(fabs(excl - expected) < 1e-12); /* every inner call is a child in its lane */
    assert_true(excl >= 2 * CALLS * 2 * 1e-3);  /* 2 ms own time per call, 2 threads */
    sp_summary_rows_free(rows);

    /* thread 0: the main thread, which holds only the session root */
    assert_int_equal(sp_results_num_threads(r), 3);
    sp_thread_summary main_thread;
    assert_int_equal(sp_results_thread_summary(r, 0, &main_thread, &err), SP_OK);
    assert_int_equal(main_thread.num_calls, 1);
    assert_true(main_thread.time_in_regions >= main_thread.wall_time - 1e-9);
    const sp_rank_region *outer0 = sp_mpi_region_rank(outer, 0, &err);
    for (size_t i = 1; i < 3; i++) {
        sp_thread_summary t;
        assert_int_equal(sp_results_thread_summary(r, i, &t, &err), SP_OK);
        assert_int_equal(t.rank, 0);
        assert_int_equal(t.index, (int64_t)i);
        assert_true(strcmp(t.name, "lane_a") == 0 || strcmp(t.name, "lane_b") == 0);
        assert_int_equal(t.num_calls, 2 * CALLS);
        assert_true(t.native_id > 0);
        /* inside regions: the outer calls, at least 3 ms each; wall time spans them */
        assert_true(t.time_in_regions >= CALLS * 3e-3);
        assert_true(t.wall_time >= t.time_in_regions - 1e-9);
        assert_true(t.cpu_time > 0); /* how much depends on the machine's load */
        assert_int_equal(sp_rank_region_thread_calls(outer0, t.index, NULL, 0), CALLS);
    }
    uint64_t idx[CALLS];
    assert_int_equal(sp_rank_region_thread_calls(outer0, 2, idx, CALLS), CALLS);
    for (int i = 1; i < CALLS; i++)
        assert_true(idx[i] > idx[i - 1]);
    sp_thread_summary t;
    assert_int_equal(sp_results_thread_summary(r, 3, &t, &err), SP_ERR_INVALID_ARGUMENT);

    /* events carry their thread */
    sp_event_iter *it = sp_events_open(r, NULL, &err);
    assert_non_null(it);
    sp_event ev;
    int per_thread[3] = {0, 0, 0};
    while (sp_events_next(it, &ev)) {
        assert_true(ev.thread >= 0 && ev.thread <= 2);
        per_thread[ev.thread]++;
    }
    sp_events_close(it);
    assert_int_equal(per_thread[0], 1);
    assert_int_equal(per_thread[1], 2 * CALLS);
    assert_int_equal(per_thread[2], 2 * CALLS);
    sp_results_free(r);
    rs_remove_tree(dir);
    free(dir);
    free(path);
}

/* A single-threaded file has no thread table: one lane per rank, thread 0. */
static void test_single_thread_lane(void **state) {
    (void)state;
    char *dir = rs_temp_dir();
    char *path = rs_path_in(dir, "single.h5");
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    assert_int_equal(sp_setup(&opt), SP_OK);
    for (int i = 0; i < 3; i++)
        SP_REGION("only") {
            rs_busy_wait_ns(MS);
        }
    sp_finalize_options quiet = {.quiet = 1};
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    sp_error err;
    sp_results *r = sp_read(path, &err);
    assert_non_null(r);
    assert_int_equal(sp_results_num_threads(r), 1);
    sp_thread_summary t;
    assert_int_equal(sp_results_thread_summary(r, 0, &t, &err), SP_OK);
    assert_int_equal(t.index, 0);
    assert_int_equal(t.num_calls, 4); /* and the session root */
    assert_string_equal(t.name, "");
    assert_true(isnan(t.cpu_time));
    assert_true(t.time_in_regions >= 3e-3);
    sp_results_free(r);
    rs_remove_tree(dir);
    free(dir);
    free(path);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lanes_and_thread_summaries),
        cmocka_unit_test(test_single_thread_lane),
    };
    setenv("SCOPE_PROFILER_QUIET", "1", 1);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
