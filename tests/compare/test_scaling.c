/*
 * scaling on hand-built runs at 1, 2 and 4 ranks with known times: exact
 * speedups and efficiencies (strong, weak, mean per call, total per rank),
 * runs at one x averaged, the metadata axes, and the errors.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/results_model.h"
#include "model_builder.h"
#include "model/model.h"
#include "scope_profiler/compare.h"

#define MS 1000000 /* ns */

static void assert_near(double got, double want) {
    if (!(fabs(got - want) <= 1e-12 * fmax(fabs(got), fabs(want))))
        fail_msg("got %.17g, want %.17g", got, want);
}

static const char *const names[] = {"solve", "io"};

/* `ranks` ranks, each with 4 solve calls of solve_ns and one io call of 1 ms;
 * omp threads as metadata when nonzero. */
static sp_results *run(const char *path, uint32_t ranks, int64_t solve_ns, int64_t threads) {
    mb_call calls[64];
    size_t n = 0;
    for (uint32_t r = 0; r < ranks; r++) {
        int64_t t = 0;
        for (int i = 0; i < 4; i++, t += solve_ns + 10)
            calls[n++] = (mb_call){0, r, t, t + solve_ns, MB_NO_THREAD};
        calls[n++] = (mb_call){1, r, t, t + 1 * MS, MB_NO_THREAD};
    }
    mb_spec spec = {.path = path,
                    .regions = names,
                    .num_regions = 2,
                    .calls = calls,
                    .num_calls = n,
                    .mpi_size = ranks};
    sp_model m;
    mb_model(&spec, &m);
    if (threads) assert_int_equal(sp_model_meta_int(&m, "omp_num_threads", threads), 0);
    assert_int_equal(sp_model_meta_string(&m, "machine", "cluster-a"), 0);
    sp_error err = {0};
    sp_results *r = sp_results_adopt(&m, &err);
    assert_non_null(r);
    return r;
}

typedef struct study {
    sp_results *runs[4];
    size_t n;
} study;

/* solve: 8 ms per call on 1 rank, 3.6 and 4.4 ms on two runs of 2, 2.5 ms on 4. */
static int setup(void **state) {
    study *s = malloc(sizeof *s);
    s->runs[0] = run("np4.h5", 4, 25 * MS / 10, 1);
    s->runs[1] = run("np1.h5", 1, 8 * MS, 1);
    s->runs[2] = run("np2a.h5", 2, 36 * MS / 10, 2);
    s->runs[3] = run("np2b.h5", 2, 44 * MS / 10, 2);
    s->n = 4;
    *state = s;
    return 0;
}

static int teardown(void **state) {
    study *s = *state;
    for (size_t i = 0; i < s->n; i++)
        sp_results_free(s->runs[i]);
    free(s);
    return 0;
}

static sp_scaling *compute(study *s, const sp_scaling_options *o) {
    sp_error err = {0};
    sp_scaling *sc = sp_scaling_compute((const sp_results *const *)s->runs, s->n, o, &err);
    if (!sc) fail_msg("sp_scaling_compute: %s", err.message);
    return sc;
}

static void test_strong_scaling(void **state) {
    sp_scaling_options o = {0};
    sp_scaling *sc = compute(*state, &o);
    assert_string_equal(sc->x_name, "mpi_size");
    assert_int_equal(sc->num_x, 3);
    assert_true(sc->xs[0] == 1 && sc->xs[1] == 2 && sc->xs[2] == 4);
    assert_true(sc->runs_at_x[0] == 1 && sc->runs_at_x[1] == 2 && sc->runs_at_x[2] == 1);
    assert_int_equal(sc->num_regions, 2);
    /* regions in the first run's order: solve starts first */
    const sp_scaling_region *solve = &sc->regions[0];
    assert_string_equal(solve->name, "solve");
    assert_near(solve->points[0].time, 8e-3);
    assert_near(solve->points[1].time, 4e-3); /* (3.6 + 4.4) / 2 */
    assert_int_equal(solve->points[1].runs, 2);
    assert_near(solve->points[2].time, 2.5e-3);
    assert_near(solve->points[0].speedup, 1.0);
    assert_near(solve->points[1].speedup, 2.0);
    assert_near(solve->points[2].speedup, 3.2);
    assert_near(solve->points[1].efficiency, 1.0);
    assert_near(solve->points[2].efficiency, 0.8);
    const sp_scaling_region *io = &sc->regions[1];
    assert_near(io->points[2].speedup, 1.0);
    assert_near(io->points[2].efficiency, 0.25);
    sp_scaling_free(sc);
}

static void test_weak_and_total(void **state) {
    sp_scaling_options o = {0};
    o.weak = 1;
    sp_scaling *sc = compute(*state, &o);
    assert_near(sc->regions[0].points[2].efficiency, 8.0 / 2.5);
    assert_near(sc->regions[1].points[2].efficiency, 1.0);
    sp_scaling_free(sc);
    o.weak = 0;
    o.total = 1; /* total per rank: 32, 16, 10 ms */
    sc = compute(*state, &o);
    assert_near(sc->regions[0].points[0].time, 32e-3);
    assert_near(sc->regions[0].points[1].time, 16e-3);
    assert_near(sc->regions[0].points[2].time, 10e-3);
    assert_near(sc->regions[0].points[2].speedup, 3.2);
    sp_scaling_free(sc);
}

