/*
 * A recording call never waits for the thread list lock: sp_finalize holds
 * that lock while it waits for every thread's busy mark to clear
 * (record/quiesce.c), so a call that took its busy mark and then waited for
 * the lock would never clear it (a deadlock seen in CI, when a thread's first
 * call of a new session raced the finalize of that session). The test holds
 * the lock itself, as finalize would, and makes an attached thread's first
 * call of a new session: the call must return while the lock is held.
 */
#include <pthread.h>
#include <scope_profiler.h>
#include <scope_profiler/results.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "../record/record_support.h"
#include "record/thread_state.h"

static const sp_finalize_options quiet = {.quiet = 1};

typedef struct worker {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int go;   /* rounds the main thread asked for */
    int done; /* rounds the worker finished */
    int quit;
} worker;

static void *record_on_request(void *arg) {
    worker *w = arg;
    sp_region_t h = sp_region("first call");
    pthread_mutex_lock(&w->lock);
    for (;;) {
        while (w->go == w->done && !w->quit)
            pthread_cond_wait(&w->changed, &w->lock);
        if (w->quit) break;
        pthread_mutex_unlock(&w->lock);
        sp_begin(h);
        sp_end(h);
        pthread_mutex_lock(&w->lock);
        w->done++;
        pthread_cond_broadcast(&w->changed);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

/* Asks for one round; 1 if it finished within two seconds. */
static int round_finishes(worker *w) {
    pthread_mutex_lock(&w->lock);
    int want = ++w->go;
    pthread_cond_broadcast(&w->changed);
    int64_t give_up = rs_now_ns() + 2000000000;
    while (w->done < want && rs_now_ns() < give_up) {
        pthread_mutex_unlock(&w->lock);
        rs_busy_wait_ns(1000000);
        pthread_mutex_lock(&w->lock);
    }
    int finished = w->done >= want;
    pthread_mutex_unlock(&w->lock);
    return finished;
}

static void first_call_of_a_session_takes_no_list_lock(void **state) {
    rs_fixture *fx = *state;
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = fx->path;
    opt.compression = SP_COMPRESSION_NONE;
    worker w = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0};
    pthread_t tid;
    assert_int_equal(sp_setup(&opt), SP_OK);
    pthread_create(&tid, NULL, record_on_request, &w);
    assert_true(round_finishes(&w)); /* attaches the thread: that may take the lock */
    assert_int_equal(sp_finalize(&quiet), SP_OK);

    for (int session = 0; session < 3; session++) {
        assert_int_equal(sp_setup(&opt), SP_OK);
        sp_thread_lock_for_fork(); /* the lock finalize holds while it waits */
        int finished = round_finishes(&w);
        sp_thread_unlock_after_fork();
        if (!finished) {
            round_finishes(&w); /* let it end before failing */
            fail_msg("session %d: the thread's first call waited for the thread list lock",
                     session);
        }
        assert_int_equal(sp_finalize(&quiet), SP_OK);
        sp_error err;
        sp_results *r = sp_read(fx->path, &err);
        assert_non_null(r);
        assert_int_equal(sp_mpi_region_num_calls(sp_results_get(r, "first call", &err)), 1);
        sp_results_free(r);
    }
    pthread_mutex_lock(&w.lock);
    w.quit = 1;
    pthread_cond_broadcast(&w.changed);
    pthread_mutex_unlock(&w.lock);
    pthread_join(tid, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(first_call_of_a_session_takes_no_list_lock, rs_setup_dir,
                                        rs_teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
