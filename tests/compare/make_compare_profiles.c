/*
 * Writes the profiles of the compare CLI cases (cli/cases.txt), with fixed
 * seeds so that every output is stable:
 *
 *   base_{1,2,3}.h5, cand_{1,2,3}.h5  repeated runs: solve (200 calls of ~1 ms, 1 %
 *                                     noise, each run offset by up to 0.5 %) 4 % slower
 *                                     in cand; io (20 calls of ~2 ms, 20 % noise) 3 %
 *                                     slower; setup (one call) unchanged
 *   other.h5                          no region in common with the others
 *   np{1,2,4}.h5                      strong scaling: solve 8 ms per call on 1 rank,
 *                                     4.2 on 2, 2.5 on 4; omp_num_threads 2; no num_nodes
 *   notes.txt                         not a profile
 *
 * Usage: make_compare_profiles DIR
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "../support/seeded_random.h"

#include "format/writer.h"
#include "model_builder.h"

#define MS 1000000LL
#define T0 5000000000000LL

static void write_model(const char *dir, const char *name, sp_model *m) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    sp_write_options options = {SP_COMPRESSION_NONE, 0};
    sp_error err = {0};
    if (sp_write_model(m, path, &options, &err) != SP_OK) {
        fprintf(stderr, "make_compare_profiles: %s\n", err.message);
        exit(1);
    }
    sp_model_clear(m);
}

static void write_spec(const char *dir, const char *name, const mb_spec *spec, int64_t threads) {
    sp_model m;
    mb_model(spec, &m);
    if (threads) sp_model_meta_int(&m, "omp_num_threads", threads);
    write_model(dir, name, &m);
}

static const char *const run_regions[] = {"setup", "solve", "io"};

static void repeated_run(const char *dir, const char *name, const char *label, uint64_t seed,
                         double slowdown) {
    mb_call calls[1 + 200 + 20];
    size_t n = 0;
    int64_t t = T0;
    double offset = 1.0 + 0.005 * normal(&seed);
    calls[n++] = (mb_call){0, 0, t, t + 10 * MS, MB_NO_THREAD};
    t += 11 * MS;
    for (int i = 0; i < 200; i++) {
        int64_t d = llround(1e6 * (1.0 + 0.04 * slowdown) * offset * (1.0 + 0.01 * normal(&seed)));
        calls[n++] = (mb_call){1, 0, t, t + d, MB_NO_THREAD};
        t += d + 1000;
    }
    for (int i = 0; i < 20; i++) {
        int64_t d = llround(2e6 * (1.0 + 0.03 * slowdown) * (1.0 + 0.2 * normal(&seed)));
        calls[n++] = (mb_call){2, 0, t, t + d, MB_NO_THREAD};
        t += d + 1000;
    }
    mb_spec spec = {.regions = run_regions,
                    .num_regions = 3,
                    .calls = calls,
                    .num_calls = n,
                    .label = label,
                    .has_start = 1,
                    .start_time_ns = T0,
                    .has_finalize = 1,
                    .finalize_time_ns = t};
    write_spec(dir, name, &spec, 0);
}

static void scaling_run(const char *dir, const char *name, uint32_t ranks, int64_t solve_ns) {
    static const char *const regions[] = {"solve", "io"};
    mb_call calls[5 * 4];
    size_t n = 0;
    for (uint32_t r = 0; r < ranks; r++) {
        int64_t t = T0;
        for (int i = 0; i < 4; i++, t += solve_ns + 1000)
            calls[n++] = (mb_call){0, r, t, t + solve_ns, MB_NO_THREAD};
        calls[n++] = (mb_call){1, r, t, t + 1 * MS, MB_NO_THREAD};
    }
    char label[32];
    snprintf(label, sizeof label, "np%u", ranks);
    mb_spec spec = {.regions = regions,
                    .num_regions = 2,
                    .calls = calls,
                    .num_calls = n,
                    .label = label,
                    .mpi_size = ranks};
    write_spec(dir, name, &spec, 2);
}

static void run_all(void **state) {
    const char *dir = *state;
    char sub[4096];
    snprintf(sub, sizeof sub, "%s/out", dir);
    mkdir(sub, 0755);
    static const char *const names[] = {"base_1.h5", "base_2.h5", "base_3.h5",
                                        "cand_1.h5", "cand_2.h5", "cand_3.h5"};
    for (int i = 0; i < 6; i++)
        repeated_run(dir, names[i], i < 3 ? "baseline" : "candidate", 100 + (uint64_t)i,
                     i < 3 ? 0.0 : 1.0);
    static const char *const other_regions[] = {"alpha"};
    static const mb_call other_calls[] = {{0, 0, T0, T0 + 5 * MS, MB_NO_THREAD}};
    mb_spec other = {.regions = other_regions,
                     .num_regions = 1,
                     .calls = other_calls,
                     .num_calls = 1,
                     .label = "other"};
    write_spec(dir, "other.h5", &other, 0);
    scaling_run(dir, "np1.h5", 1, 8 * MS);
    scaling_run(dir, "np2.h5", 2, 42 * MS / 10);
    scaling_run(dir, "np4.h5", 4, 25 * MS / 10);
    snprintf(sub, sizeof sub, "%s/notes.txt", dir);
    FILE *f = fopen(sub, "w");
    assert_non_null(f);
    fputs("not a profile\n", f);
    fclose(f);
}

static const char *target_dir;

static int setup(void **state) {
    *state = (void *)target_dir;
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: make_compare_profiles DIR\n");
        return 2;
    }
    target_dir = argv[1];
    const struct CMUnitTest tests[] = {cmocka_unit_test_setup(run_all, setup)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
