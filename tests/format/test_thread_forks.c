/*
 * The fork points extension (/scope_profiler_c/thread_forks, docs/format.md):
 * written, read back, used by the call tree (docs/parallel.md §1, rule 2
 * against the fallback rule 3), and damaged rows refused with one message.
 * Rank 0: thread 0 runs step [0, 100] and its own body [10, 90]; thread 1,
 * forked at 5 ns, runs compute [20, 50] while that body is open.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <scope_profiler/balance.h>

#include "format/reader.h"
#include "format/writer.h"
#include "format_support.h"
#include "model/results_model.h"

#define FORKS "/scope_profiler_c/thread_forks/"

static void forked_model(sp_model *m) {
    static const char *const names[] = {"step", "body", "compute"};
    fs_model_init(m, names, 3);
    int64_t s_step[] = {0}, d_step[] = {100};
    int64_t s_body[] = {10}, d_body[] = {80};
    int64_t s_compute[] = {20}, d_compute[] = {30};
    fs_model_add_row(m, 0, 0, s_step, d_step, 1);
    fs_model_add_row(m, 0, 1, s_body, d_body, 1);
    fs_model_add_row(m, 0, 2, s_compute, d_compute, 1);
    m->thread_ids = calloc(m->num_events, sizeof *m->thread_ids);
    assert_non_null(m->thread_ids);
    m->thread_ids[2] = 1; /* compute runs on thread 1 */
    m->threads = calloc(2, sizeof *m->threads);
    assert_non_null(m->threads);
    m->num_threads = 2;
    for (int i = 0; i < 2; i++) {
        m->threads[i] = (sp_thread_info){0, i, i, 100 + i, 0, 0, 100, -1, sp_strdup(""), 0};
        assert_non_null(m->threads[i].name);
    }
    m->threads[1].parent_slot = 1; /* parent thread 0 (the fallback's information) */
    m->forks = calloc(1, sizeof *m->forks);
    assert_non_null(m->forks);
    m->forks[0] = (sp_thread_fork){0, 1, 15, 0, 5};
    m->num_forks = 1;
}

static const char *write_forked(const char *name) {
    const char *path = fs_path(name);
    sp_model m;
    forked_model(&m);
    sp_error err = {0};
    assert_int_equal(sp_write_model(&m, path, NULL, &err), SP_OK);
    sp_model_clear(&m);
    return path;
}

/* Whether the file's tree has call_path. */
static int has_path(const char *path, const char *call_path) {
    sp_error err = {0};
    sp_results *r = sp_read(path, &err);
    if (!r) fail_msg("%s", err.message);
    sp_balance ranks, threads;
    sp_status st = sp_results_path_balance(r, call_path, &ranks, &threads, &err);
    sp_results_free(r);
    return st == SP_OK;
}

static void test_round_trip_and_tree(void **state) {
    (void)state;
    const char *path = write_forked("forks.h5");
    sp_model m;
    fs_read_ok(path, &m);
    assert_int_equal(m.num_forks, 1);
    assert_int_equal(m.forks[0].rank, 0);
    assert_int_equal(m.forks[0].thread, 1);
    assert_int_equal(m.forks[0].since_ns, 15);
    assert_int_equal(m.forks[0].parent, 0);
    assert_int_equal(m.forks[0].fork_ns, 5);
    sp_model_clear(&m);
    /* rule 2: open at the fork (5 ns) was step only, body began after it */
    assert_true(has_path(path, "step > compute"));
    assert_false(has_path(path, "step > body > compute"));
    /* without the fork points (older files) the fallback nests it in the open body */
    fs_delete(path, "/scope_profiler_c/thread_forks");
    assert_true(has_path(path, "step > body > compute"));
}

static void test_damaged_rows_refused(void **state) {
    (void)state;
    const char *path = write_forked("forks_bad.h5");
    int64_t same[] = {1};
    fs_replace_ints(path, FORKS "parent_threads", H5T_STD_I64LE, same, 1);
    fs_expect_error(path, SP_ERR_DAMAGED, "does not name two threads of /thread_table");
    int64_t missing[] = {7};
    fs_replace_ints(path, FORKS "parent_threads", H5T_STD_I64LE, missing, 1);
    fs_expect_error(path, SP_ERR_DAMAGED, "(rank 0, thread 1, parent 7)");
    int64_t fine[] = {0}, two[] = {5, 6};
    fs_replace_ints(path, FORKS "parent_threads", H5T_STD_I64LE, fine, 1);
    fs_replace_ints(path, FORKS "fork_ns", H5T_STD_I64LE, two, 2);
    fs_expect_error(path, SP_ERR_DAMAGED, "fork_ns");
    fs_delete(path, "/thread_table");
    fs_expect_error(path, SP_ERR_DAMAGED, "/thread_table");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_and_tree),
        cmocka_unit_test(test_damaged_rows_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
