/*
 * sp_parallel_for visits every index exactly once, in blocks of the grain,
 * whatever the thread count (SCOPE_PROFILER_THREADS) and however n and the
 * grain divide; a small n stays on the caller's thread.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "common/parallel_for.h"

typedef struct visits {
    unsigned *count; /* per index */
    size_t grain;
    int bad_block;    /* a block not of the grain (but the last) */
    int other_thread; /* some block ran off the caller's thread */
    pthread_t caller;
} visits;

static void visit(void *ctx, size_t first, size_t count) {
    visits *v = ctx;
    if (first % v->grain != 0 || count == 0 || count > v->grain)
        __atomic_store_n(&v->bad_block, 1, __ATOMIC_RELAXED);
    if (!pthread_equal(pthread_self(), v->caller))
        __atomic_store_n(&v->other_thread, 1, __ATOMIC_RELAXED);
    for (size_t i = first; i < first + count; i++)
        __atomic_fetch_add(&v->count[i], 1, __ATOMIC_RELAXED);
}

static int run(size_t n, size_t grain) {
    visits v = {calloc(n ? n : 1, sizeof(unsigned)), grain, 0, 0, pthread_self()};
    sp_parallel_for(n, grain, visit, &v);
    for (size_t i = 0; i < n; i++)
        if (v.count[i] != 1)
            fail_msg("n %zu grain %zu: index %zu visited %u times", n, grain, i, v.count[i]);
    assert_false(v.bad_block);
    free(v.count);
    return v.other_thread;
}

static void every_index_once(void **state) {
    (void)state;
    static const char *const threads[] = {"1", "2", "8"};
    static const size_t sizes[] = {0, 1, 2, 3, 7, 1000, 100003};
    static const size_t grains[] = {1, 7, 4096};
    for (size_t t = 0; t < 3; t++) {
        setenv("SCOPE_PROFILER_THREADS", threads[t], 1);
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
            for (size_t g = 0; g < sizeof grains / sizeof *grains; g++)
                run(sizes[s], grains[g]);
    }
    unsetenv("SCOPE_PROFILER_THREADS");
}

static void threads_only_for_enough_blocks(void **state) {
    (void)state;
    setenv("SCOPE_PROFILER_THREADS", "2", 1);
    assert_false(run(1, 1));    /* one block: the caller's */
    assert_false(run(100, 64)); /* two blocks, fewer than two per thread */
    setenv("SCOPE_PROFILER_THREADS", "1", 1);
    assert_false(run(100000, 1)); /* one thread asked for */
    unsetenv("SCOPE_PROFILER_THREADS");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_index_once),
        cmocka_unit_test(threads_only_for_enough_blocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
