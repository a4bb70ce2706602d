/*
 * OpenMP work under its parent (docs/parallel.md): in each of 5 steps on
 * the setup thread, 4 OpenMP threads run omp_body for 1x, 2x, 3x and 4x a
 * unit of work (a sleep). The merged tree puts every omp_body under step (calls
 * exact, 4 threads), step keeps only its own thread's child out of its
 * exclusive time, and the thread balance names the 4x thread.
 */
#include <math.h>
#include <omp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <scope_profiler.h>
#include <scope_profiler/balance.h>
#include <scope_profiler/results.h>

#include "../record/record_support.h"

enum { STEPS = 5, THREADS = 4 };
static const int64_t UNIT_NS = 20000000; /* 20 ms */

/* Sleeps rather than spins: 4 threads on a loaded 2-core machine would
 * otherwise measure the scheduler, not the work. */
static void work(int64_t ns) {
    struct timespec ts = {ns / 1000000000, ns % 1000000000};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

static void run(void) {
    for (int s = 0; s < STEPS; s++) {
        SP_REGION("step") {
#pragma omp parallel num_threads(THREADS)
            {
                SP_REGION("omp_body") {
                    work(UNIT_NS * (omp_get_thread_num() + 1));
                }
            }
        }
    }
}

static void test_workers_under_step(void **state) {
    (void)state;
    char *dir = rs_temp_dir();
    char *path = rs_path_in(dir, "omp.h5");
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    assert_int_equal(sp_setup(&opt), SP_OK);
    run();
    sp_finalize_options quiet = {.quiet = 1};
    assert_int_equal(sp_finalize(&quiet), SP_OK);

    sp_error err = {0};
    sp_results *r = sp_read(path, &err);
    if (!r) fail_msg("%s", err.message);
    sp_balance ranks, threads;
    /* the session root region encloses everything; omp_body only under step */
    assert_int_equal(sp_results_path_balance(r, "scope_profiler.session > step > omp_body", &ranks,
                                             &threads, &err),
                     SP_OK);
    assert_int_equal(sp_results_path_balance(r, "omp_body", &ranks, &threads, &err),
                     SP_ERR_NO_SUCH_REGION);
    assert_int_equal(
        sp_results_path_balance(r, "scope_profiler.session > omp_body", &ranks, &threads, &err),
        SP_ERR_NO_SUCH_REGION);
    assert_int_equal(threads.count, THREADS);
    /* 1x..4x: mean 2.5 units, max 4 units -> imbalance 0.6, LB 0.625 (generous: 2 cores) */
    if (!(threads.imbalance > 0.4 && threads.imbalance < 0.8))
        fail_msg("thread imbalance %.3f, expected about 0.6", threads.imbalance);
    double unit = (double)UNIT_NS / 1e9;
    if (!(threads.max >= 4 * STEPS * unit && threads.max < 1.6 * 4 * STEPS * unit))
        fail_msg("slowest thread total %.4f s, expected about %.4f", threads.max, 4 * STEPS * unit);
    if (!(threads.min >= STEPS * unit && threads.min < 2.5 * STEPS * unit))
        fail_msg("fastest thread total %.4f s, expected about %.4f", threads.min, STEPS * unit);
    assert_true(threads.slowest_thread != threads.fastest_thread);

    const sp_mpi_region *body = sp_results_get(r, "omp_body", &err);
    const sp_mpi_region *step = sp_results_get(r, "step", &err);
    assert_non_null(body);
    assert_non_null(step);
    assert_int_equal(sp_mpi_region_num_calls(body), STEPS * THREADS);
    assert_int_equal(sp_mpi_region_num_calls(step), STEPS);
    /* the slowest lane's calls are the 4-unit ones */
    const sp_rank_region *rank0 = sp_mpi_region_rank(body, 0, &err);
    uint64_t idx[STEPS * THREADS];
    size_t n = sp_rank_region_thread_calls(rank0, threads.slowest_thread, idx, STEPS * THREADS);
    assert_int_equal(n, STEPS);
    /* step's own time: its duration minus its own thread's omp_body only (the wait) */
    double own = sp_mpi_region_exclusive_duration(step, &err);
    double total = sp_mpi_region_total_duration(step);
    if (!(own > 0.0 && own < total)) fail_msg("step exclusive %.4f of %.4f s", own, total);
    /* the forking thread does 1 unit per step and waits about 3 */
    if (!(own > 0.4 * 3 * STEPS * unit)) fail_msg("step exclusive %.4f s: no barrier wait", own);

    sp_results_free(r);
    rs_remove_tree(dir);
    free(path);
    free(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_workers_under_step)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
