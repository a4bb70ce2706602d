/*
 * Writes the profiles of tests/models/test_cli_models.py into DIR, with
 * exactly known durations (ns) and user metadata, through the library's
 * writer:
 *   size_N.h5 (N = 2, 4, 8, 16, 32): problem_size = N (int), mesh = "box" for
 *     N <= 8 else "ring", dt = 0.5 (float); regions solve = 1 ms + 10 us *
 *     N log2 N (tags ["solver", "linear"]) and io = 2 ms (no tags);
 *   size_32b.h5: a repetition of size_32 with solve 10 % slower;
 *   nomesh.h5: problem_size 4 without mesh.
 * With `grid` after DIR, instead the two-parameter grid of
 * tests/models/test_cli_models2.py: grid_P_N.h5 for procs P in 2..32 and
 * problem_size N in 16..256 (powers of two): solve = 1 ms + 1 us * P * N,
 * exchange = 0.5 ms + 2 us * P + 3 us * log2(N), both exact in ns.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "format/writer.h"
#include "model/model.h"
#include "model_builder.h"

#define MS 1000000LL

static const char *const names[] = {"solve", "io"};

static void write_run(const char *dir, const char *file, int64_t n, const char *mesh,
                      double slower) {
    int64_t solve = llround((1.0 * MS + 10000.0 * (double)n * log2((double)n)) * slower);
    mb_call calls[] = {{0, 0, 0, solve, MB_NO_THREAD},
                       {1, 0, solve + 10, solve + 10 + 2 * MS, MB_NO_THREAD}};
    mb_spec spec = {
        .regions = names, .num_regions = 2, .calls = calls, .num_calls = 2, .mpi_size = 1};
    sp_model m;
    mb_model(&spec, &m);
    if (sp_model_meta_int(&m, "problem_size", n) || sp_model_meta_float(&m, "dt", 0.5) ||
        (mesh && sp_model_meta_string(&m, "mesh", mesh)))
        exit(1);
    sp_model_row *row = mb_row(&m, 0, 0);
    free(row->tags);
    row->tags = strdup("[\"solver\", \"linear\"]");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    sp_write_options options = {SP_COMPRESSION_NONE, 0};
    sp_error err = {0};
    if (!row->tags || sp_write_model(&m, path, &options, &err) != SP_OK) {
        fprintf(stderr, "make_model_runs: %s\n", err.message);
        exit(1);
    }
    sp_model_clear(&m);
}

static void write_grid_run(const char *dir, int64_t p, int64_t n) {
    static const char *const grid_names[] = {"solve", "exchange"};
    int64_t solve = MS + 1000 * p * n,
            exchange = MS / 2 + 2000 * p + 3000 * llround(log2((double)n));
    mb_call calls[] = {{0, 0, 0, solve, MB_NO_THREAD},
                       {1, 0, solve + 10, solve + 10 + exchange, MB_NO_THREAD}};
    mb_spec spec = {
        .regions = grid_names, .num_regions = 2, .calls = calls, .num_calls = 2, .mpi_size = 1};
    sp_model m;
    mb_model(&spec, &m);
    if (sp_model_meta_int(&m, "procs", p) || sp_model_meta_int(&m, "problem_size", n)) exit(1);
    char path[4096];
    snprintf(path, sizeof path, "%s/grid_%lld_%lld.h5", dir, (long long)p, (long long)n);
    sp_write_options options = {SP_COMPRESSION_NONE, 0};
    sp_error err = {0};
    if (sp_write_model(&m, path, &options, &err) != SP_OK) {
        fprintf(stderr, "make_model_runs: %s\n", err.message);
        exit(1);
    }
    sp_model_clear(&m);
}

int main(int argc, char **argv) {
    if (argc != 2 && !(argc == 3 && strcmp(argv[2], "grid") == 0)) {
        fprintf(stderr, "usage: make_model_runs DIR [grid]\n");
        return 2;
    }
    if (argc == 3) {
        for (int64_t p = 2; p <= 32; p *= 2)
            for (int64_t n = 16; n <= 256; n *= 2)
                write_grid_run(argv[1], p, n);
        return 0;
    }
    for (int64_t n = 2; n <= 32; n *= 2) {
        char file[64];
        snprintf(file, sizeof file, "size_%lld.h5", (long long)n);
        write_run(argv[1], file, n, n <= 8 ? "box" : "ring", 1.0);
    }
    write_run(argv[1], "size_32b.h5", 32, "ring", 1.1);
    write_run(argv[1], "nomesh.h5", 4, NULL, 1.0);
    return 0;
}
