/*
 * Runs the reader's fuzz harness without libFuzzer: first every file given
 * on the command line (or in a directory given there: the regression
 * inputs), then --count pseudo-random inputs from --seed. Deterministic, so
 * ctest can run it with any compiler.
 *
 *   fuzz_reader_driver [--seed N] [--count N] [--max-length N] [FILE|DIR]...
 *
 * Environment: SP_FUZZ_COUNT overrides --count; SP_FUZZ_LAST=file keeps the
 * input being run (a crash leaves it there).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "fuzz_reader.h"

static unsigned long runs, successes;

/* With SP_FUZZ_LAST=file each input is saved there first, so that an input
 * that crashes the harness is left behind as a regression input. */
static void save_input(const uint8_t *data, size_t size) {
    const char *path = getenv("SP_FUZZ_LAST");
    FILE *f = path ? fopen(path, "wb") : NULL;
    if (!f) return;
    fwrite(data, 1, size, f);
    fclose(f);
}

static void run(const uint8_t *data, size_t size) {
    save_input(data, size);
    successes += (unsigned long)sp_fuzz_reader_one(data, size);
    runs++;
}

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    uint8_t buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    run(buf, n);
    return 0;
}

static int run_path(const char *path) {
    struct stat sb;
    if (stat(path, &sb) != 0) {
        perror(path);
        return 1;
    }
    if (!S_ISDIR(sb.st_mode)) return run_file(path);
    DIR *dir = opendir(path);
    if (!dir) return 1;
    int rc = 0;
    for (struct dirent *e; (e = readdir(dir));) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "README.md") == 0) continue;
        char file[4096];
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        rc |= run_file(file);
    }
    closedir(dir);
    return rc;
}

/* xorshift64*: the same inputs on every machine. */
static uint64_t next(uint64_t *s) {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

static void run_random(uint64_t seed, unsigned long count, size_t max_length) {
    uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
    uint8_t *buf = malloc(max_length ? max_length : 1);
    for (unsigned long i = 0; i < count; i++) {
        size_t n = (size_t)(next(&state) % (max_length + 1));
        for (size_t j = 0; j < n; j++)
            buf[j] = (uint8_t)(next(&state) >> 56);
        run(buf, n);
    }
    free(buf);
}

int main(int argc, char **argv) {
    uint64_t seed = 1;
    unsigned long count = 1000;
    size_t max_length = 600;
    const char *env = getenv("SP_FUZZ_COUNT"); /* e.g. fewer under valgrind */
    if (env) count = strtoul(env, NULL, 10);
    int rc = 0;
    sp_fuzz_reader_init();
    clock_t start = clock();
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--count") == 0 && i + 1 < argc) {
            count = strtoul(argv[++i], NULL, 10);
            if (env) count = strtoul(env, NULL, 10);
        } else if (strcmp(argv[i], "--max-length") == 0 && i + 1 < argc)
            max_length = strtoul(argv[++i], NULL, 10);
        else
            rc |= run_path(argv[i]);
    }
    run_random(seed, count, max_length);
    sp_fuzz_reader_cleanup();
    printf("fuzz_reader_driver: %lu inputs (%lu read successfully) in %.1f s, seed %llu\n", runs,
           successes, (double)(clock() - start) / CLOCKS_PER_SEC, (unsigned long long)seed);
    return rc;
}
