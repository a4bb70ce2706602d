/* OpenMP: a parallel for with nested regions in each thread, for 2 and 4
 * threads (oversubscribed on 2 cores): calls exact per thread, one lane per
 * thread, every lane properly nested. */
#include <omp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>
#include <scope_profiler.h>
#include <scope_profiler/results.h>

#include "../record/record_support.h"
#include "../support/h5_inspect.h"

enum { ITERATIONS = 400 };

static void run_parallel(int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int i = 0; i < ITERATIONS; i++) {
        SP_REGION("iteration") {
            SP_REGION("inner") {
                rs_busy_wait_ns(2000);
            }
            SP_REGION("inner") {}
        }
    }
}

/* Calls of one lane must nest: sorted by start, each call ends before the
 * enclosing one does. */
static int lane_is_nested(const rs_profile *p, int64_t lane) {
    size_t n = 0;
    int64_t *start = malloc(p->num_events * sizeof *start),
            *end = malloc(p->num_events * sizeof *end);
    for (size_t e = 0; e < p->num_events; e++) {
        if (p->thread_ids[e] != lane) continue;
        start[n] = p->starts[e];
        end[n] = p->starts[e] + p->durations[e];
        n++;
    }
    /* insertion sort by (start asc, end desc): small lanes */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && (start[j] < start[j - 1] ||
                                     (start[j] == start[j - 1] && end[j] > end[j - 1]));
             j--) {
            int64_t s = start[j], t = end[j];
            start[j] = start[j - 1];
            end[j] = end[j - 1];
            start[j - 1] = s;
            end[j - 1] = t;
        }
    int64_t stack[16];
    int depth = 0, ok = 1;
    for (size_t i = 0; i < n && ok; i++) {
        while (depth > 0 && stack[depth - 1] <= start[i])
            depth--;
        if (depth > 0 && end[i] > stack[depth - 1]) ok = 0;
        if (depth < 16) stack[depth++] = end[i];
    }
    free(start);
    free(end);
    return ok;
}

static void check_threads(int threads) {
    char *dir = rs_temp_dir();
    char *path = rs_path_in(dir, "omp.h5");
    sp_options opt = SP_OPTIONS_INIT;
    opt.file_path = path;
    assert_int_equal(sp_setup(&opt), SP_OK);
    run_parallel(threads);
    sp_finalize_options quiet = {.quiet = 1};
    assert_int_equal(sp_finalize(&quiet), SP_OK);
    rs_profile p;
    assert_int_equal(rs_profile_load(path, &p), 0);
    assert_int_equal(rs_calls_of(&p, "iteration"), ITERATIONS);
    assert_int_equal(rs_calls_of(&p, "inner"), 2 * ITERATIONS);
    assert_non_null(p.thread_ids);
    int64_t per_thread[8] = {0};
    long it = rs_row_of(&p, "iteration");
    for (int64_t i = 0; i < p.counts[it]; i++) {
        int64_t t = p.thread_ids[p.offsets[it] + i];
        assert_true(t >= 0 && t < threads);
        per_thread[t]++;
    }
    /* schedule(static): every thread gets the same share */
    for (int t = 0; t < threads; t++)
        assert_int_equal(per_thread[t], ITERATIONS / threads);
    for (int t = 0; t < threads; t++)
        assert_true(lane_is_nested(&p, t));
    rs_profile_free(&p);

    /* an OpenMP program: omp_num_threads is what its runtime says (item 9.14) */
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    int64_t omp_threads = 0;
    assert_int_equal(h5i_attr_int64(file, "/metadata", "omp_num_threads", &omp_threads), 0);
    assert_int_equal(omp_threads, omp_get_max_threads());
    char *source = h5i_attr_string(file, "/metadata", "omp_num_threads_source");
    assert_string_equal(source, "openmp_runtime");
    free(source);
    H5Fclose(file);

    /* the analysis rebuilds one tree per lane: no nesting error, and each
     * iteration's exclusive time is its duration minus its two inner calls */
    sp_error err;
    sp_results *r = sp_read(path, &err);
    assert_non_null(r);
    const sp_mpi_region *iteration = sp_results_get(r, "iteration", &err);
    const sp_mpi_region *inner = sp_results_get(r, "inner", &err);
    double excl = sp_mpi_region_exclusive_duration(iteration, &err);
    assert_false(isnan(excl));
    double expected = sp_mpi_region_total_duration(iteration) - sp_mpi_region_total_duration(inner);
    assert_true(fabs(excl - expected) <= 1e-12 + 1e-12 * expected);
    assert_int_equal(sp_results_num_threads(r), (size_t)threads);
    sp_results_free(r);
    rs_remove_tree(dir);
    free(dir);
    free(path);
}

static void test_two_threads(void **state) {
    (void)state;
    check_threads(2);
}

static void test_four_threads(void **state) {
    (void)state;
    check_threads(4);
}

/* The same pool threads in two sessions: each session numbers them again. */
static void test_pool_reused_across_sessions(void **state) {
    (void)state;
    check_threads(4);
    check_threads(2);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_threads),
        cmocka_unit_test(test_four_threads),
        cmocka_unit_test(test_pool_reused_across_sessions),
    };
    setenv("SCOPE_PROFILER_QUIET", "1", 1);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