static void test_metadata_axes(void **state) {
    sp_scaling_options o = {0};
    o.x = "total_cores"; /* 4 x 1, 1 x 1, 2 x 2, 2 x 2 */
    sp_scaling *sc = compute(*state, &o);
    assert_int_equal(sc->num_x, 2);
    assert_true(sc->xs[0] == 1 && sc->xs[1] == 4);
    assert_int_equal(sc->runs_at_x[1], 3);
    /* x = 4 averages 2.5, 3.6 and 4.4 ms */
    assert_near(sc->regions[0].points[1].time, (2.5e-3 + 3.6e-3 + 4.4e-3) / 3.0);
    sp_scaling_free(sc);
    o.x = "omp_num_threads";
    sc = compute(*state, &o);
    assert_true(sc->xs[0] == 1 && sc->xs[1] == 2);
    sp_scaling_free(sc);
}

static void test_errors(void **state) {
    study *s = *state;
    const sp_results *const *runs = (const sp_results *const *)s->runs;
    sp_scaling_options o = {0};
    sp_error err = {0};
    o.x = "num_nodes";
    assert_null(sp_scaling_compute(runs, s->n, &o, &err));
    assert_int_equal(err.status, SP_ERR_BAD_OPTION);
    /* only the fields that can be an axis (machine is a text) */
    assert_string_equal(err.message, "np4.h5 has no metadata field 'num_nodes' (numeric fields: "
                                     "mpi_size, omp_num_threads, total_cores)");
    o.x = "machine";
    assert_null(sp_scaling_compute(runs, s->n, &o, &err));
    assert_string_equal(err.message, "np4.h5: metadata field 'machine' is not a number, so it "
                                     "cannot be a scaling axis");
    o.x = NULL;
    assert_null(sp_scaling_compute(runs, 1, &o, &err));
    assert_string_equal(err.message, "scaling needs at least two files (got 1)");
    assert_null(sp_scaling_compute(runs + 2, 2, &o, &err)); /* both at 2 ranks */
    assert_string_equal(err.message,
                        "every file has mpi_size = 2: scaling needs runs at two or more values");
}

/* `ranks` ranks, each computing `work` ms, then in MPI_Allreduce until `end` ms (the session's
 * end): useful time summed over ranks = ranks * end - the Allreduce's time. */
static sp_results *mpi_run(const char *path, uint32_t ranks, int64_t work, int64_t end) {
    static const char *const mpi_names[] = {"solve", "MPI_Allreduce"};
    mb_call calls[8];
    size_t n = 0;
    for (uint32_t r = 0; r < ranks; r++) {
        calls[n++] = (mb_call){0, r, 0, work * MS, MB_NO_THREAD};
        calls[n++] = (mb_call){1, r, work * MS, end * MS, MB_NO_THREAD};
    }
    mb_spec spec = {.path = path,
                    .regions = mpi_names,
                    .num_regions = 2,
                    .calls = calls,
                    .num_calls = n,
                    .mpi_size = ranks,
                    .has_start = 1,
                    .has_finalize = 1,
                    .start_time_ns = 0,
                    .finalize_time_ns = end * MS};
    return mb_results(&spec);
}

/* 1 rank: 80 ms of work in 90; 2 ranks: 45 in 50; 4 ranks: 25 in 30. Useful summed over ranks
 * 80, 90, 100 ms: computation scalability 1, 80/90, 0.8 (strong), 1, 160/90, 3.2 (weak). */
static void test_computation_scalability(void **state) {
    (void)state;
    sp_results *runs[3] = {mpi_run("c1.h5", 1, 80, 90), mpi_run("c2.h5", 2, 45, 50),
                           mpi_run("c4.h5", 4, 25, 30)};
    sp_error err = {0};
    sp_scaling_options o = {0};
    for (int weak = 0; weak < 2; weak++) {
        o.weak = weak;
        sp_scaling *s = sp_scaling_compute((const sp_results *const *)runs, 3, &o, &err);
        assert_non_null(s);
        assert_non_null(s->computation_scalability);
        assert_near(s->useful[0], 0.080);
        assert_near(s->useful[1], 0.090);
        assert_near(s->useful[2], 0.100);
        assert_near(s->computation_scalability[0], 1.0);
        assert_near(s->computation_scalability[1], (weak ? 2 * 80.0 : 80.0) / 90);
        assert_near(s->computation_scalability[2], weak ? 3.2 : 0.8);
        sp_scaling_free(s);
    }
    for (int i = 0; i < 3; i++)
        sp_results_free(runs[i]);
}

/* Runs without MPI_* regions (no MPI calls recorded) have none. */
static void test_no_computation_scalability(void **state) {
    study *s = *state;
    sp_scaling_options o = {0};
    sp_scaling *sc = compute(s, &o);
    assert_null(sc->computation_scalability);
    assert_null(sc->useful);
    sp_scaling_free(sc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_strong_scaling, setup, teardown),
        cmocka_unit_test_setup_teardown(test_weak_and_total, setup, teardown),
        cmocka_unit_test_setup_teardown(test_metadata_axes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
        cmocka_unit_test(test_computation_scalability),
        cmocka_unit_test_setup_teardown(test_no_computation_scalability, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
