/*
 * The session switch against threads (docs/robustness.md): two sp_finalize
 * calls at once, and threads that keep recording while the main thread runs
 * set-up/finalize cycles. One finalize wins, the other gets a status; calls
 * racing a finalize are dropped (and counted), never written to freed memory.
 * Run under ASan and TSan (label threads).
 */
#include <pthread.h>
#include <scope_profiler.h>
#include <scope_profiler/results.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../record/record_support.h"

static const sp_finalize_options quiet = {.quiet = 1};

typedef struct finalizer {
    pthread_barrier_t *start;
    sp_status status;
} finalizer;

static void *finalize_now(void *arg) {
    finalizer *f = arg;
    pthread_barrier_wait(f->start);
    f->status = sp_finalize(&quiet);
    return NULL;
}

static void two_finalizes_one_wins(void **state) {
    rs_fixture *fx = *state;
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = fx->path;
    opt.compression = SP_COMPRESSION_NONE;
    sp_region_t h = sp_region("work");
    for (int round = 0; round < 30; round++) {
        assert_int_equal(sp_setup(&opt), SP_OK);
        for (int i = 0; i < 100; i++) {
            sp_begin(h);
            sp_end(h);
        }
        pthread_barrier_t start;
        pthread_barrier_init(&start, NULL, 2);
        finalizer a = {&start, -1}, b = {&start, -1};
        pthread_t ta, tb;
        pthread_create(&ta, NULL, finalize_now, &a);
        pthread_create(&tb, NULL, finalize_now, &b);
        pthread_join(ta, NULL);
        pthread_join(tb, NULL);
        pthread_barrier_destroy(&start);
        int ok = (a.status == SP_OK) + (b.status == SP_OK);
        int refused = (a.status == SP_ERR_NOT_ACTIVE) + (b.status == SP_ERR_NOT_ACTIVE);
        if (ok != 1 || refused != 1)
            fail_msg("round %d: finalize statuses %d and %d", round, a.status, b.status);
        sp_error err;
        sp_results *r = sp_read(fx->path, &err);
        assert_non_null(r);
        assert_int_equal(sp_mpi_region_num_calls(sp_results_get(r, "work", &err)), 100);
        sp_results_free(r);
    }
}

typedef struct worker {
    int stop;
    unsigned long loops;
} worker;

static void *record_forever(void *arg) {
    worker *w = arg;
    sp_region_t outer = sp_region("outer"), inner = sp_region("inner");
    while (!__atomic_load_n(&w->stop, __ATOMIC_RELAXED)) {
        sp_begin(outer);
        for (int i = 0; i < 8; i++) {
            sp_begin(inner);
            sp_end(inner);
        }
        sp_begin_name("by name");
        sp_end_name("by name");
        sp_end(outer);
        w->loops++;
    }
    return NULL;
}

static void recording_threads_survive_cycles(void **state) {
    rs_fixture *fx = *state;
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = fx->path;
    opt.compression = SP_COMPRESSION_NONE;
    enum { WORKERS = 3, CYCLES = 20 };
    worker w[WORKERS];
    pthread_t tid[WORKERS];
    memset(w, 0, sizeof w);
    assert_int_equal(sp_setup(&opt), SP_OK);
    for (int i = 0; i < WORKERS; i++)
        pthread_create(&tid[i], NULL, record_forever, &w[i]);
    rs_capture_stderr_begin();
    int written = 0;
    for (int c = 0; c < CYCLES; c++) {
        rs_busy_wait_ns(2000000);
        sp_status st = sp_finalize(&quiet);
        if (st != SP_OK) fail_msg("cycle %d: finalize returned %d", c, st);
        sp_error err;
        sp_results *r = sp_read(fx->path, &err);
        if (!r) fail_msg("cycle %d: %s", c, err.message);
        written += sp_results_find(r, "inner") >= 0;
        if (getenv("SP_DEBUG_RACE"))
            fprintf(stdout, "cycle %d: %zu regions, path %s\n", c, sp_results_num_regions(r),
                    sp_output_path());
        sp_results_free(r);
        assert_int_equal(sp_setup(&opt), SP_OK);
    }
    for (int i = 0; i < WORKERS; i++)
        __atomic_store_n(&w[i].stop, 1, __ATOMIC_RELAXED);
    for (int i = 0; i < WORKERS; i++)
        pthread_join(tid[i], NULL);
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    free(rs_capture_stderr_end());
    assert_true(written > 0); /* the workers' calls did get recorded */
    printf("%d of %d cycles held the workers' calls; %lu worker loops\n", written, CYCLES,
           w[0].loops + w[1].loops + w[2].loops);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(two_finalizes_one_wins, rs_setup_dir, rs_teardown_dir),
        cmocka_unit_test_setup_teardown(recording_threads_survive_cycles, rs_setup_dir,
                                        rs_teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
