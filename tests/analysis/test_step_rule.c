/*
 * The static/dynamic rule of docs/parallel.md § 3 with 2 ranks: a binomial
 * test against chance. Noise-only steps (each rank equally likely slowest)
 * are called static in at most the level's share of 1,000 seeded cases (plus
 * three binomial standard deviations); "5 of 8 steps" is dynamic, "8 of 8"
 * static; 4 ranks x 5 of 5 static.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../support/seeded_random.h"

#include "analysis/analysis.h"
#include "model_builder.h"

#define CASES     1000
#define MAX_STEPS 64

static const char *const names[] = {"timestep"};

/* ranks x steps calls; duration(rank, step) in ns. */
static sp_step_balance classify(uint32_t ranks, int steps,
                                int64_t (*duration)(uint32_t, int, void *), void *ctx) {
    mb_call calls[4 * MAX_STEPS];
    size_t n = 0;
    for (uint32_t r = 0; r < ranks; r++)
        for (int k = 0; k < steps; k++)
            calls[n++] =
                (mb_call){0, r, k * 100000, k * 100000 + duration(r, k, ctx), MB_NO_THREAD};
    mb_spec spec = {.regions = names, .num_regions = 1, .calls = calls, .num_calls = n};
    sp_results *res = mb_results(&spec);
    sp_error err = {0};
    const sp_mpi_region *reg = sp_results_get(res, "timestep", &err);
    assert_non_null(reg);
    sp_step_balance s;
    assert_int_equal(sp_mpi_region_step_balance(reg, &s, &err), SP_OK);
    sp_results_free(res);
    return s;
}

/* 1000 ns +/- 20 % uniform noise, every rank alike. */
static int64_t noise(uint32_t rank, int step, void *ctx) {
    (void)rank;
    (void)step;
    return 1000 + (int64_t)(next_u64(ctx) % 401) - 200;
}

static void test_noise_is_rarely_static(void **state) {
    (void)state;
    static const int step_counts[] = {8, 20, 60};
    for (size_t i = 0; i < sizeof step_counts / sizeof step_counts[0]; i++) {
        uint64_t seed = 100 + i;
        int statics = 0, dynamics = 0;
        for (int c = 0; c < CASES; c++) {
            sp_step_balance s = classify(2, step_counts[i], noise, &seed);
            statics += s.kind == SP_IMBALANCE_STATIC;
            dynamics += s.kind == SP_IMBALANCE_DYNAMIC;
        }
        print_message("2 ranks, %d noise-only steps: %d static, %d dynamic of %d\n", step_counts[i],
                      statics, dynamics, CASES);
        assert_true(statics <= (int)floor(0.01 * CASES + 3.0 * sqrt(CASES * 0.01 * 0.99)));
        assert_true(dynamics + statics == CASES); /* 20 % noise is never "balanced" */
    }
}

/* Rank 1 slower in the steps whose bit is set in *mask. */
static int64_t pattern(uint32_t rank, int step, void *ctx) {
    uint64_t mask = *(uint64_t *)ctx;
    int rank1_slow = (int)((mask >> step) & 1);
    return rank == (uint32_t)rank1_slow ? 3000 : 1000;
}

static void test_counts_against_chance(void **state) {
    (void)state;
    uint64_t all = 0xff, five = 0x1f; /* 8 of 8, 5 of 8 steps */
    sp_step_balance s = classify(2, 8, pattern, &all);
    assert_int_equal(s.kind, SP_IMBALANCE_STATIC); /* p = 2 / 256 */
    assert_int_equal(s.straggler, 1);
    assert_int_equal(s.straggler_steps, 8);
    s = classify(2, 8, pattern, &five);
    assert_int_equal(s.kind, SP_IMBALANCE_DYNAMIC); /* p = 2 * 93 / 256 */
    assert_int_equal(s.straggler_steps, 5);
    uint64_t seven = 0x7f; /* 7 of 7: p = 2 / 128 > 0.01 */
    s = classify(2, 7, pattern, &seven);
    assert_int_equal(s.kind, SP_IMBALANCE_DYNAMIC);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_noise_is_rarely_static),
        cmocka_unit_test(test_counts_against_chance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
