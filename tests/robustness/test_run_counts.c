/*
 * Counts that must agree with what they count (issue 10 item 14): the rank
 * count of a run whose ranks recorded nothing, and the open calls reported at
 * finalize against the list that follows.
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
#include <string.h>

#include <cmocka.h>

#include "../analysis/model_builder.h"
#include "../record/record_support.h"

/* Four ranks, no call anywhere: four ranks, not zero. */
static void ranks_without_calls_still_count(void **state) {
    (void)state;
    static const char *const names[] = {"solve"};
    mb_spec spec = {.regions = names, .num_regions = 1, .mpi_size = 4};
    sp_results *r = mb_results(&spec);
    assert_int_equal(sp_results_num_ranks(r), 4);
    sp_results_free(r);
    /* no mpi_size: nothing says how many ranks there were */
    mb_spec serial = {.regions = names, .num_regions = 1};
    r = mb_results(&serial);
    assert_int_equal(sp_results_num_ranks(r), 0);
    sp_results_free(r);
}

enum { HOLDERS = 3 };
static pthread_barrier_t opened, finalized;

static void *hold_open_call(void *arg) {
    (void)arg;
    sp_region_t h = sp_region("held");
    sp_begin(h);
    pthread_barrier_wait(&opened);
    pthread_barrier_wait(&finalized);
    sp_end(h); /* after finalize: ignored */
    return NULL;
}

/* The count and the list come from one reading of each thread. */
static void open_calls_count_matches_list(void **state) {
    rs_fixture *fx = *state;
    sp_options o = {.file_path = fx->path};
    assert_int_equal(sp_setup(&o), SP_OK);
    pthread_barrier_init(&opened, NULL, HOLDERS + 1);
    pthread_barrier_init(&finalized, NULL, HOLDERS + 1);
    pthread_t t[HOLDERS];
    for (int i = 0; i < HOLDERS; i++)
        assert_int_equal(pthread_create(&t[i], NULL, hold_open_call, NULL), 0);
    pthread_barrier_wait(&opened);
    sp_finalize_options fo = {.quiet = 1};
    rs_capture_stderr_begin();
    sp_status st = sp_finalize(&fo);
    char *err = rs_capture_stderr_end();
    pthread_barrier_wait(&finalized);
    for (int i = 0; i < HOLDERS; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&opened);
    pthread_barrier_destroy(&finalized);
    assert_int_equal(st, SP_OK);
    assert_non_null(strstr(err, "scope-profiler: 3 call(s) still open at finalize were left out: "
                                "\"held\" (thread "));
    assert_int_equal(rs_count(err, "\"held\" (thread "), 3);
    assert_int_equal(rs_count(err, "\n"), 1);
    free(err);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ranks_without_calls_still_count),
        cmocka_unit_test_setup_teardown(open_calls_count_matches_list, rs_setup_dir,
                                        rs_teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
